import NMEA
import Presentation
import Testing

@testable import Fences

/// The `active` parser and its time zone (docs/fences.md, "Rules").
@Suite struct OpeningHoursTests {
    /// Minutes after midnight.
    static func at(_ hours: Int32, _ minutes: Int32 = 0) -> Int32 { hours * 60 + minutes }

    @Test func daysRangesAndSeveralTimes() throws {
        let hours = try OpeningHours(parsing: "Mo-Fr 06:00-12:00, 14:00-22:00; Sa 08:00-20:00")
        // Monday 0 ... Sunday 6.
        #expect(hours.isOpen(weekday: 0, minute: Self.at(6)))
        #expect(!hours.isOpen(weekday: 0, minute: Self.at(5, 59)))
        #expect(hours.isOpen(weekday: 4, minute: Self.at(11, 59)))
        #expect(!hours.isOpen(weekday: 4, minute: Self.at(12)), "the end is not included")
        #expect(!hours.isOpen(weekday: 2, minute: Self.at(13)))
        #expect(hours.isOpen(weekday: 2, minute: Self.at(14)))
        #expect(hours.isOpen(weekday: 5, minute: Self.at(8)))
        #expect(!hours.isOpen(weekday: 5, minute: Self.at(7)))
        #expect(!hours.isOpen(weekday: 6, minute: Self.at(12)), "Sunday is named nowhere: closed")
    }

    @Test func offLaterRulesAndWholeDays() throws {
        let hours = try OpeningHours(parsing: "Mo-Su 08:00-18:00; We off; Sa,Su")
        #expect(hours.isOpen(weekday: 1, minute: Self.at(9)))
        #expect(!hours.isOpen(weekday: 2, minute: Self.at(9)), "a later rule replaces the earlier one")
        #expect(hours.isOpen(weekday: 6, minute: Self.at(23, 59)), "days alone: the whole day")
        let always = try OpeningHours(parsing: "24/7")
        #expect((0..<7).allSatisfy { always.isOpen(weekday: $0, minute: Self.at(3)) })
        let times = try OpeningHours(parsing: "10:00-11:00")
        #expect((0..<7).allSatisfy { times.isOpen(weekday: $0, minute: Self.at(10, 30)) }, "no days: every day")
    }

    /// No holiday calendar is known, so every day is an ordinary one: a rule for holidays only
    /// (`PH off`, `SH off`, in any of the forms mappers write it) changes nothing, and holidays in a
    /// day list add no day (`Su,PH` is Sunday). Written after the weekdays or before them, the
    /// school times stay Monday to Friday 07:00-19:00, never a whole week and never nothing.
    @Test(arguments: [
        "Mo-Fr 07:00-19:00; PH off", "Mo-Fr 07:00-19:00; SH off", "Mo-Fr 07:00-19:00; PH off; SH off",
        "Mo-Fr 07:00-19:00; PH,SH off", "PH off; Mo-Fr 07:00-19:00", "Mo-Fr 07:00-19:00; PH closed",
        "Mo-Fr 07:00-19:00;  PH  off", "Mo-Fr,PH 07:00-19:00", "Mo-Fr 07:00-19:00; SH 08:00-12:00",
    ])
    func holidaysAreReadAsOrdinaryDays(text: String) throws {
        let hours = try OpeningHours(parsing: text)
        #expect(hours == (try OpeningHours(parsing: "Mo-Fr 07:00-19:00")))
        #expect(hours.isOpen(weekday: 1, minute: Self.at(8)))
        #expect(!hours.isOpen(weekday: 1, minute: Self.at(19)))
        #expect(!hours.isOpen(weekday: 5, minute: Self.at(8)))
    }

    @Test func holidaysInADayListAndClosedAsOff() throws {
        #expect(try OpeningHours(parsing: "Su,PH 00:00-22:00") == (try OpeningHours(parsing: "Su 00:00-22:00")))
        #expect(
            try OpeningHours(parsing: "Mo-Su 08:00-18:00; Sa,PH off")
                == (try OpeningHours(parsing: "Mo-Su 08:00-18:00; Sa off")))
        #expect(
            try OpeningHours(parsing: "Mo-Fr 08:00-18:00; We closed")
                == (try OpeningHours(parsing: "Mo,Tu,Th,Fr 08:00-18:00")))
    }

    @Test func rangesPastMidnightAndWrappingDays() throws {
        let late = try OpeningHours(parsing: "Fr 22:00-02:00; Sa 20:00-26:00")
        #expect(late.isOpen(weekday: 4, minute: Self.at(23)))
        #expect(late.isOpen(weekday: 5, minute: Self.at(1, 59)), "Friday's range runs into Saturday")
        #expect(!late.isOpen(weekday: 5, minute: Self.at(2)))
        #expect(late.isOpen(weekday: 6, minute: Self.at(1)), "26:00 is 02:00 on Sunday")
        #expect(!late.isOpen(weekday: 0, minute: Self.at(1)))
        let aroundTheClock = try OpeningHours(parsing: "Mo 06:00-06:00")
        #expect(aroundTheClock.isOpen(weekday: 1, minute: Self.at(5, 59)), "06:00-06:00 is 24 hours")
        #expect(!aroundTheClock.isOpen(weekday: 1, minute: Self.at(6)))
        let weekend = try OpeningHours(parsing: "Fr-Mo 10:00-12:00")
        #expect([4, 5, 6, 0].allSatisfy { weekend.isOpen(weekday: $0, minute: Self.at(11)) })
        #expect(![1, 2, 3].contains { weekend.isOpen(weekday: $0, minute: Self.at(11)) })
    }

    @Test(arguments: [
        ("", "empty rule"), ("Mo-Fr 06:00-22:00;", "empty rule"), ("Mo-Fx 06:00-12:00", "'Fx' is not a day"),
        ("PH off", "holidays (PH, SH) only"), ("SH 08:00-12:00; PH off", "holidays (PH, SH) only"),
        ("Mo-PH 08:00-12:00", "'PH' is not a day"), ("Mo 6-12", "not a time range"), ("Mo 06:00-", "not a time range"),
        ("Mo 06:60-07:00", "not a time range"), ("Mo 24:00-25:00", "starts after 24:00"),
        ("Mo 06:00-31:00", "longer than a day"),
        ("Mo 06:00-12:00 14:00-15:00 extra", "not a time range"), ("Mo--Fr 10:00-11:00", "not a day or day range"),
    ])
    func malformedRulesSayWhatIsWrong(text: String, reason: String) {
        #expect {
            try OpeningHours(parsing: text)
        } throws: { error in
            (error as? OpeningHoursError)?.text.contains(reason) == true
        }
    }

    /// Europe/Berlin from the system's zone file: CET (+1 h) in winter, CEST (+2 h) from 01:00 UTC
    /// on the last Sunday of March 2026 (the 29th) to 01:00 UTC on the last Sunday of October
    /// (the 25th).
    @Test func aZoneFromTheSystemTzDatabase() throws {
        let berlin = try ZoneOffsets(named: "Europe/Berlin")
        func seconds(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> Int64 {
            let date = CivilDate(year: year, month: month, day: day)
            return Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60)
        }
        #expect(berlin.offset(atSeconds: seconds(2026, 2, 3, 12)) == 3600)
        #expect(berlin.offset(atSeconds: seconds(2026, 3, 29, 0, 59)) == 3600)
        #expect(berlin.offset(atSeconds: seconds(2026, 3, 29, 1)) == 7200)
        #expect(berlin.offset(atSeconds: seconds(2026, 10, 25, 0, 59)) == 7200)
        #expect(berlin.offset(atSeconds: seconds(2026, 10, 25, 1)) == 3600)
        #expect(berlin.offset(atSeconds: seconds(2036, 7, 1, 0)) == 7200)
        let detroit = try ZoneOffsets(named: "America/Detroit")
        #expect(detroit.offset(atSeconds: seconds(2026, 2, 3, 12)) == -5 * 3600)
        #expect(detroit.offset(atSeconds: seconds(2026, 7, 3, 12)) == -4 * 3600)
        #expect(throws: ZoneError.self) { try ZoneOffsets(named: "Nowhere/Atlantis") }
        #expect(throws: ZoneError.self) { try ZoneOffsets(named: "../../etc/passwd") }
    }

    /// Tuesday 3 February 2026, 05:30 UTC is 06:30 in Berlin: open by `Tu 06:00-07:00` there,
    /// closed by the same rule in UTC. Without a zone of its own the schedule is read in the
    /// user's; with one, the user's zone does not matter.
    @Test func aScheduleIsJudgedInItsZone() throws {
        let hours = try OpeningHours(parsing: "Tu 06:00-07:00")
        let instant = UTCTime(
            date: CivilDate(year: 2026, month: 2, day: 3), timeOfDay: TimeOfDay(milliseconds: 5 * 3_600_000 + 1_800_000)
        ).millisecondsSinceEpoch
        let berlin = try ZoneOffsets(named: "Europe/Berlin")
        #expect(ActiveSchedule(hours: hours, zone: berlin).isActive(atMilliseconds: instant, localZone: .utc))
        #expect(!ActiveSchedule(hours: hours, zone: .utc).isActive(atMilliseconds: instant, localZone: berlin))
        #expect(ActiveSchedule(hours: hours, zone: nil).isActive(atMilliseconds: instant, localZone: berlin))
        #expect(!ActiveSchedule(hours: hours, zone: nil).isActive(atMilliseconds: instant, localZone: .utc))
    }

    @Test func expiresTimesWithAndWithoutAnOffset() throws {
        let berlin = try ZoneOffsets(named: "Europe/Berlin")
        let tenUTC = UTCTime(
            date: CivilDate(year: 2026, month: 2, day: 6), timeOfDay: TimeOfDay(milliseconds: 36_000_000)
        )
        .millisecondsSinceEpoch
        #expect(Expiry.time("2026-02-06T10:00:00Z", zone: .utc) == .instant(tenUTC))
        #expect(Expiry.time("2026-02-06T10:00Z", zone: berlin) == .instant(tenUTC))
        #expect(Expiry.time("2026-02-06T11:00:00+01:00", zone: .utc) == .instant(tenUTC))
        #expect(Expiry.time("2026-02-06T05:00:00-0500", zone: nil) == .instant(tenUTC))
        #expect(Expiry.time("2026-02-06 11:00", zone: berlin) == .instant(tenUTC), "no offset: the fence's zone")
        #expect(Expiry.time("2026-02-06T10:00:00.5Z", zone: .utc) == .instant(tenUTC + 500))
        let unzoned = try #require(Expiry.time("2026-02-06T11:00", zone: nil))
        #expect(unzoned == .localClock(tenUTC + 3_600_000), "no offset, no zone: the user's")
        #expect(unzoned.milliseconds(localZone: berlin) == tenUTC)
        #expect(unzoned.milliseconds(localZone: .utc) == tenUTC + 3_600_000)
        for bad in ["2026-02-06", "2026-02-30T10:00Z", "2026-02-06T25:00Z", "tomorrow", "2026-02-06T10:00+1"] {
            #expect(Expiry.time(bad, zone: .utc) == nil, "\(bad)")
        }
    }
}
