/// A fence's `active` property (docs/fences.md, "Rules"): the opening-hours style people already
/// write, `Mo-Fr 06:00-22:00; Sa 08:00-20:00; Su off`.
///
/// Rules are separated by `;`. Each names days (`Mo`, `Mo-Fr`, `Fr-Mo`, `Mo,We,Fr`; none: every
/// day) and then time ranges (`06:00-12:00,14:00-18:00`), `off` (or `closed`), or nothing (the
/// whole day). `24/7` is every day, all day. A range may end past midnight (`22:00-02:00`, or
/// `22:00-26:00`): it runs into the next day. A later rule replaces what an earlier one said about
/// the days it names, as in OpenStreetMap's opening_hours; a range running past midnight stays with
/// the day it began.
///
/// No holiday calendar is known, so every day is read as an ordinary one: the holidays of the
/// days (`PH` public, `SH` school) name no day gpsfence can tell, so `PH off` and `SH off` change
/// nothing (`Mo-Fr 07:00-19:00; PH off` holds Monday to Friday, holidays too), and `Su,PH` is
/// Sunday. A text whose every rule names holidays only (`PH 10:00-12:00`) is refused: it would
/// never hold.
public struct OpeningHours: Sendable, Equatable {
    /// Per weekday (Monday first), the minutes after that day's midnight it is open, each as
    /// `start..<end` with `end` up to 48 h (past midnight).
    let ranges: [[Range<Int32>]]

    static let dayNames: [(name: String, weekday: Int)] = [
        ("Mo", 0), ("Tu", 1), ("We", 2), ("Th", 3), ("Fr", 4), ("Sa", 5), ("Su", 6),
    ]
    static let minutesPerDay: Int32 = 1440

    /// Whether it is open `minute` minutes after midnight of `weekday` (0 Monday ... 6 Sunday),
    /// counting the ranges of the day before that run past midnight.
    public func isOpen(weekday: Int, minute: Int32) -> Bool {
        if ranges[weekday].contains(where: { $0.contains(minute) }) { return true }
        let dayBefore = (weekday + 6) % 7
        return ranges[dayBefore].contains { $0.contains(minute + Self.minutesPerDay) }
    }

    /// Parses a rule; the error says what is wrong, for the fence file's message.
    public init(parsing text: String) throws(OpeningHoursError) {
        var week = [[Range<Int32>]](repeating: [], count: 7)
        var ordinaryRules = 0
        let rules = text.split(separator: ";", omittingEmptySubsequences: false)
        for rule in rules {
            let words = rule.split(separator: " ")
            guard !words.isEmpty else { throw .emptyRule }
            if words == ["24/7"] {
                for day in 0..<7 { week[day] = [0..<Self.minutesPerDay] }
                ordinaryRules += 1
                continue
            }
            var rest = words[...]
            var days = Array(0..<7)
            if let first = rest.first, first.first?.isLetter == true, !Self.closedWords.contains(first) {
                days = try Self.days(first)
                rest = rest.dropFirst()
            }
            // `06:00-12:00, 14:00-18:00`: the space after a comma is allowed.
            let timeText = rest.joined()
            let times: [Range<Int32>]
            if timeText.isEmpty {
                times = [0..<Self.minutesPerDay]
            } else if Self.closedWords.contains(Substring(timeText)) {
                times = []
            } else {
                times = try timeText.split(separator: ",", omittingEmptySubsequences: false).map(Self.timeRange)
            }
            // A rule for holidays only names no day: no day is known to be one.
            if days.isEmpty { continue }
            ordinaryRules += 1
            for day in days { week[day] = times }
        }
        guard ordinaryRules > 0 else {
            throw .holidaysOnly
        }
        ranges = week
    }

    /// The rule modifiers that close the days they name.
    static let closedWords: Set<Substring> = ["off", "closed"]

    /// The holidays a day list may name (public, school): days gpsfence cannot tell.
    static let holidayNames: Set<Substring> = ["PH", "SH"]

    /// `Mo`, `Mo-Fr`, `Sa,Su`, `Fr-Mo` (wrapping over the weekend); `PH` and `SH` in a list add no day.
    static func days(_ text: Substring) throws(OpeningHoursError) -> [Int] {
        var days: [Int] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            if holidayNames.contains(part) { continue }
            let ends = part.split(separator: "-", omittingEmptySubsequences: false)
            guard (1...2).contains(ends.count) else { throw .notADayRange(written: String(part)) }
            var weekdays: [Int] = []
            for end in ends {
                guard let day = dayNames.first(where: { $0.name == end }) else {
                    throw .notADay(written: String(end))
                }
                weekdays.append(day.weekday)
            }
            var day = weekdays[0]
            days.append(day)
            while day != weekdays[weekdays.count - 1] {
                day = (day + 1) % 7
                days.append(day)
            }
        }
        return days
    }

    /// `06:00-22:00`; an end before the start, or past 24:00, runs into the next day, and an end
    /// equal to the start is a whole 24 hours (`06:00-06:00`).
    static func timeRange(_ text: Substring) throws(OpeningHoursError) -> Range<Int32> {
        let ends = text.split(separator: "-", omittingEmptySubsequences: false)
        guard ends.count == 2, let start = minutes(ends[0]), var end = minutes(ends[1]) else {
            throw .notATimeRange(written: String(text))
        }
        guard start < minutesPerDay else { throw .startsAfterMidnight(written: String(text)) }
        if end <= start { end += minutesPerDay }
        guard end - start <= minutesPerDay else {
            throw .longerThanADay(written: String(text))
        }
        return start..<end
    }

    /// `HH:MM` (or `H:MM`) as minutes after midnight, hours up to 48 for times past midnight.
    static func minutes(_ text: Substring) -> Int32? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let hours = Int32(parts[0]), let minutes = Int32(parts[1]), hours <= 48, minutes < 60
        else { return nil }
        return hours * 60 + minutes
    }
}

/// What is wrong with an `active` rule; each text as written.
public enum OpeningHoursError: Error, Sendable, Equatable {
    case emptyRule
    case holidaysOnly
    case notADayRange(written: String)
    case notADay(written: String)
    case notATimeRange(written: String)
    case startsAfterMidnight(written: String)
    case longerThanADay(written: String)

    public var text: String {
        switch self {
        case .emptyRule: "an empty rule between ';'"
        case .holidaysOnly:
            "every rule is for holidays (PH, SH) only, and gpsfence knows no holiday calendar: it would never hold"
        case .notADayRange(let written): "'\(written)' is not a day or day range"
        case .notADay(let written): "'\(written)' is not a day (Mo, Tu, We, Th, Fr, Sa, Su, and PH or SH for holidays)"
        case .notATimeRange(let written): "'\(written)' is not a time range like 06:00-22:00"
        case .startsAfterMidnight(let written): "'\(written)' starts after 24:00"
        case .longerThanADay(let written): "'\(written)' is longer than a day"
        }
    }
}
