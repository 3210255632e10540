import Foundation
import NMEA
import Testing

@testable import Presentation

/// The local calendar reads the tz database's TZif files itself; Foundation's `TimeZone` and
/// `Calendar` (ICU) read the same database their own way. For zones with every kind of change
/// (summer time, half-hour and 45-minute offsets, a 30-minute summer shift, midnight changes,
/// a skipped day), both must give the same offsets, local days and day starts.
@Suite struct LocalCalendarAgreementTests {
    static let zones = [
        "Europe/Berlin", "America/New_York", "America/Sao_Paulo", "America/Havana", "America/St_Johns",
        "Asia/Kathmandu", "Australia/Lord_Howe", "Pacific/Apia", "Pacific/Chatham", "Africa/Casablanca",
        "Asia/Tehran", "America/Santiago",
    ]
    /// 1990-01-01 to 2037-12-31: the years the system's tables list every change of.
    static let days =
        CivilDate(year: 1990, month: 1, day: 1)
        .daysSinceEpoch...CivilDate(
            year: 2037, month: 12, day: 31
        ).daysSinceEpoch

    @Test(arguments: zones) func offsetsAndDayStartsAgreeWithFoundation(name: String) throws {
        let local = try #require(LocalCalendar(named: name))
        let zone = try #require(TimeZone(identifier: name))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        for day in Self.days {
            let date = CivilDate(daysSinceEpoch: day)
            let midnight = try #require(
                calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day)))
            let expectedStart = Int64((calendar.startOfDay(for: midnight).timeIntervalSince1970 * 1000).rounded())
            #expect(local.start(of: date) == expectedStart, "\(name) \(date)")
            // Every 5 hours through the day: the offset and the local day.
            for hour in stride(from: 0, to: 24, by: 5) {
                let milliseconds = Int64(day) * 86_400_000 + Int64(hour) * 3_600_000
                let instant = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
                #expect(local.offsetSeconds(at: milliseconds) == zone.secondsFromGMT(for: instant), "\(name) \(date)")
                let parts = calendar.dateComponents([.year, .month, .day], from: instant)
                #expect(
                    local.day(of: milliseconds) == CivilDate(year: parts.year!, month: parts.month!, day: parts.day!))
            }
        }
    }

    @Test func aLinkIntoTheDatabaseNamesItsZone() {
        #expect(LocalCalendar.zoneName(linkedTo: "/usr/share/zoneinfo/Europe/Berlin") == "Europe/Berlin")
        #expect(
            LocalCalendar.zoneName(linkedTo: "../usr/share/zoneinfo/America/Argentina/Salta")
                == "America/Argentina/Salta")
        #expect(LocalCalendar.zoneName(linkedTo: "/usr/share/zoneinfo/Etc/UTC") == "Etc/UTC")
        #expect(LocalCalendar.zoneName(linkedTo: "/etc/zones/berlin") == nil)
        #expect(LocalCalendar.zoneName(linkedTo: "/usr/share/zoneinfo/") == nil)
    }
}
