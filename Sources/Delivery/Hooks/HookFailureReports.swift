import Dispatch
import Fences
import NMEA
import Platform

/// Failure reports of the hooks, held back so that a hook that keeps failing cannot feed on its own
/// failures: the first failure of a hook is reported at once, later ones within `interval` are
/// summed up into one report at the end of the interval. The messages sent are remembered by hook,
/// so that the `error` event made of one is not delivered back to the hook it is about.
final class HookFailureReports: Sendable {
    let interval: Double
    private let programs: [String]
    private let report: @Sendable (String) -> Void

    private struct Failures {
        var lastReport: Double?
        var suppressed = 0
        var lastMessage = ""
        var flushScheduled = false
    }

    private struct State {
        var failures: [Failures]
        /// Messages sent, by the hook they are about.
        var sent: [String: Int] = [:]
        /// Once stopping, no flush is scheduled any more: `flushAll` reports what is held.
        var stopping = false
    }

    private let state: Locked<State>

    init(programs: [String], interval: Double, report: @escaping @Sendable (String) -> Void) {
        self.programs = programs
        self.interval = interval
        self.report = report
        state = Locked(State(failures: Array(repeating: Failures(), count: programs.count)))
    }

    /// Whether `message` is a report about hook `index` (forgotten once asked: it is asked once,
    /// when its `error` event is delivered).
    func isOwnReport(_ message: String, of index: Int) -> Bool {
        state.withLock { state in
            guard state.sent[message] == index else { return false }
            state.sent[message] = nil
            return true
        }
    }

    /// Reports a failure of hook `index`, or holds it back (see the type).
    func failed(_ index: Int, _ message: String) {
        let now = monotonicSeconds()
        let (sendNow, flushAfter): (Bool, Double?) = state.withLock { state in
            var failures = state.failures[index]
            defer { state.failures[index] = failures }
            if let last = failures.lastReport, now - last < interval {
                failures.suppressed += 1
                failures.lastMessage = message
                let schedule = !failures.flushScheduled && !state.stopping
                failures.flushScheduled = failures.flushScheduled || schedule
                return (false, schedule ? max(0, last + interval - now) : nil)
            }
            failures.lastReport = now
            return (true, nil)
        }
        if sendNow { send(index, message) }
        if let flushAfter {
            DispatchQueue.global().asyncAfter(deadline: .now() + flushAfter) { [weak self] in self?.flush(index) }
        }
    }

    /// Sends `message` about hook `index` at once (not counted as a failure).
    func send(_ index: Int, _ message: String) {
        state.withLock { $0.sent[message] = index }
        report(message)
    }

    /// Reports everything held back (at the end of a run).
    func flushAll() {
        state.withLock { $0.stopping = true }
        for index in programs.indices { flush(index) }
    }

    /// Reports the failures of hook `index` held back so far, if any.
    private func flush(_ index: Int) {
        let (count, last): (Int, String) = state.withLock { state in
            var failures = state.failures[index]
            defer { state.failures[index] = failures }
            failures.flushScheduled = false
            let held = (failures.suppressed, failures.lastMessage)
            if failures.suppressed > 0 {
                failures.suppressed = 0
                failures.lastReport = monotonicSeconds()
            }
            return held
        }
        guard count > 0 else { return }
        send(
            index,
            "hook \(programs[index]) failed \(count) more time\(count == 1 ? "" : "s") "
                + "(at most one report per \(HumanText.duration(interval))); the last: \(last)")
    }
}
