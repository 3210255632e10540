import NMEA

/// Messages from sinks and delivery threads (a hook failing, a webhook down) waiting to become
/// `error` events on the engine thread.
final class ProblemReports: Sendable {
    private let pending = Locked<[String]>([])

    var report: @Sendable (String) -> Void { { [self] message in pending.withLock { $0.append(message) } } }

    func take() -> [String] {
        pending.withLock { reports in
            defer { reports.removeAll() }
            return reports
        }
    }
}
