import Fences
import JSONInput

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
        return Self.isTrue(rawValue, in: properties)
    }

    /// The indices of the marked fences, in file order.
    func indices(in fences: FenceSet) -> [Int] {
        (0..<fences.count).filter { isOn(fences, $0) }
    }

    /// Whether the object `properties` has `key` with the JSON `true` (the last one, if it repeats);
    /// false for anything else, and for text that is not one JSON object.
    private static func isTrue(_ key: String, in properties: String) -> Bool {
        var text = properties
        var wanted = key
        return text.withUTF8 { bytes -> Bool in
            wanted.withUTF8 { name -> Bool in
                var scanner = JSONScanner(bytes)
                var marked = false
                do throws(JSONSyntaxError) {
                    try scanner.members { (scanner, member) throws(JSONSyntaxError) in
                        if !member.escaped, UnsafeRawBufferPointer(name).elementsEqual(scanner.bytes(member)) {
                            marked = try scanner.boolIfBool() == true
                        } else {
                            try scanner.skipValue()
                        }
                    }
                    try scanner.expectEnd()
                } catch {
                    return false
                }
                return marked
            }
        }
    }
}
