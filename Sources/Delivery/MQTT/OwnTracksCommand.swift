import Fences
import Foundation
import Platform

import class Platform.Locked

/// An OwnTracks `_type: cmd`, `action: setWaypoints` message, as the apps and the OwnTracks
/// Recorder send it to `owntracks/USER/DEVICE/cmd` (docs/mqtt.md, "OwnTracks regions"), read
/// into typed changes of the OwnTracks region layer. Broker data never reaches a shell: it
/// becomes numbers and strings here and nothing else.
public struct OwnTracksCommand: Sendable, Equatable {
    public enum Change: Sendable, Equatable {
        /// A region to add, or to replace the one with its id.
        case set(LayerCircle)
        /// A waypoint with invalid coordinates: the region with this id goes, as in the apps.
        case delete(String)
    }

    /// `true`: the changes are applied to the regions there are; `false`: they are the new regions.
    public var merges: Bool
    public var changes: [Change]
    /// Waypoints that were left out, each with why (no id, a bad radius).
    public var refused: [String]

    /// The regions after this command, from `regions`, in order: kept ones where they were, new ones
    /// at the end.
    public func applied(to regions: [LayerCircle]) -> [LayerCircle] {
        var result = merges ? regions : []
        for change in changes {
            switch change {
            case .set(let circle):
                if let index = result.firstIndex(where: { $0.id == circle.id }) {
                    result[index] = circle
                } else {
                    result.append(circle)
                }
            case .delete(let id):
                result.removeAll { $0.id == id }
            }
        }
        return result
    }

    public enum ParseResult: Sendable, Equatable {
        case command(OwnTracksCommand)
        /// Another `cmd` action (`reportLocation`, `dump`, ...): meant for a phone, not for us.
        case otherAction(String)
        case problem(String)
    }

    /// Reads a message payload.
    public static func parse(_ payload: [UInt8]) -> ParseResult {
        let message: Message
        do {
            message = try JSONDecoder().decode(Message.self, from: Data(payload))
        } catch {
            return .problem("not an OwnTracks command (a JSON object with \"_type\":\"cmd\")")
        }
        guard message.type == "cmd" else { return .problem("\"_type\" is not \"cmd\"") }
        guard message.action == "setWaypoints" else { return .otherAction(message.action ?? "(none)") }
        guard let list = message.waypoints else { return .problem("setWaypoints without \"waypoints\"") }
        var command = OwnTracksCommand(merges: list.merges || message.merge == true, changes: [], refused: [])
        for (index, waypoint) in list.items.enumerated() {
            switch waypoint.change {
            case .success(let change): command.changes.append(change)
            case .failure(let problem): command.refused.append("waypoint \(index): \(problem.text)")
            }
        }
        return .command(command)
    }

    private struct Message: Decodable {
        var type: String?
        var action: String?
        var waypoints: WaypointList?
        var merge: Bool?

        enum CodingKeys: String, CodingKey {
            case type = "_type"
            case action, waypoints, merge
        }
    }

    /// `waypoints` is an OwnTracks `_type: waypoints` object (`{"_type":"waypoints","waypoints":[...]}`),
    /// as the apps export it, or the bare array.
    private struct WaypointList: Decodable {
        var items: [Waypoint]
        var merges: Bool

        enum CodingKeys: String, CodingKey { case waypoints, merge }

        init(from decoder: any Decoder) throws {
            if let items = try? [Waypoint](from: decoder) {
                self.items = items
                merges = false
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            items = try container.decode([Waypoint].self, forKey: .waypoints)
            merges = (try? container.decodeIfPresent(Bool.self, forKey: .merge)) == true
        }
    }

    struct Problem: Error { var text: String }

    /// One `_type: waypoint`: `rid` (else `tst`, as older apps identify it), `desc`, `lat`, `lon`,
    /// `rad`; numbers may come as strings, as older apps send them.
    private struct Waypoint: Decodable {
        var rid: String?
        var desc: String?
        var lat: Double?
        var lon: Double?
        var rad: Double?
        /// When the app made the waypoint, Unix seconds: kept as the region's `tst`.
        var tst: Double?

        enum CodingKeys: String, CodingKey { case rid, tst, desc, lat, lon, rad }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            rid = Self.text(container, .rid) ?? Self.text(container, .tst)
            desc = try? container.decodeIfPresent(String.self, forKey: .desc)
            lat = Self.number(container, .lat)
            lon = Self.number(container, .lon)
            rad = Self.number(container, .rad)
            tst = Self.number(container, .tst)
        }

        static func number(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) -> Double? {
            if let value = try? container.decodeIfPresent(Double.self, forKey: key) { return value }
            return (try? container.decodeIfPresent(String.self, forKey: key)).flatMap { $0.flatMap(Double.init) }
        }

        static func text(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) -> String? {
            if let value = try? container.decodeIfPresent(String.self, forKey: key), !value.isEmpty { return value }
            return (try? container.decodeIfPresent(Int64.self, forKey: key)).flatMap { $0.map(String.init) }
        }

        /// `tst` in ms, when it is a plausible Unix time (after 1970, before the year 10000).
        var createdMilliseconds: Int64? {
            guard let tst, tst.isFinite, tst > 0, tst < 253_402_300_800 else { return nil }
            return Int64(tst.rounded()) * 1000
        }

        var change: Result<Change, Problem> {
            guard let rid else { return .failure(Problem(text: "no \"rid\" (nor \"tst\") to name it")) }
            guard let lat, let lon, lat.isFinite, lon.isFinite, (-90...90).contains(lat), (-180...180).contains(lon)
            else { return .success(.delete(rid)) }
            guard let rad, rad.isFinite, rad > 0 else {
                return .failure(
                    Problem(text: "\"rad\" of region \(FenceID.string(rid).json) must be a positive number of metres"))
            }
            return .success(
                .set(
                    LayerCircle(
                        layer: .ownTracks, id: rid, name: desc, circle: CircleShape(lat: lat, lon: lon, radius: rad),
                        created: createdMilliseconds)))
        }
    }
}

/// Where the MQTT connection's thread leaves what arrived on the OwnTracks command topic, for the
/// engine thread to take at its next round.
public final class OwnTracksCommandInbox: Sendable {
    public enum Item: Sendable {
        case command(OwnTracksCommand)
        case problem(String)
    }

    private let items = Locked<[Item]>([])

    public init() {}

    public func put(_ payload: [UInt8], topic: String) {
        let item: Item?
        switch OwnTracksCommand.parse(payload) {
        case .command(let command): item = .command(command)
        case .otherAction: item = nil
        case .problem(let problem): item = .problem("\(topic): ignored: \(problem)")
        }
        guard let item else { return }
        items.withLock { $0.append(item) }
    }

    /// Some command or problem waits to be taken.
    public var hasPending: Bool { items.withLock { !$0.isEmpty } }

    public func take() -> [Item] {
        items.withLock { items in
            defer { items = [] }
            return items
        }
    }
}
