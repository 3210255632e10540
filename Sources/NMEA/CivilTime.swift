/// Milliseconds since UTC midnight, as the time fields of NMEA sentences carry it.
public struct TimeOfDay: Hashable, Comparable, Sendable, BitwiseCopyable {
    public static let millisecondsPerDay = 86_400_000
    public var milliseconds: Int

    public init(milliseconds: Int) { self.milliseconds = milliseconds }

    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool { lhs.milliseconds < rhs.milliseconds }
}

/// A proleptic Gregorian calendar date, converted to and from days since 1970-01-01 with Howard
/// Hinnant's `days_from_civil` algorithm (no Foundation, no time zone database).
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Years whose day counts stay far from integer overflow in every computation here.
    public static let supportedYears = 0...9999

    /// Parses `YYYY-MM-DD`.
    public init?(iso text: String) {
        let parts = text.split(separator: "-")
        guard parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            Self.supportedYears.contains(year), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    public init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Whether the day exists (no 31 April, 29 February only in leap years).
    public var isValid: Bool {
        guard Self.supportedYears.contains(year), (1...12).contains(month), (1...31).contains(day) else { return false }
        return CivilDate(daysSinceEpoch: daysSinceEpoch) == self
    }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool { lhs.daysSinceEpoch < rhs.daysSinceEpoch }

    public var description: String {
        pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
    }
}

/// A UTC instant with millisecond resolution, counted from 1970-01-01T00:00:00Z (leap seconds are
/// not counted, as in POSIX time).
public struct UTCTime: Hashable, Comparable, Sendable, BitwiseCopyable, CustomStringConvertible {
    public var millisecondsSinceEpoch: Int64

    public init(millisecondsSinceEpoch: Int64) { self.millisecondsSinceEpoch = millisecondsSinceEpoch }

    public init(date: CivilDate, timeOfDay: TimeOfDay) {
        millisecondsSinceEpoch =
            Int64(date.daysSinceEpoch) * Int64(TimeOfDay.millisecondsPerDay)
            + Int64(timeOfDay.milliseconds)
    }

    public var date: CivilDate {
        CivilDate(daysSinceEpoch: Int(floorDivide(millisecondsSinceEpoch, Int64(TimeOfDay.millisecondsPerDay))))
    }

    public var secondsSinceEpoch: Double { Double(millisecondsSinceEpoch) / 1000 }

    public static func < (lhs: UTCTime, rhs: UTCTime) -> Bool {
        lhs.millisecondsSinceEpoch < rhs.millisecondsSinceEpoch
    }

    /// ISO 8601 with milliseconds and `Z`: `2026-02-03T10:15:02.000Z`.
    public var description: String {
        let day = Int64(TimeOfDay.millisecondsPerDay)
        let dayPart = floorDivide(millisecondsSinceEpoch, day)
        var rest = Int(millisecondsSinceEpoch - dayPart * day)
        let milliseconds = rest % 1000
        rest /= 1000
        let seconds = rest % 60
        rest /= 60
        return CivilDate(daysSinceEpoch: Int(dayPart)).description + "T" + pad(rest / 60, 2) + ":"
            + pad(rest % 60, 2) + ":" + pad(seconds, 2) + "." + pad(milliseconds, 3) + "Z"
    }
}

/// Resolves dates that a receiver reports 1024 weeks (19.6 years) too early.
///
/// GPS broadcasts the week number in 10 bits, so it wraps every 1024 weeks (1999-08-22,
/// 2019-04-07). Firmware that does not know which 1024-week era it is in reports dates one era too
/// early. Like a receiver's own firmware, we take a pivot date: a date before it is moved forward by
/// 1024 weeks until it is not. See docs/nmea.md for how the pivot is chosen.
public struct WeekRollover: Sendable, Equatable {
    public static let period = 1024 * 7

    /// Dates before this day are taken to be one or more rollovers early.
    public var pivot: CivilDate

    /// The default for recorded captures: only dates that no working GPS receiver of the current
    /// era can send (before 2000) are moved. Old logs with true dates from the 2000s stay as they are.
    public static let captures = WeekRollover(pivot: CivilDate(year: 2000, month: 1, day: 1))

    /// No receiver running this build can be earlier than the day it was released: the lower
    /// bound of a plausible epoch when the system clock is not set (a Raspberry Pi without a
    /// real-time clock boots in 1970 or at its last shutdown). Moved forward with each release.
    public static let releaseDate = CivilDate(year: 2026, month: 11, day: 24)

    /// For a live receiver: the plausible epoch is the later of the release date and today's
    /// system date, and anything more than half a rollover period (about 9.8 years) before it is
    /// one or two rollovers early.
    public static func live(today: CivilDate) -> WeekRollover {
        plausible(epoch: max(today, releaseDate))
    }

    /// Dates more than half a rollover period before `epoch` are taken to be rollovers.
    public static func plausible(epoch: CivilDate) -> WeekRollover {
        WeekRollover(pivot: CivilDate(daysSinceEpoch: epoch.daysSinceEpoch - period / 2))
    }

    public init(pivot: CivilDate) { self.pivot = pivot }

    /// Moves a date before the pivot forward by 1024 weeks, twice at most: a date that would need
    /// a third period is no rollover any receiver makes, and is left as reported.
    public func resolve(_ date: CivilDate) -> CivilDate {
        var days = date.daysSinceEpoch
        let pivotDays = pivot.daysSinceEpoch
        for _ in 0..<2 where days < pivotDays { days += Self.period }
        return days < pivotDays ? date : CivilDate(daysSinceEpoch: days)
    }
}

/// A date the decoder moved forward for a GPS week rollover, as the receiver reported it and as
/// corrected: what a live run says once.
public struct RolloverCorrection: Equatable, Sendable {
    public var reported: CivilDate
    public var corrected: CivilDate

    /// How many 1024-week periods the date moved.
    public var periods: Int { (corrected.daysSinceEpoch - reported.daysSinceEpoch) / WeekRollover.period }
}

/// `a / b` rounded toward minus infinity (times before 1970 fall on the day before).
public func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
    let quotient = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
}

/// `value` in decimal with leading zeros to `width` digits (times and dates as people and NMEA write them).
public func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}
