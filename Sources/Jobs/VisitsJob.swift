import LiveLoop
import NMEA
import Platform
import Presentation
import Store
import Views

/// `gpsfence visits`: the month's visits per fence from a state file that `run` or
/// `replay --state` wrote. Months are those of `calendar` (the user's, docs/running.md "Time and
/// units"); without a month and year, the current one there.
public struct VisitsJob {
    public var statePath: String
    public var year: Int?
    public var month: Int?
    public var calendar = LocalCalendar.utc

    public init(statePath: String) { self.statePath = statePath }

    /// - Throws: `StateFileMissing` when there is no state file (visits are never recorded by reading).
    public func report() throws -> VisitReport {
        guard checkAccess(statePath, .exists) == nil else {
            throw StateFileMissing(path: statePath, need: .visits)
        }
        let today = calendar.day(of: currentUTCTime().millisecondsSinceEpoch)
        return try StateStore(path: statePath, access: .readOnly).visitReport(
            year: year ?? today.year, month: month ?? today.month, calendar: calendar)
    }
}
