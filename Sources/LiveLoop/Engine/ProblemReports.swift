import NMEA
import Platform

/// Messages from sinks and delivery threads (a hook failing, a webhook down) waiting to become
/// `error` events on the engine thread, which each report wakes (once a run has begun).
package final class ProblemReports: Sendable {
    package init() {}

    private let pending = Locked<[String]>([])
    private let wake = Locked<(@Sendable () -> Void)?>(nil)

    package var report: @Sendable (String) -> Void {
        { [self] message in
            pending.withLock { $0.append(message) }
            wake.withLock { $0 }?()
        }
    }

    /// What to call after each report: the engine's doorbell, for as long as a run lasts.
    func wakeOnReport(_ ring: (@Sendable () -> Void)?) { wake.withLock { $0 = ring } }

    func take() -> [String] {
        pending.withLock { reports in
            defer { reports.removeAll() }
            return reports
        }
    }
}
