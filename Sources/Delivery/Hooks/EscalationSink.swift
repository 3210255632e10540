import Dispatch
import Events
import Fences
import Platform

/// `--alarm-escalate DURATION --on-escalate PROGRAM` (docs/running.md, "Alarms"): when an alarm
/// has sounded that long without an answer, PROGRAM runs once, with the hook rules of `--exec`
/// (no shell; the `alarm` event's JSON on its standard input, `GPSFENCE_*` in its environment):
/// the text message to a phone. An answer, or the end of the alarm, before then cancels it.
public final class EscalationSink: EventSink, @unchecked Sendable {
    /// `EventSink`'s calls come in the engine's turn, one thread at a time.
    private let engineTurn = OneThreadAtATime("EscalationSink (the engine's turn)")
    public let after: Double
    private let hook: ExecHookSink
    private let queue = DispatchQueue(label: "gpsfence.escalate")
    /// The escalation waiting for its time, if an alarm sounds.
    private let waiting = Locked<DispatchWorkItem?>(nil)

    public init(program: String, after: Double, timeout: Double = 10, report: @escaping @Sendable (Problem) -> Void)
        throws(HookError)
    {
        self.after = after
        hook = try ExecHookSink(programs: [program], timeout: timeout, concurrency: 1, report: report)
    }

    public func deliver(_ event: OutgoingEvent, fences: FenceSet) {
        let claim = engineTurn.enter()
        defer { engineTurn.leave(claim) }
        switch event.event.payload {
        case .alarm:
            let hook = self.hook
            let escalation = DispatchWorkItem { hook.deliver(event, fences: fences) }
            replace(with: escalation)
            queue.asyncAfter(deadline: .now() + after, execute: escalation)
        case .alarmAcknowledged(let alarm, by: _), .alarmCleared(let alarm):
            if alarm.status != .active { replace(with: nil) }
        case .enter, .exit, .dwell, .visit, .cross, .approach, .speeding, .fixLost, .fixAcquired, .deviceLost,
            .deviceConnected, .heartbeat, .registered, .unregistered, .error, .stationary, .moving, .anchorWarning,
            .integrity:
            break
        }
    }

    private func replace(with escalation: DispatchWorkItem?) {
        waiting.withLock { current in
            current?.cancel()
            current = escalation
        }
    }

    public func stop() {
        replace(with: nil)
        queue.sync {}
        hook.stop()
    }

    public func finish() { hook.finish() }
}
