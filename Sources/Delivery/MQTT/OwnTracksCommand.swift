import Events
import Fences
import JSONInput
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
    public var refused: [WaypointRefusal]

    /// A waypoint left out: its place in the command's list, and why.
    public struct WaypointRefusal: Sendable, Equatable {
        public let index: Int
        public let problem: WaypointProblem
    }

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
        case otherAction(action: String)
        case problem(OwnTracksCommandProblem)
    }

    /// Reads a message payload.
    public static func parse(_ payload: [UInt8]) -> ParseResult {
        let read = payload.withUnsafeBufferPointer { bytes -> Message? in
            var scanner = JSONScanner(bytes)
            guard let message = try? Message(&scanner), (try? scanner.expectEnd()) != nil else { return nil }
            return message
        }
        guard let message = read else {
            return .problem(.notACommand)
        }
        guard message.type == "cmd" else { return .problem(.notOfTypeCmd) }
        guard message.action == "setWaypoints" else { return .otherAction(action: message.action ?? "(none)") }
        guard let list = message.waypoints else { return .problem(.noWaypoints) }
        var command = OwnTracksCommand(merges: list.merges || message.merge == true, changes: [], refused: [])
        for (index, waypoint) in list.items.enumerated() {
            switch waypoint.change {
            case .success(let change): command.changes.append(change)
            case .failure(let problem): command.refused.append(WaypointRefusal(index: index, problem: problem))
            }
        }
        return .command(command)
    }

    /// A member of the wrong type where the message's shape depends on it.
    private struct WrongType: Error {}

    /// The message's members; `null` counts as absent, any other wrong type makes it no command.
    private struct Message {
        var type: String?
        var action: String?
        var waypoints: WaypointList?
        var merge: Bool?

        init(_ scanner: inout JSONScanner) throws {
            guard scanner.nextKind() == .object else { throw WrongType() }
            var type: String?
            var action: String?
            var waypoints: WaypointList?
            var merge: Bool?
            var wrongType = false
            try scanner.object { (scanner, key) throws(JSONSyntaxError) in
                switch (key, scanner.nextKind()) {
                case (_, .null): try scanner.skipValue()
                case ("_type", .string): type = try scanner.string(scanner.stringSpan())
                case ("action", .string): action = try scanner.string(scanner.stringSpan())
                case ("merge", .bool): merge = try scanner.bool()
                case ("waypoints", _):
                    waypoints = try WaypointList(&scanner)
                    if waypoints == nil { wrongType = true }
                case ("_type", _), ("action", _), ("merge", _):
                    wrongType = true
                    try scanner.skipValue()
                default: try scanner.skipValue()
                }
            }
            if wrongType { throw WrongType() }
            self.type = type
            self.action = action
            self.waypoints = waypoints
            self.merge = merge
        }
    }

    /// `waypoints` is an OwnTracks `_type: waypoints` object (`{"_type":"waypoints","waypoints":[...]}`),
    /// as the apps export it, or the bare array.
    private struct WaypointList {
        var items: [Waypoint]
        var merges: Bool

        /// Nil (the value consumed) when it is neither form, or an element is not an object.
        init?(_ scanner: inout JSONScanner) throws(JSONSyntaxError) {
            switch scanner.nextKind() {
            case .array:
                guard let items = try Self.waypoints(&scanner) else { return nil }
                self.items = items
                merges = false
            case .object:
                var items: [Waypoint]?
                var merges = false
                var wrongType = false
                try scanner.object { (scanner, key) throws(JSONSyntaxError) in
                    switch key {
                    case "waypoints":
                        items = try Self.waypoints(&scanner)
                        wrongType = items == nil
                    case "merge": merges = try scanner.boolIfBool() == true
                    default: try scanner.skipValue()
                    }
                }
                guard !wrongType, let items else { return nil }
                self.items = items
                self.merges = merges
            default:
                try scanner.skipValue()
                return nil
            }
        }

        /// An array of waypoint objects; nil (the value consumed) when it is not one.
        static func waypoints(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> [Waypoint]? {
            guard scanner.nextKind() == .array else {
                try scanner.skipValue()
                return nil
            }
            var items: [Waypoint] = []
            var allObjects = true
            try scanner.elements { (scanner) throws(JSONSyntaxError) in
                if scanner.nextKind() == .object {
                    items.append(try Waypoint(&scanner))
                } else {
                    allObjects = false
                    try scanner.skipValue()
                }
            }
            return allObjects ? items : nil
        }
    }

    /// One `_type: waypoint`: `rid` (else `tst`, as older apps identify it), `desc`, `lat`, `lon`,
    /// `rad`; numbers may come as strings, as older apps send them. A member of another type counts
    /// as absent.
    private struct Waypoint {
        var rid: String?
        var desc: String?
        var lat: Double?
        var lon: Double?
        var rad: Double?
        /// When the app made the waypoint, Unix seconds: kept as the region's `tst`.
        var tst: Double?

        init(_ scanner: inout JSONScanner) throws(JSONSyntaxError) {
            var rid: String?
            var tst: String?
            try scanner.object { (scanner, key) throws(JSONSyntaxError) in
                switch key {
                case "rid": rid = try Self.text(&scanner)
                case "tst":
                    // Both the region's creation time (a number) and, without a `rid`, its name.
                    var asNumber = scanner
                    self.tst = try Self.number(&asNumber)
                    tst = try Self.text(&scanner)
                case "desc":
                    desc = try scanner.stringSpanIfString().map { span throws(JSONSyntaxError) in
                        try scanner.string(span)
                    }
                case "lat": lat = try Self.number(&scanner)
                case "lon": lon = try Self.number(&scanner)
                case "rad": rad = try Self.number(&scanner)
                default: try scanner.skipValue()
                }
            }
            self.rid = rid ?? tst
        }

        /// A finite number, or a string that reads as one.
        static func number(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> Double? {
            switch scanner.nextKind() {
            case .number:
                let value = try scanner.number()
                return value.isFinite ? value : nil
            case .string: return Double(try scanner.string(scanner.stringSpan()))
            default:
                try scanner.skipValue()
                return nil
            }
        }

        /// A string that is not empty, or a number that is a whole 64-bit integer, as text.
        static func text(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> String? {
            switch scanner.nextKind() {
            case .string:
                let text = try scanner.string(scanner.stringSpan())
                return text.isEmpty ? nil : text
            case .number:
                let start = scanner.pos
                let value = try scanner.number()
                let written = String(decoding: scanner.bytes((start, scanner.pos, false)), as: UTF8.self)
                if let whole = Int64(written) { return String(whole) }
                guard value == value.rounded(), abs(value) < 0x1p63 else { return nil }
                return String(Int64(value))
            default:
                try scanner.skipValue()
                return nil
            }
        }

        /// `tst` in ms, when it is a plausible Unix time (after 1970, before the year 10000).
        var createdMilliseconds: Int64? {
            guard let tst, tst.isFinite, tst > 0, tst < 253_402_300_800 else { return nil }
            return Int64(tst.rounded()) * 1000
        }

        var change: Result<Change, WaypointProblem> {
            guard let rid else { return .failure(.noID) }
            guard let lat, let lon, lat.isFinite, lon.isFinite, (-90...90).contains(lat), (-180...180).contains(lon)
            else { return .success(.delete(rid)) }
            guard let rad, rad.isFinite, rad > 0 else {
                return .failure(.radiusNotPositive(region: rid))
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
        case problem(FenceLayerProblem)
    }

    private let items = Locked<[Item]>([])

    public init() {}

    public func put(_ payload: [UInt8], topic: String) {
        let item: Item?
        switch OwnTracksCommand.parse(payload) {
        case .command(let command): item = .command(command)
        case .otherAction: item = nil
        case .problem(let problem): item = .problem(.commandIgnored(topic: topic, problem))
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
