import NMEA
import Testing

@testable import Jobs
@testable import LiveLoop
@testable import Tools

/// gpsd's TPVs of one epoch become one fix (docs/running.md, "One fix per epoch").
@Suite struct TPVEpochsTests {
    func tpv(second: Int, latitude: Double = 48.1, speed: Double? = nil, altitude: Double? = nil) -> Fix {
        let timeOfDay = TimeOfDay(milliseconds: 36_000_000 + second * 1000)
        return Fix(
            time: UTCTime(date: CivilDate(year: 2026, month: 2, day: 3), timeOfDay: timeOfDay), timeOfDay: timeOfDay,
            latitude: latitude, longitude: 11.5, altitude: altitude, speed: speed, mode: .threeD)
    }

    @Test func reportsOfOneTimeMergeAndGoOutWhenTheNextEpochBegins() {
        var epochs = TPVEpochs()
        #expect(epochs.add(tpv(second: 0, altitude: 520), at: 0) == nil)
        #expect(epochs.add(tpv(second: 0, latitude: 48.2, speed: 3), at: 0.1) == nil)
        let first = epochs.add(tpv(second: 1, altitude: 521), at: 1)
        #expect(first?.latitude == 48.2)
        #expect(first?.speed == 3)
        #expect(first?.altitude == 520)
        #expect(epochs.merged == 1)
        // A straggler of the epoch already out is dropped, not a second fix.
        #expect(epochs.add(tpv(second: 0, speed: 9), at: 1.1) == nil)
        #expect(epochs.merged == 2)
        #expect(epochs.flush()?.altitude == 521)
        #expect(epochs.flush() == nil)
    }

    @Test func aQuietEpochGoesOutWithoutWaitingForTheNext() {
        var epochs = TPVEpochs()
        _ = epochs.add(tpv(second: 0), at: 10)
        #expect(epochs.flushIfQuiet(at: 10.2) == nil)
        #expect(epochs.flushIfQuiet(at: 10.6)?.time == tpv(second: 0).time)
        #expect(epochs.add(tpv(second: 0, speed: 1), at: 10.7) == nil)
        #expect(epochs.flush() == nil)
    }

    @Test func aTPVWithoutAFixOfANewTimeFirstLetsTheWaitingFixOut() {
        var epochs = TPVEpochs()
        _ = epochs.add(tpv(second: 0), at: 0)
        let sameTime = epochs.addWithoutFix(time: tpv(second: 0).time!)
        #expect(sameTime.flushed == nil && !sameTime.isNewEpoch)
        let next = epochs.addWithoutFix(time: tpv(second: 1).time!)
        #expect(next.flushed?.time == tpv(second: 0).time)
        #expect(next.isNewEpoch)
    }
}
