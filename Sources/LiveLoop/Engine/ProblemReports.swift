import Events
import NMEA
import Platform

/// Problems from sinks and delivery threads (a hook failing, a webhook down) waiting to become
/// `error` events on the engine thread, which each report wakes (once a run has begun). They stay
/// values until the event is written, so that a sink can tell its own (`Problem.hook`).
package final class ProblemReports: Sendable {
    package init() {}

    private let pending = Locked<[Problem]>([])
    private let wake = Locked<(@Sendable () -> Void)?>(nil)

    package var reportProblem: @Sendable (Problem) -> Void {
        { [self] problem in
            pending.withLock { $0.append(problem) }
            wake.withLock { $0 }?()
        }
    }

    /// What to call after each report: the engine's doorbell, for as long as a run lasts.
    func wakeOnReport(_ ring: (@Sendable () -> Void)?) { wake.withLock { $0 = ring } }

    func take() -> [Problem] {
        pending.withLock { reports in
            defer { reports.removeAll() }
            return reports
        }
    }
}
