import Fences
import Foundation

/// The properties that choose which fences Home Assistant and OwnTracks hear about
/// (docs/mqtt.md): `"owntracks": true` and `"homeassistant": true`, exactly the JSON `true`.
/// Anything else (absent, `false`, `"yes"`, `1`) leaves the fence unmarked.
enum FenceMark: String, Sendable {
    case ownTracks = "owntracks"
    case homeAssistant = "homeassistant"

    /// Whether fence `index` of `fences` carries this mark.
    func isOn(_ fences: FenceSet, _ index: Int) -> Bool {
        let properties = fences.info(index).propertiesJSON
        // Most fences say nothing about either: no JSON parse for them.
        guard properties.contains("\"\(rawValue)\"") else { return false }
        guard let marks = try? JSONDecoder().decode(Marks.self, from: Data(properties.utf8)) else { return false }
        switch self {
        case .ownTracks: return marks.ownTracks == true
        case .homeAssistant: return marks.homeAssistant == true
        }
    }

    /// The indices of the marked fences, in file order.
    func indices(in fences: FenceSet) -> [Int] {
        (0..<fences.count).filter { isOn(fences, $0) }
    }

    /// Each key on its own, so that a wrong type under one does not hide the other.
    private struct Marks: Decodable {
        var ownTracks: Bool?
        var homeAssistant: Bool?

        enum CodingKeys: String, CodingKey {
            case ownTracks = "owntracks"
            case homeAssistant = "homeassistant"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            ownTracks = try? container.decodeIfPresent(Bool.self, forKey: .ownTracks)
            homeAssistant = try? container.decodeIfPresent(Bool.self, forKey: .homeAssistant)
        }
    }
}
