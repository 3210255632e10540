import Events
import Store
import Testing

/// The live state a running run answers on its local channel reads back as it was written, with
/// every field absent (a run with no fix yet) and with every field set.
@Suite struct LiveStateTests {
    @Test func aStateWithNothingYetReadsBack() throws {
        let state = LiveState(monitoringSince: 1_796_400_000_000)
        let read = try #require(LiveState(json: Array(state.json.utf8)), "\(state.json)")
        #expect(read == state)
        #expect(state.json.contains("\"fix\"") == false)
        #expect(state.json.contains("\"odometer_day\":null"), "absent numbers are written as null: \(state.json)")
    }

    @Test func aStateWithEveryFieldReadsBack() throws {
        var state = LiveState(monitoringSince: 1_796_400_000_000)
        state.updatedAt = 1_796_400_005_123
        state.fix = TrackPoint(
            time: 1_796_400_005_000, lat: 43.512345678, lon: 16.4, altitude: 12.5, speed: 3.25, course: 359.5,
            accuracy: 4.5, satellites: 9, hdop: 0.85)
        state.fixQuality = 2
        state.fixWall = 1_796_400_005_100
        state.odometerToday = 1234.5
        state.odometerDay = 20_791
        state.anchorDistance = 88.2
        state.anchorMaxDistance = 91.4
        state.ignoredFixes = 3
        state.events = 17
        state.alarm = .acknowledged
        let read = try #require(LiveState(json: Array(state.json.utf8)), "\(state.json)")
        #expect(read == state)
    }

    @Test func whatIsNotItsJSONIsRefused() {
        #expect(LiveState(json: Array("{\"updated_at\":3}".utf8)) == nil)
        #expect(LiveState(json: Array("not json".utf8)) == nil)
        #expect(LiveState(json: []) == nil)
    }
}
