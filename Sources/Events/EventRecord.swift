import Fences
import JSONInput
import JSONOutput
import NMEA

/// An event as it went out, independent of any fence set: what the state file keeps and gives
/// back, and what the report, its exports and `status` read. A fence is named by its id (and
/// name), not by an index, because the fence file may have changed since.
///
/// Encoded by `GeofenceEvent.writeJSON` (the one encoder: the line that was printed is the record
/// on disk) and decoded by `init(json:)` (the one decoder), so that no reader takes JSON apart
/// on its own.
public struct EventRecord: Sendable, Equatable {
    public struct Fence: Sendable, Equatable {
        public var id: FenceID
        public var name: String?

        public init(id: FenceID, name: String?) {
            self.id = id
            self.name = name
        }
    }

    public var id: String
    /// Kind, time, location and the details of the kind. Its `fence` and `fences` (indices into a
    /// fence set) are always nil: the record's own `fence` and `fences` name them.
    public var event: GeofenceEvent
    public var fence: Fence?
    /// `registered`, `unregistered`, `heartbeat`: the fence ids.
    public var fences: [FenceID]?
    /// The event's JSON line, as printed.
    public var json: String

    public var kind: GeofenceEvent.Kind { event.kind }
    public var time: UTCTime { event.time }

    /// The record of an event the engine just produced, against the fence set it refers to. Its
    /// numbers are taken at the precision the line prints them with, so that a record is the same
    /// whether it comes from the engine or back from the state file.
    public init(_ outgoing: OutgoingEvent, fences set: FenceSet) {
        var event = outgoing.event.asPrinted
        id = outgoing.id
        json = outgoing.json
        fence = event.fence.map { Fence(id: set.ids[$0], name: set.name($0)) }
        fences = event.fences.map { $0.map { set.ids[$0] } }
        event.fence = nil
        event.fences = nil
        self.event = event
    }

    /// Reads one event line back (as `GeofenceEvent.writeJSON` wrote it). Nil for a line that is
    /// not an event of a kind this version knows.
    public init?(json line: String) {
        var copy = line
        guard let record = copy.withUTF8({ bytes in try? Self.decode(bytes, line: line) }) else { return nil }
        self = record
    }

    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, line: String) throws(JSONSyntaxError)
        -> EventRecord?
    {
        var scanner = JSONScanner(bytes)
        var id: String?
        var kind: GeofenceEvent.Kind?
        var time: UTCTime?
        var fence: Fence?
        var fences: [FenceID]?
        var location: GeofenceEvent.Location?
        var details = GeofenceEvent(kind: .error, time: UTCTime(millisecondsSinceEpoch: 0))
        try scanner.object { (scanner, key) throws(JSONSyntaxError) in
            switch key {
            case "id": id = try scanner.optionalString()
            case "type": kind = try scanner.optionalString().flatMap(GeofenceEvent.Kind.init(rawValue:))
            case "time": time = try scanner.optionalString().flatMap(UTCTime.init(iso:))
            case "fence": fence = try decodeFence(&scanner)
            case "location": location = try decodeLocation(&scanner)
            case "initial": details.initial = try scanner.bool()
            case "distance": details.distance = try scanner.optionalNumber()
            case "eta": details.eta = try scanner.optionalNumber()
            case "duration": details.duration = try scanner.optionalNumber()
            case "enter_time": details.enterTime = try scanner.optionalString().flatMap(UTCTime.init(iso:))
            case "exit_time": details.exitTime = try scanner.optionalString().flatMap(UTCTime.init(iso:))
            case "message": details.message = try scanner.optionalString()
            case "reason": details.reason = try scanner.optionalString().flatMap(TransitionReason.init(rawValue:))
            case "speed": details.speed = try scanner.optionalNumber()
            case "limit": details.limit = try scanner.optionalNumber()
            case "too_low": details.tooLow = try scanner.bool()
            case "state": details.alarmStatus = try scanner.optionalString().flatMap(AlarmStatus.init(rawValue:))
            case "cause": details.cause = try decodeCause(&scanner)
            case "by": details.acknowledgedBy = try scanner.optionalString().flatMap(AlarmAcknowledger.init(rawValue:))
            case "anchor_distance": details.anchorDistance = try scanner.optionalNumber()
            case "fences", "inside":
                var ids: [FenceID] = []
                try scanner.expect(0x5B, "'['")
                if !scanner.consume(0x5D) {
                    repeat { ids.append(try scanner.fenceID()) } while try scanner.next(close: 0x5D)
                }
                fences = ids
            default: try scanner.skipValue()
            }
        }
        guard scanner.peek() == 0, let id, let kind, let time else { return nil }
        details.kind = kind
        details.time = time
        details.location = location
        return EventRecord(id: id, event: details, fence: fence, fences: fences, json: line)
    }

    private static func decodeFence(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> Fence? {
        var id: FenceID?
        var name: String?
        try scanner.object { (scanner, key) throws(JSONSyntaxError) in
            switch key {
            case "id": id = try scanner.fenceID()
            case "name": name = try scanner.optionalString()
            default: try scanner.skipValue()
            }
        }
        return id.map { Fence(id: $0, name: name) }
    }

    private static func decodeCause(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> AlarmCause? {
        var id: String?
        var kind: GeofenceEvent.Kind?
        try scanner.object { (scanner, key) throws(JSONSyntaxError) in
            switch key {
            case "id": id = try scanner.optionalString()
            case "type": kind = try scanner.optionalString().flatMap(GeofenceEvent.Kind.init(rawValue:))
            default: try scanner.skipValue()
            }
        }
        guard let id, let kind else { return nil }
        return AlarmCause(eventID: id, kind: kind)
    }

    private static func decodeLocation(_ scanner: inout JSONScanner) throws(JSONSyntaxError)
        -> GeofenceEvent.Location?
    {
        var latitude: Double?
        var longitude: Double?
        var location = GeofenceEvent.Location(latitude: 0, longitude: 0)
        try scanner.object { (scanner, key) throws(JSONSyntaxError) in
            switch key {
            case "lat": latitude = try scanner.optionalNumber()
            case "lon": longitude = try scanner.optionalNumber()
            case "accuracy": location.accuracy = try scanner.optionalNumber()
            case "speed": location.speed = try scanner.optionalNumber()
            case "track": location.track = try scanner.optionalNumber()
            default: try scanner.skipValue()
            }
        }
        guard let latitude, let longitude else { return nil }
        location.latitude = latitude
        location.longitude = longitude
        return location
    }

    private init(id: String, event: GeofenceEvent, fence: Fence?, fences: [FenceID]?, json: String) {
        self.id = id
        self.event = event
        self.fence = fence
        self.fences = fences
        self.json = json
    }
}

extension GeofenceEvent {
    /// The event with its numbers at the precisions `writeJSON` prints (docs/formats.md), and
    /// those it prints as `null` (not finite) left out.
    var asPrinted: GeofenceEvent {
        func printed(_ value: Double?, _ decimals: Int) -> Double? {
            guard let value, value.isFinite else { return nil }
            let scale = [1.0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15][
                min(max(decimals, 0), 15)]
            let scaled = (value * scale).rounded()
            // Beyond 2^53 the writer prints the double itself.
            return scaled.magnitude < 9.0e15 ? scaled / scale : value
        }
        var event = self
        if let location {
            event.location?.latitude = printed(location.latitude, JSONPrecision.coordinate) ?? .nan
            event.location?.longitude = printed(location.longitude, JSONPrecision.coordinate) ?? .nan
            event.location?.accuracy = printed(location.accuracy, JSONPrecision.metres)
            event.location?.speed = printed(location.speed, JSONPrecision.speed)
            event.location?.track = printed(location.track, JSONPrecision.degrees)
        }
        event.distance = printed(distance, JSONPrecision.metres)
        event.eta = printed(eta, JSONPrecision.seconds)
        event.duration = printed(duration, JSONPrecision.seconds)
        event.speed = printed(speed, JSONPrecision.speed)
        event.limit = printed(limit, JSONPrecision.speed)
        event.anchorDistance = printed(anchorDistance, JSONPrecision.metres)
        return event
    }
}

/// Fence indices by id, built once for readers that meet fences by id (the report over a state
/// file): one hash lookup per event instead of a search through every fence. Numbers compare by
/// value (`7` and `7.0` are the same id), as when the file was loaded.
public struct FenceLookup: Sendable {
    private let indices: [FenceID.Key: Int]

    public init(_ set: FenceSet) {
        var indices: [FenceID.Key: Int] = [:]
        indices.reserveCapacity(set.count)
        for (index, id) in set.ids.enumerated() where indices[id.key] == nil { indices[id.key] = index }
        self.indices = indices
    }

    public func index(of id: FenceID) -> Int? { indices[id.key] }
}
