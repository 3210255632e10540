import NMEA
import Testing

@testable import Events
@testable import Fences

/// The event's one encoder (`writeJSON`) and one decoder (`EventRecord(json:)`) agree: what the
/// state file gives back is the record the engine produced.
@Suite struct EventRecordTests {
    static let fences = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","id":"gym \\"north\\"","geometry":{"type":"Point","coordinates":[8.5417,47.3769]},
         "properties":{"name":"Gym","radius":50,"nested":{"a":[1,2,{"b":null}]}}},
        {"type":"Feature","id":7.0,"geometry":{"type":"Point","coordinates":[8.5,47.3]},"properties":{"radius":20}}]}
        """

    @Test func everyKindReadsBackAsTheEngineMadeIt() throws {
        let set = try FenceSet.parse(Self.fences)
        let time = UTCTime(millisecondsSinceEpoch: 1_770_113_736_123)
        var events: [GeofenceEvent] = []
        let location = GeofenceEvent.Location(
            latitude: 47.123456789, longitude: -8.987654321, accuracy: 3.456, speed: 12.3456, track: 271.234)
        let message = "line\nwith \"quotes\" and ü"
        let wallTime = UTCTime(millisecondsSinceEpoch: 1_795_000_000_456)
        let alarm = GeofenceEvent.Alarm(
            fence: 0, cause: AlarmCause(eventID: "0123456789abcdef", kind: .exit), status: .clear,
            anchorDistance: 61.2345)
        var raised = alarm
        raised.status = .active
        for kind in GeofenceEvent.Kind.allCases {
            let payload: GeofenceEvent.Payload =
                switch kind {
                case .enter: .enter(GeofenceEvent.Enter(fence: 1, initial: true, restrictions: [.clearance]))
                case .exit: .exit(GeofenceEvent.Exit(fence: 1, reason: .expired))
                case .dwell:
                    .dwell(
                        GeofenceEvent.Dwell(
                            fence: 1, enterTime: UTCTime(millisecondsSinceEpoch: 1_770_113_000_000), duration: 736.123))
                case .visit:
                    .visit(
                        GeofenceEvent.Visit(
                            fence: 1, enterTime: UTCTime(millisecondsSinceEpoch: 1_770_113_000_000), exitTime: time,
                            duration: 736.123))
                case .cross: .cross(fence: 1)
                case .approach: .approach(GeofenceEvent.Approach(fence: 1, distance: 123.456, eta: 9.8765))
                case .speeding: .speeding(GeofenceEvent.Speeding(fence: 1, speed: 7.654, limit: 5 / 3.6))
                case .fixLost: .fixLost
                case .fixAcquired: .fixAcquired
                case .stationary: .stationary
                case .moving: .moving
                case .registered: .registered(fences: [0, 1], message: message)
                case .unregistered: .unregistered(fences: [0, 1])
                case .heartbeat: .heartbeat(inside: [0, 1])
                // As a replay stamps them: on the capture's clock, the wall clock kept.
                case .error: .error(problem: .readBack(message), wallTime: wallTime)
                case .deviceLost: .deviceLost(message: message, wallTime: wallTime)
                case .deviceConnected: .deviceConnected(message: message, wallTime: wallTime)
                case .anchorWarning: .anchorWarning(GeofenceEvent.AnchorWarning(anchor: 0, distance: 32.109))
                case .alarm: .alarm(raised)
                case .alarmAcknowledged: .alarmAcknowledged(alarm, by: .mqtt)
                case .alarmCleared: .alarmCleared(alarm)
                case .integrity:
                    .integrity(
                        GeofenceEvent.Integrity(
                            state: .spoofed, reasons: IntegrityReasons([.uniformCN0, .clockJump]),
                            since: UTCTime(millisecondsSinceEpoch: 1_770_113_000_000)))
                }
            events.append(
                GeofenceEvent(payload, time: time, location: payload.kind.alarmRole == .none ? location : nil))
        }
        for event in events {
            let outgoing = OutgoingEvent(event, fences: set)
            let made = EventRecord(outgoing, fences: set)
            let read = try #require(EventRecord(json: outgoing.json), "\(outgoing.json)")
            #expect(read == made, "\(event.kind)")
        }
    }

    @Test func aFenceIsFoundByItsIdAndNumbersByValue() throws {
        let set = try FenceSet.parse(Self.fences)
        let lookup = FenceLookup(set)
        #expect(lookup.index(of: .string(#"gym "north""#)) == 0)
        #expect(lookup.index(of: .number("7")) == 1)
        #expect(lookup.index(of: .number("8")) == nil)
        #expect(lookup.index(of: .string("7")) == nil)
    }

    @Test func idsReadBackFromTheirJSON() {
        #expect(FenceID(json: #""a\"b""#) == .string(#"a"b"#))
        #expect(FenceID(json: "7.50") == .number("7.50"))
        #expect(FenceID(json: "gym") == nil)
        #expect(FenceID(json: #""a" 1"#) == nil)
    }

    @Test func linesThatAreNotEventsAreRefused() {
        #expect(EventRecord(json: #"{"id":"abc"}"#) == nil)
        #expect(EventRecord(json: #"{"id":"a","type":"teleport","time":"2026-02-03T10:15:02.000Z"}"#) == nil)
        #expect(EventRecord(json: "not json") == nil)
    }
}
