import NMEA
import Testing

@testable import Delivery
@testable import Events
@testable import Fences

/// What the sinks make of the restrictions a vehicle breaks: each restriction's flag and limit in
/// the hooks' environment, every one on the console line and in the spoken sentence, none for an
/// unflagged event.
@Suite struct RestrictionSinkTests {
    static let bridge = """
        {"type":"FeatureCollection","features":[{"type":"Feature","id":"b-1","geometry":{"type":"Point",
        "coordinates":[8.5,47.3]},"properties":{"radius":20,"name":"Weak bridge","clearance":3.2,"maxweight":7.5,
        "maxwidth":2.3}}]}
        """

    static func approach(_ restrictions: BrokenRestrictions) -> GeofenceEvent {
        GeofenceEvent(
            .approach(GeofenceEvent.Approach(fence: 0, distance: 1630, eta: 65, restrictions: restrictions)),
            time: UTCTime(millisecondsSinceEpoch: 1_770_113_740_000),
            location: GeofenceEvent.Location(latitude: 47.3, longitude: 8.5, accuracy: 4.5, speed: 25, track: 90))
    }

    @Test func hooksGetEachBrokenRestrictionAndItsLimit() throws {
        let fences = try FenceSet.parse(Self.bridge)
        let flagged = HookEnvironment.variables(
            for: OutgoingEvent(Self.approach([.clearance, .weight]), fences: fences), fences: fences, localZone: .utc)
        #expect(flagged["GPSFENCE_TOO_LOW"] == "1")
        #expect(flagged["GPSFENCE_CLEARANCE"] == "3.2")
        #expect(flagged["GPSFENCE_TOO_HEAVY"] == "1")
        #expect(flagged["GPSFENCE_MAXWEIGHT"] == "7500.0")
        #expect(flagged["GPSFENCE_TOO_WIDE"] == nil && flagged["GPSFENCE_MAXWIDTH"] == nil, "not broken")
        let plain = HookEnvironment.variables(
            for: OutgoingEvent(Self.approach([]), fences: fences), fences: fences, localZone: .utc)
        #expect(plain.keys.filter { $0.hasPrefix("GPSFENCE_TOO") || $0.hasPrefix("GPSFENCE_MAX") }.isEmpty)
    }

    @Test func theConsoleAndTheVoiceSayEveryRestriction() throws {
        let fences = try FenceSet.parse(Self.bridge)
        let line = ConsoleSink.humanLine(Self.approach([.clearance, .width, .weight]), fences: fences, color: false)
        #expect(
            line.contains(
                "TOO LOW: clearance 3.2 m, TOO WIDE: width limit 2.3 m, TOO HEAVY: weight limit 7.5 t, 1630 m ahead"),
            "\(line)")
        let sentence = SaySink.sentence(for: Self.approach([.clearance, .weight]), fences: fences)
        #expect(sentence == "Too low! Too heavy! Weak bridge, 3 metres 20, 7.5 tonnes, in 1.6 kilometres")
    }

    /// A speeding as a person reads it: the speed rounded up in the zone rounded down, never the
    /// excess. 13.8 m/s (49.68 km/h) over 13.7 m/s (49.32 km/h): to the nearest both would read 50.
    @Test func aSpeedingReadsAsTheSpeedInTheZone() throws {
        let fences = try FenceSet.parse(Self.bridge)
        var event = Self.approach([])
        event.payload = .speeding(GeofenceEvent.Speeding(fence: 0, speed: 13.8, limit: 13.7))
        let line = ConsoleSink.humanLine(event, fences: fences, color: false)
        #expect(line.contains("50 km/h in a 49 zone"), "\(line)")
        #expect(!line.contains("over"), "\(line)")
        let notification = NotifySink.arguments(for: event, fences: fences).joined(separator: " ")
        #expect(notification.contains("50 km/h in a 49 zone"), "\(notification)")
        #expect(
            SaySink.sentence(for: event, fences: fences, units: .imperial)
                == "Too fast in Weak bridge: 31 miles an hour, the limit is 30 miles an hour")
    }
}
