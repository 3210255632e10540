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
    /// Time, location and what the kind says. Its fence indices point into `referenced`, the
    /// fences this record names, not into any fence set.
    public var event: GeofenceEvent
    /// The fences the event names, in the order it names them: the one it is about (with its
    /// name), then those it lists (by id only, as the line carries them).
    public var referenced: [Fence]
    /// The event's JSON line, as printed.
    public var json: String

    public var kind: GeofenceEvent.Kind { event.kind }
    public var time: UTCTime { event.time }
    /// The fence the event is about.
    public var fence: Fence? { event.fence.map { referenced[$0] } }
    /// `registered`, `unregistered`, `heartbeat`: the fence ids.
    public var fences: [FenceID]? { event.listedFences.map { $0.map { referenced[$0].id } } }

    /// The record of an event the engine just produced, against the fence set it refers to. Its
    /// numbers are taken at the precision the line prints them with, so that a record is the same
    /// whether it comes from the engine or back from the state file.
    public init(_ outgoing: OutgoingEvent, fences set: FenceSet) {
        var referenced: [Fence] = []
        event = outgoing.event.asPrinted.renumberingFences(
            about: { index in
                referenced.append(Fence(id: set.ids[index], name: set.name(index)))
                return referenced.count - 1
            },
            listed: { index in
                referenced.append(Fence(id: set.ids[index], name: nil))
                return referenced.count - 1
            })
        self.referenced = referenced
        id = outgoing.id
        json = outgoing.json
    }

    /// Reads one event line back (as `GeofenceEvent.writeJSON` wrote it). Nil for a line that is
    /// not an event of a kind this version knows, or that lacks a field its kind has.
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
        var fields = EventFields()
        try scanner.object { (scanner, key) throws(JSONSyntaxError) in
            switch key {
            case "id": id = try scanner.optionalString()
            case "type": kind = try scanner.optionalString().flatMap(GeofenceEvent.Kind.init(rawValue:))
            case "time": time = try scanner.optionalString().flatMap(UTCTime.init(iso:))
            case "fence": fence = try decodeFence(&scanner)
            case "location": location = try decodeLocation(&scanner)
            case "fences", "inside":
                var ids: [FenceID] = []
                try scanner.expect(0x5B, "'['")
                if !scanner.consume(0x5D) {
                    repeat { ids.append(try scanner.fenceID()) } while try scanner.next(close: 0x5D)
                }
                fences = ids
            default: try fields.read(key, from: &scanner)
            }
        }
        guard scanner.peek() == 0, let id, let kind, let time else { return nil }
        // The fence about comes first in `referenced`, then the listed ones.
        let referenced = (fence.map { [$0] } ?? []) + (fences ?? []).map { Fence(id: $0, name: nil) }
        let about = fence == nil ? nil : 0
        let listed = fences.map { _ in Array((about == nil ? 0 : 1)..<referenced.count) }
        guard let payload = fields.payload(kind, fence: about, listed: listed) else { return nil }
        let event = GeofenceEvent(payload, time: time, location: location)
        return EventRecord(id: id, event: event, referenced: referenced, json: line)
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

    static func decodeCause(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> AlarmCause? {
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

    private init(id: String, event: GeofenceEvent, referenced: [Fence], json: String) {
        self.id = id
        self.event = event
        self.referenced = referenced
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
        // A number printed as `null` (not finite) is kept as it is: its kind has it.
        func kept(_ value: Double, _ decimals: Int) -> Double { printed(value, decimals) ?? value }
        switch payload {
        case .dwell(var dwell):
            dwell.duration = kept(dwell.duration, JSONPrecision.seconds)
            event.payload = .dwell(dwell)
        case .visit(var visit):
            visit.duration = kept(visit.duration, JSONPrecision.seconds)
            event.payload = .visit(visit)
        case .approach(var approach):
            approach.distance = kept(approach.distance, JSONPrecision.metres)
            approach.eta = kept(approach.eta, JSONPrecision.seconds)
            event.payload = .approach(approach)
        case .speeding(var speeding):
            speeding.speed = kept(speeding.speed, JSONPrecision.speed)
            speeding.limit = kept(speeding.limit, JSONPrecision.speed)
            event.payload = .speeding(speeding)
        case .anchorWarning(var warning):
            warning.distance = kept(warning.distance, JSONPrecision.metres)
            event.payload = .anchorWarning(warning)
        case .alarm(var alarm):
            alarm.anchorDistance = printed(alarm.anchorDistance, JSONPrecision.metres)
            event.payload = .alarm(alarm)
        case .alarmCleared(var alarm):
            alarm.anchorDistance = printed(alarm.anchorDistance, JSONPrecision.metres)
            event.payload = .alarmCleared(alarm)
        case .alarmAcknowledged(var alarm, let who):
            alarm.anchorDistance = printed(alarm.anchorDistance, JSONPrecision.metres)
            event.payload = .alarmAcknowledged(alarm, by: who)
        case .enter, .exit, .cross, .fixLost, .fixAcquired, .deviceLost, .deviceConnected, .heartbeat, .registered,
            .unregistered, .error, .stationary, .moving, .integrity:
            break
        }
        return event
    }

    /// The event with its fence indices replaced: the fence it is about by `about`, and those it
    /// lists by `listed`, in that order.
    func renumberingFences(about: (Int) -> Int, listed: (Int) -> Int) -> GeofenceEvent {
        var event = self
        switch payload {
        case .enter(var enter):
            enter.fence = about(enter.fence)
            event.payload = .enter(enter)
        case .exit(var exit):
            exit.fence = about(exit.fence)
            event.payload = .exit(exit)
        case .dwell(var dwell):
            dwell.fence = about(dwell.fence)
            event.payload = .dwell(dwell)
        case .visit(var visit):
            visit.fence = about(visit.fence)
            event.payload = .visit(visit)
        case .cross(let fence): event.payload = .cross(fence: about(fence))
        case .approach(var approach):
            approach.fence = about(approach.fence)
            event.payload = .approach(approach)
        case .speeding(var speeding):
            speeding.fence = about(speeding.fence)
            event.payload = .speeding(speeding)
        case .anchorWarning(var warning):
            warning.anchor = about(warning.anchor)
            event.payload = .anchorWarning(warning)
        case .alarm(var alarm):
            alarm.fence = alarm.fence.map(about)
            event.payload = .alarm(alarm)
        case .alarmCleared(var alarm):
            alarm.fence = alarm.fence.map(about)
            event.payload = .alarmCleared(alarm)
        case .alarmAcknowledged(var alarm, let who):
            alarm.fence = alarm.fence.map(about)
            event.payload = .alarmAcknowledged(alarm, by: who)
        case .heartbeat(let inside): event.payload = .heartbeat(inside: inside.map(listed))
        case .registered(let fences, let message):
            event.payload = .registered(fences: fences.map(listed), message: message)
        case .unregistered(let fences): event.payload = .unregistered(fences: fences.map(listed))
        case .fixLost, .fixAcquired, .deviceLost, .deviceConnected, .error, .stationary, .moving, .integrity:
            break
        }
        return event
    }
}

/// Fence indices by id, for readers that meet fences by id (the report over a state file): one
/// lookup in the set's id table per event instead of a search through every fence. Numbers
/// compare by value (`7` and `7.0` are the same id), as when the file was loaded.
public struct FenceLookup: Sendable {
    private let ids: FenceIDColumn

    public init(_ set: FenceSet) { ids = set.ids }

    public func index(of id: FenceID) -> Int? { ids.firstIndex(sameAs: id) }
}
