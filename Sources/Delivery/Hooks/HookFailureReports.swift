import Dispatch
import Events
import Fences
import NMEA
import Platform

/// Failure reports of the hooks, held back so that a hook that keeps failing cannot feed on its own
/// failures: the first failure of a hook is reported at once, later ones within `interval` are
/// summed up into one report at the end of the interval. Each report is a `HookFailure` that names
/// its hook (`origin`), so that the `error` event made of it is not delivered back to that hook.
final class HookFailureReports: Sendable {
    let interval: Double
    private let programs: [String]
    private let report: @Sendable (Problem) -> Void
    /// This sink's number in the process, which the origins of its reports carry.
    private let sink: Int

    private static let sinks = Locked(0)

    private struct Failures {
        var lastReport: Double?
        var suppressed = 0
        var lastCause: HookFailure.Cause?
        var flushScheduled = false
    }

    private struct State {
        var failures: [Failures]
        /// Once stopping, no flush is scheduled any more: `flushAll` reports what is held.
        var stopping = false
    }

    private let state: Locked<State>

    init(programs: [String], interval: Double, report: @escaping @Sendable (Problem) -> Void) {
        self.programs = programs
        self.interval = interval
        self.report = report
        sink = Self.sinks.withLock { count in
            count += 1
            return count
        }
        state = Locked(State(failures: Array(repeating: Failures(), count: programs.count)))
    }

    /// Where a report about hook `index` comes from.
    func origin(of index: Int) -> HookFailure.Origin { HookFailure.Origin(sink: sink, hook: index) }

    /// Whether `problem` is a report about hook `index` of this sink.
    func isOwnReport(_ problem: Problem, of index: Int) -> Bool {
        guard case .hook(let failure) = problem else { return false }
        return failure.origin == origin(of: index)
    }

    /// Reports a failure of hook `index`, or holds it back (see the type).
    func failed(_ index: Int, _ cause: HookFailure.Cause) {
        let now = monotonicSeconds()
        let (sendNow, flushAfter): (Bool, Double?) = state.withLock { state in
            var failures = state.failures[index]
            defer { state.failures[index] = failures }
            if let last = failures.lastReport, now - last < interval {
                failures.suppressed += 1
                failures.lastCause = cause
                let schedule = !failures.flushScheduled && !state.stopping
                failures.flushScheduled = failures.flushScheduled || schedule
                return (false, schedule ? max(0, last + interval - now) : nil)
            }
            failures.lastReport = now
            return (true, nil)
        }
        if sendNow { send(index, cause) }
        if let flushAfter {
            DispatchQueue.global().asyncAfter(deadline: .now() + flushAfter) { [weak self] in self?.flush(index) }
        }
    }

    /// Sends a report about hook `index` at once (not counted as a failure).
    func send(_ index: Int, _ cause: HookFailure.Cause) {
        report(.hook(HookFailure(origin: origin(of: index), program: programs[index], cause: cause)))
    }

    /// Reports everything held back (at the end of a run).
    func flushAll() {
        state.withLock { $0.stopping = true }
        for index in programs.indices { flush(index) }
    }

    /// Reports the failures of hook `index` held back so far, if any.
    private func flush(_ index: Int) {
        let (count, last): (Int, HookFailure.Cause?) = state.withLock { state in
            var failures = state.failures[index]
            defer { state.failures[index] = failures }
            failures.flushScheduled = false
            let held = (failures.suppressed, failures.lastCause)
            if failures.suppressed > 0 {
                failures.suppressed = 0
                failures.lastReport = monotonicSeconds()
            }
            return held
        }
        guard count > 0, let last else { return }
        send(index, .repeated(count: count, interval: interval, last: last))
    }
}
