import Glibc
import LiveLoop
import NMEA
import Store

/// `gpsfence visits`: the month's visits per fence from a state file that `run` or
/// `replay --state` wrote. Months are UTC; without a month and year, the current one.
public struct VisitsJob {
    public var statePath: String
    public var year: Int?
    public var month: Int?

    public init(statePath: String) { self.statePath = statePath }

    /// - Throws: `InputError` when there is no state file (visits are never recorded by reading).
    public func report() throws -> VisitReport {
        guard access(statePath, F_OK) == 0 else {
            throw InputError(
                message:
                    "no state file at '\(statePath)': visits are recorded by 'gpsfence run' or 'gpsfence replay --state'"
            )
        }
        let today = currentUTCTime().date
        return try StateStore(path: statePath, access: .readOnly).visitReport(
            year: year ?? today.year, month: month ?? today.month)
    }
}
