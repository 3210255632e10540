import NMEA
import Testing

@testable import Presentation

/// The user's calendar: local days and months, times with their offset.
@Suite struct LocalCalendarTests {
    let newYork = LocalCalendar(named: "America/New_York")!

    /// 2026-03-01T01:30:00Z.
    let evening: Int64 = 1_772_328_600_000

    @Test func anEveningInNewYorkIsStillTheDayBefore() {
        #expect(newYork.day(of: evening) == CivilDate(year: 2026, month: 2, day: 28))
        #expect(LocalCalendar.utc.day(of: evening) == CivilDate(year: 2026, month: 3, day: 1))
        #expect(newYork.text(evening) == "2026-02-28 20:30:00-05:00")
        #expect(LocalCalendar.utc.text(evening) == "2026-03-01 01:30:00Z")
    }

    @Test func offsetsOfQuarterHoursAndSummerTime() {
        let kathmandu = LocalCalendar(named: "Asia/Kathmandu")!
        #expect(kathmandu.text(evening) == "2026-03-01 07:15:00+05:45")
        // 2026-07-01T12:00:00Z: summer time in New York.
        #expect(newYork.text(1_782_907_200_000) == "2026-07-01 08:00:00-04:00")
    }

    @Test func daysAreShorterAndLongerWhenTheClocksChange() {
        // Clocks go forward on 8 March 2026 and back on 1 November 2026 in New York.
        let spring = newYork.span(of: CivilDate(year: 2026, month: 3, day: 8))
        #expect(spring.lowerBound == 1_772_946_000_000, "05:00Z, midnight at UTC-5")
        #expect(spring.upperBound - spring.lowerBound == 23 * 3_600_000)
        let autumn = newYork.span(of: CivilDate(year: 2026, month: 11, day: 1))
        #expect(autumn.upperBound - autumn.lowerBound == 25 * 3_600_000)
    }

    @Test func aMonthRunsFromLocalMidnightToLocalMidnight() {
        let february = newYork.span(year: 2026, month: 2)
        #expect(february.lowerBound == 1_769_922_000_000, "2026-02-01T05:00:00Z")
        #expect(february.upperBound == 1_772_341_200_000, "2026-03-01T05:00:00Z")
        #expect(february.contains(evening))
        let december = LocalCalendar.utc.span(year: 2026, month: 12)
        #expect(december.upperBound == 1_798_761_600_000, "2027-01-01T00:00:00Z")
    }

    /// `TZ` as the C library reads it: a name, the same after a colon, a zone's file by its path.
    @Test func tzTakesANameAColonAndAPath() {
        #expect(LocalCalendar.fromTZ("America/New_York")?.text(evening) == "2026-02-28 20:30:00-05:00")
        #expect(LocalCalendar.fromTZ(":America/New_York")?.text(evening) == "2026-02-28 20:30:00-05:00")
        #expect(
            LocalCalendar.fromTZ(":/usr/share/zoneinfo/Asia/Kathmandu")?.text(evening) == "2026-03-01 07:15:00+05:45")
        #expect(
            LocalCalendar.fromTZ("/usr/share/zoneinfo/Asia/Kathmandu")?.text(evening) == "2026-03-01 07:15:00+05:45")
        #expect(LocalCalendar.fromTZ(":/no/such/zone") == nil)
        #expect(LocalCalendar.fromTZ("CET-1CEST") == nil, "a POSIX rule: /etc/localtime decides")
    }

    @Test func unknownZonesAreRefused() {
        #expect(LocalCalendar(named: "Mars/Olympus_Mons") == nil)
        #expect(LocalCalendar(named: "") == nil)
    }
}
