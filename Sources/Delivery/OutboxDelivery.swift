import Events
import Fences
import Foundation
import JSONOutput
import NMEA
import Platform
import Synchronization

/// How one outbox target is reached: a webhook POST, an MQTT publish. `send` blocks until the
/// far end acknowledged the event (a 2xx, a PUBACK) or failed.
public protocol OutboxTransport: Sendable {
    /// The target's key in the outbox.
    var target: String { get }
    /// How messages name it: `webhook http://...`, `mqtt broker ...` (no password).
    var displayName: String { get }
    func send(_ item: OutboxItem) -> DeliveryOutcome
    /// The outbox held nothing undelivered for this target when the delivery thread last looked:
    /// everything committed before that moment was acknowledged.
    func caughtUp()
}

extension OutboxTransport {
    public func caughtUp() {}
}

public enum DeliveryOutcome: Sendable, Equatable {
    case delivered
    case failed(TransportFailure)
}

/// The delivery sink of docs/running.md: takes the events the engine committed to the outbox for one
/// target and hands them to its transport, on a thread of its own.
///
/// - At least once: an event leaves the outbox only after the transport's acknowledgement; a crash
///   between the two sends it again, and the event `id` lets the receiver drop the copy.
/// - In order: only the oldest undelivered event is ever tried; later ones wait behind it.
/// - While the target is down: exponential backoff with jitter (base doubling per attempt,
///   capped), and nothing is dropped however long it stays down.
public final class OutboxDelivery: EventSink, @unchecked Sendable {
    /// `EventSink`'s calls come in the engine's turn, one thread at a time.
    private let engineTurn = OneThreadAtATime("OutboxDelivery (the engine's turn)")
    public struct Policy: Sendable {
        public var baseDelay = 1.0
        public var maximumDelay = 300.0
        /// At the end of a replay, how long `stop` and `finish` together wait for the queue to empty.
        public var drainTimeout = 30.0
        public init() {}
    }

    public let transport: any OutboxTransport
    private let outbox: any EventOutbox
    private let policy: Policy
    private let report: @Sendable (Problem) -> Void
    /// Where "reachable again" goes: not an `error` event.
    private let notice: @Sendable (String) -> Void
    private let drainsOnFinish: Bool
    private let wakeUp = DispatchSemaphore(value: 0)
    private let running = Atomic<Bool>(true)
    private var thread: Thread?
    /// Signalled once by the delivery thread as it ends; `joined`: `stopThread` waited for it.
    private let ended = DispatchSemaphore(value: 0)
    private var joined = false
    /// A replay's drain ends here, both halves of it (`stop`, `finish`); engine thread only.
    private var drainDeadline: Double?

    public var outboxTarget: String? { transport.target }

    public init(
        transport: any OutboxTransport, outbox: any EventOutbox, policy: Policy = Policy(),
        drainsOnFinish: Bool = false, report: @escaping @Sendable (Problem) -> Void,
        notice: @escaping @Sendable (String) -> Void = DeliveryNotice.standardError
    ) {
        self.transport = transport
        self.outbox = outbox
        self.policy = policy
        self.drainsOnFinish = drainsOnFinish
        self.report = report
        self.notice = notice
    }

    public func start() {
        guard thread == nil else { return }
        let thread = Thread { [self] in
            runThread(named: "gf-delivery") {
                loop()
                ended.signal()
            }
        }
        self.thread = thread
        thread.start()
    }

    /// The event is already in the outbox (committed before sinks are called): try now rather than
    /// at the next poll.
    public func deliver(_ event: OutgoingEvent, fences: FenceSet) {
        let claim = engineTurn.enter()
        defer { engineTurn.leave(claim) }
        start()
        wakeUp.signal()
    }

    /// The end of a live run: stop after the current attempt (the rest waits in the outbox). The end
    /// of a replay: wait, at most `drainTimeout`, for the queue to empty. Either way before any
    /// sink's `finish`, so what the last attempts report (the target down, or back) still becomes
    /// `error` events.
    /// New rows may be ready (the outbox released rows up to a sync): look again now.
    public func wake() { wakeUp.signal() }

    public func stop() {
        guard drainsOnFinish else { return stopThread() }
        guard thread != nil else { return }
        let deadline = monotonicSeconds() + policy.drainTimeout
        drainDeadline = deadline
        drain(until: deadline)
    }

    /// A replay also delivers the `error` events that its drain's reports became, within what is
    /// left of the same `drainTimeout`. Undelivered events stay in the outbox (the job that owns
    /// it says how many).
    public func finish() {
        if drainsOnFinish, thread != nil {
            drain(until: drainDeadline ?? monotonicSeconds() + policy.drainTimeout)
        }
        stopThread()
    }

    private func stopThread() {
        running.store(false, ordering: .relaxed)
        wakeUp.signal()
        // Joined through a semaphore, not by polling `isFinished`: what the delivery thread wrote
        // (its store-problem note) is then visible here, to ThreadSanitizer too.
        if thread != nil, !joined {
            ended.wait()
            joined = true
        }
        usingStore(.marksLost) {
            try outbox.persistDeliveredMarks()
        }
    }

    /// Waits until nothing is pending (or `timeout` passes).
    @discardableResult
    public func drain(timeout: Double) -> Bool { drain(until: monotonicSeconds() + timeout) }

    /// Ctrl-C or SIGTERM ends the wait at once: what is left stays in the outbox, and the job
    /// says so.
    /// - Parameter deadline: on the monotonic clock (`monotonicSeconds`).
    @discardableResult
    func drain(until deadline: Double) -> Bool {
        while true {
            if (try? outbox.counters(target: transport.target).pending) == 0 { return true }
            if monotonicSeconds() >= deadline || StopSignals.isRaised { return false }
            wakeUp.signal()
            napSeconds(0.02)
        }
    }

    public var counters: OutboxCounters? { try? outbox.counters(target: transport.target) }

    private func loop() {
        var outage = OutageLog<TransportFailure>()
        while running.load(ordering: .relaxed) {
            let next = usingStore(.deliveryWaits) {
                try outbox.nextUndelivered(target: transport.target)
            }
            guard let item = next ?? nil else {
                // A failed read is not an empty queue.
                if next != nil { transport.caughtUp() }
                // New rows come with `deliver`, which wakes this thread: no need to poll often.
                _ = wakeUp.wait(timeout: .now() + 30)
                continue
            }
            let now = Self.nowMilliseconds()
            if item.nextAttempt > now {
                _ = wakeUp.wait(timeout: .now() + Double(item.nextAttempt - now) / 1000)
                continue
            }
            switch transport.send(item) {
            case .delivered:
                usingStore(.sentAgain) {
                    try outbox.markDelivered(item, at: Self.nowMilliseconds())
                }
                if outage.recovered() { notice("\(transport.displayName) is reachable again") }
            case .failed(let failure):
                let delay = backoff(afterAttempts: item.attempts + 1)
                usingStore(.attemptNotNoted) {
                    try outbox.markFailed(
                        item, error: failure.text, retryAt: Self.nowMilliseconds() + Int64(delay * 1000))
                }
                if outage.failed(failure) {
                    report(.delivery(.failing(target: transport.displayName, failure, retryPlan)))
                }
            }
        }
    }

    /// What happens to the events while the target is down: a live run keeps trying for as long
    /// as it runs; a replay only until its end and its drain, and says then what was not delivered.
    private var retryPlan: DeliveryProblem.RetryPlan {
        drainsOnFinish ? .untilTheReplayEnds(drainTimeout: policy.drainTimeout) : .whileRunning
    }

    /// The last failure of the outbox itself (the state file), said once until the outbox works
    /// again; delivery thread only.
    private var storeProblem: DeliveryProblem?

    /// Runs one outbox operation; a failure is reported (once while it repeats) instead of being
    /// taken for an empty queue or a done delivery.
    @discardableResult
    private func usingStore<T>(_ consequence: DeliveryProblem.OutboxConsequence, _ body: () throws -> T) -> T? {
        do {
            let result = try body()
            storeProblem = nil
            return result
        } catch {
            let problem = DeliveryProblem.outbox(target: transport.displayName, CaughtError(error), consequence)
            if problem != storeProblem { report(.delivery(problem)) }
            storeProblem = problem
            return nil
        }
    }

    /// Jitter over the upper half: between d/2 and d, d = base x 2^(attempts-1), capped. The
    /// attempts are the row's own, kept in the outbox across restarts.
    func backoff(afterAttempts attempts: Int) -> Double {
        Backoff(initial: policy.baseDelay, maximum: policy.maximumDelay, jitter: true).delay(afterFailures: attempts)
    }

    static func nowMilliseconds() -> Int64 { currentUTCTime().millisecondsSinceEpoch }
}
