import Fences
import GRDB
import NMEA
import Presentation

/// Visits per fence in one calendar month of the user's calendar, for `gpsfence visits`.
public struct VisitReport: Sendable, Equatable {
    public struct FenceVisits: Sendable, Equatable {
        public var fenceID: FenceID
        public var name: String?
        public var count: Int
        public var totalSeconds: Double
        public var meanSeconds: Double { count == 0 ? 0 : totalSeconds / Double(count) }
        /// Visits per day of the month (index 0 is the 1st).
        public var perDay: [Int]
        public var daysWithVisits: Int { perDay.filter { $0 > 0 }.count }
    }

    public var year: Int
    public var month: Int
    public var daysInMonth: Int
    /// Fences with at least one visit that month, by id.
    public var fences: [FenceVisits]
    /// The zone whose month and days these are (`America/New_York`, `UTC`).
    public var timezone = "UTC"
    /// When this month has no visit: the months that have, newest first, so that the reader
    /// learns where to look (a replayed capture's visits are in the capture's month).
    public var otherMonths: [MonthVisits] = []

    public struct MonthVisits: Sendable, Equatable {
        public var year: Int
        public var month: Int
        public var visits: Int

        public init(year: Int, month: Int, visits: Int) {
            self.year = year
            self.month = month
            self.visits = visits
        }
    }
}

extension StateStore {
    /// The visits that began in `month` of `year` of `calendar` (a visit at 20:30 in New York on
    /// 28 February is a February visit there, though UTC has it on 1 March), grouped by fence.
    public func visitReport(year: Int, month: Int, calendar: LocalCalendar = .utc) throws -> VisitReport {
        let first = CivilDate(year: year, month: month, day: 1)
        let next =
            month == 12 ? CivilDate(year: year + 1, month: 1, day: 1) : CivilDate(year: year, month: month + 1, day: 1)
        let days = next.daysSinceEpoch - first.daysSinceEpoch
        let span = calendar.span(year: year, month: month)
        let from = span.lowerBound
        let to = span.upperBound
        let rows = try database.read { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT fence_id, fence_name, enter_time, duration FROM visit WHERE enter_time >= ? AND enter_time < ? ORDER BY fence_id, enter_time",
                arguments: [from, to])
        }
        var byFence: [FenceID: VisitReport.FenceVisits] = [:]
        var order: [FenceID] = []
        for row in rows {
            // Rows that do not read back are left out; durations are clamped to 0...10^9 s.
            guard let text = row.stored("fence_id", as: String.self), let id = FenceID(json: text),
                let enter = row.storedTime("enter_time"),
                enter >= from, enter < to
            else { continue }
            let duration = min(max(row.stored("duration", as: Double.self) ?? 0, 0), 1e9)
            if byFence[id] == nil {
                order.append(id)
                byFence[id] = VisitReport.FenceVisits(
                    fenceID: id, name: row.stored("fence_name"), count: 0, totalSeconds: 0,
                    perDay: Array(repeating: 0, count: days))
            }
            let day = min(max(calendar.day(of: enter).day - 1, 0), days - 1)
            byFence[id]!.count += 1
            byFence[id]!.totalSeconds += duration
            byFence[id]!.perDay[day] += 1
        }
        var report = VisitReport(year: year, month: month, daysInMonth: days, fences: order.map { byFence[$0]! })
        report.timezone = calendar.name
        if report.fences.isEmpty { report.otherMonths = try monthsWithVisits(calendar: calendar) }
        return report
    }

    /// Every month of `calendar` in which a visit began, newest first, with its count.
    func monthsWithVisits(calendar: LocalCalendar) throws -> [VisitReport.MonthVisits] {
        let times = try database.read { db in
            try Row.fetchAll(db, sql: "SELECT enter_time FROM visit").compactMap { $0.storedTime("enter_time") }
        }
        var counts: [Int: Int] = [:]
        for time in times {
            let day = calendar.day(of: time)
            counts[day.year * 12 + day.month - 1, default: 0] += 1
        }
        return counts.keys.sorted(by: >).map { key in
            VisitReport.MonthVisits(year: key / 12, month: key % 12 + 1, visits: counts[key]!)
        }
    }
}
