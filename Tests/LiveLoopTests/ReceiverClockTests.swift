import NMEA
import Testing

@testable import Jobs
@testable import LiveLoop
@testable import Tools

/// A live receiver that sends no date (GGA only) borrows the system date, as gpsd does, and says
/// so once; captures never do (their system date is not the capture's).
@Suite struct ReceiverClockTests {
    let now = UTCTime(date: CivilDate(year: 2026, month: 11, day: 24), timeOfDay: TimeOfDay(milliseconds: 60_000))

    func undated(_ milliseconds: Int) -> Fix {
        Fix(time: nil, timeOfDay: TimeOfDay(milliseconds: milliseconds), latitude: 48.1, longitude: 11.5, mode: .threeD)
    }

    @Test func aLiveReceiverWithoutDatesTakesTheSystemDateAndSaysSoOnce() {
        var clock = ReceiverClock(borrowsSystemDate: true, now: { self.now })
        // One undated epoch is a run that started between RMC and GGA: left alone.
        #expect(clock.dated(undated(57_000), device: "/dev/ttyACM0").0.time == nil)
        var dated = undated(57_500)
        dated.time = now
        _ = clock.dated(dated, device: "/dev/ttyACM0")
        #expect(clock.dated(undated(57_000), device: "/dev/ttyACM0").0.time == nil)
        #expect(clock.dated(undated(58_000), device: "/dev/ttyACM0").0.time == nil)
        let (first, notice) = clock.dated(undated(59_000), device: "/dev/ttyACM0")
        #expect(first.time?.description == "2026-11-24T00:00:59.000Z")
        #expect(notice == .noDate(device: "/dev/ttyACM0"))
        #expect(notice?.text.contains("/dev/ttyACM0 sends no date") == true)
        // Just before midnight by the receiver, just after by the clock: yesterday's date.
        let (late, again) = clock.dated(undated(86_399_000), device: "/dev/ttyACM0")
        #expect(late.time?.description == "2026-11-23T23:59:59.000Z")
        #expect(again == nil)
    }

    @Test func datedFixesAndCapturesAreLeftAlone() {
        var live = ReceiverClock(borrowsSystemDate: true, now: { self.now })
        var dated = undated(1000)
        dated.time = UTCTime(date: CivilDate(year: 2020, month: 1, day: 1), timeOfDay: TimeOfDay(milliseconds: 1000))
        #expect(live.dated(dated, device: "x").0.time == dated.time)
        var capture = ReceiverClock(borrowsSystemDate: false, now: { self.now })
        let (fix, notice) = capture.dated(undated(1000), device: "x")
        #expect(fix.time == nil)
        #expect(notice == nil)
    }
}
