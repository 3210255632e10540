import Events
import Platform

/// Answers to the alarm from the threads that hear them (the terminal's Enter, the broker's
/// `PREFIX/alarm/set`), waiting for the engine to take them; each one rings the engine's doorbell.
public final class AlarmAnswers: Sendable {
    private let waiting = Locked<[AlarmAcknowledger]>([])
    private let wake = Locked<(@Sendable () -> Void)?>(nil)

    public init() {}

    public func post(_ who: AlarmAcknowledger) {
        waiting.withLock { $0.append(who) }
        wake.withLock { $0 }?()
    }

    public var hasPending: Bool { waiting.withLock { !$0.isEmpty } }

    public func take() -> [AlarmAcknowledger] {
        waiting.withLock { answers in
            defer { answers.removeAll() }
            return answers
        }
    }

    /// What rings the engine's doorbell (nil: nothing, once the run ends).
    public func wakeOnAnswer(_ ring: (@Sendable () -> Void)?) { wake.withLock { $0 = ring } }
}
