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
        for kind in GeofenceEvent.Kind.allCases {
            var event = GeofenceEvent(kind: kind, time: time)
            switch kind {
            case .registered, .unregistered, .heartbeat: event.fences = [0, 1]
            case .error, .deviceLost, .deviceConnected: event.message = "line\nwith \"quotes\" and ü"
            case .enter, .exit, .dwell, .visit, .cross, .approach, .speeding, .fixLost, .fixAcquired, .stationary,
                .moving:
                event.fence = 1
                event.location = .init(
                    latitude: 47.123456789, longitude: -8.987654321, accuracy: 3.456, speed: 12.3456, track: 271.234)
            case .anchorWarning:
                event.fence = 0
                event.anchorDistance = 32.109
            case .alarm, .alarmAcknowledged, .alarmCleared:
                event.fence = 0
                event.cause = AlarmCause(eventID: "0123456789abcdef", kind: .exit)
                event.alarmStatus = kind == .alarm ? .active : .clear
                event.anchorDistance = 61.2345
                if kind == .alarmAcknowledged { event.acknowledgedBy = .mqtt }
            }
            if kind == .approach {
                event.distance = 123.456
                event.eta = 9.8765
            }
            if kind == .visit {
                event.enterTime = UTCTime(millisecondsSinceEpoch: 1_770_113_000_000)
                event.exitTime = time
                event.duration = 736.123
            }
            if kind == .enter {
                event.initial = true
                event.tooLow = true
            }
            if kind == .exit { event.reason = .expired }
            if kind == .speeding {
                event.speed = 7.654
                event.limit = 5 / 3.6
            }
            events.append(event)
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
