import Dispatch
import Events
import Fences
import Foundation
import NMEA
import Platform
import Store

/// Between the state file and the sinks that must not see an event a power cut could take back
/// (hooks, notifications, webhook, MQTT: `EventSink.waitsForStorage`).
///
/// The engine thread commits (`synchronous=NORMAL`: no wait for the disk), shows the events on the
/// console at once, and `submit`s them here. This stage's thread syncs the WAL (`fdatasync`) for all
/// that was submitted so far in one go, releases the outbox rows it covered, and rings the engine's
/// doorbell; the engine thread then `takeDurable`s the events and hands them to those sinks itself,
/// so sinks are still only ever called in the engine's turn (`EngineTurn`). Event commits are rare (a few hundred
/// an hour), so the syncs cost little, and the engine never waits on one.
final class DurabilityStage: @unchecked Sendable {
    private struct Batch {
        var generation: Int
        var events: [OutgoingEvent]
        var fences: FenceSet
    }

    private struct Shared {
        var submitted = 0
        var durable = 0
        var batches: [Batch] = []
        var failure: CaughtError?
        var running = true
    }

    private let store: StateStore
    private let shared = Locked(Shared())
    private let work = DispatchSemaphore(value: 0)
    private let synced = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    /// `submit`, `takeDurable` and `syncNow`: the engine's turn, one thread at a time.
    private let engineSide = OneThreadAtATime("DurabilityStage (engine side)")

    /// Syncs what the state file holds already and holds back outbox rows until synced, then starts
    /// the thread; `wake` rings the engine's doorbell after each sync.
    init(store: StateStore, wake: @escaping @Sendable () -> Void) throws {
        self.store = store
        try store.holdOutboxUntilSynced()
        let thread = Thread { [self] in
            runThread(named: "gf-durability") {
                while true {
                    work.wait()
                    // One sync covers every submit so far: the signals of those are spent with it.
                    while work.wait(timeout: .now()) == .success {}
                    let (target, running) = shared.withLock { ($0.submitted, $0.running) }
                    let outboxRow = store.newestCommittedOutboxRow
                    var failure: CaughtError?
                    do { try store.syncToStorage() } catch { failure = CaughtError(error) }
                    store.releaseOutbox(through: outboxRow)
                    shared.withLock {
                        $0.durable = max($0.durable, target)
                        if let failure { $0.failure = failure }
                    }
                    synced.signal()
                    wake()
                    if !running { break }
                }
                done.signal()
            }
        }
        thread.start()
    }

    /// Events just committed, for the sinks that wait for storage; engine thread.
    func submit(_ events: [OutgoingEvent], fences: FenceSet) {
        guard !events.isEmpty else { return }
        let claim = engineSide.enter()
        defer { engineSide.leave(claim) }
        shared.withLock {
            $0.submitted += 1
            $0.batches.append(Batch(generation: $0.submitted, events: events, fences: fences))
        }
        work.signal()
    }

    /// The submitted events that are now on storage, in order; engine thread. A failed sync leaves
    /// them waiting (a later sync may succeed) and is said once as `problem`.
    func takeDurable(_ deliver: (OutgoingEvent, FenceSet) -> Void, problem: (CaughtError) -> Void) {
        let claim = engineSide.enter()
        defer { engineSide.leave(claim) }
        let (ready, failure) = shared.withLock { state -> ([Batch], CaughtError?) in
            let count = state.batches.prefix { $0.generation <= state.durable }.count
            let ready = Array(state.batches.prefix(count))
            state.batches.removeFirst(count)
            defer { state.failure = nil }
            return (ready, state.failure)
        }
        if let failure { problem(failure) }
        for batch in ready {
            for event in batch.events { deliver(event, batch.fences) }
        }
    }

    /// Syncs now and waits for it (the end of a run); then `takeDurable` returns everything submitted.
    func syncNow() {
        let claim = engineSide.enter()
        defer { engineSide.leave(claim) }
        let goal = shared.withLock { $0.submitted }
        repeat {
            work.signal()
            synced.wait()
        } while shared.withLock({ $0.durable }) < goal
    }

    /// Ends the thread after a last sync.
    func stop() {
        let wasRunning = shared.withLock { state in
            defer { state.running = false }
            return state.running
        }
        guard wasRunning else { return }
        work.signal()
        done.wait()
    }
}
