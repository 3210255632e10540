import NMEA
import Platform

/// Whose turn it is to run the engine: the engine thread, for its rounds, or the reader thread of
/// a live source, which hands each input it pushed through the engine itself, on the wake-up that
/// read it, when the engine thread is not in a round.
///
/// A receiver at 10 Hz otherwise woke two threads a cycle, the reader for the bytes and the engine
/// thread for the fix, where a Raspberry Pi's budget is one wake-up per cycle plus timers
/// (docs/performance.md, "Live cost"). The engine thread still wakes for what only it does:
/// its timers (silence, the track's write, fence reloads) and the events that storage has synced;
/// and whenever the reader finds it busy, the reader rings the doorbell as before and goes back to
/// reading, so neither thread ever waits for the other.
///
/// Everything the engine touches (the engine, the state file's writer, the sinks) is used by one
/// thread at a time, under this lock: a `Locked`, which ThreadSanitizer follows (a `Mutex` it does
/// not, and CI's TSan step took every access behind it for a race).
final class EngineTurn: Sendable {
    /// Whether the reader may take turns at all, behind the lock that is the turn.
    private let readerMayRun = Locked(false)

    /// The engine thread's turn: waits for the reader's, if it is in one.
    func engineThread<Failure: Error>(_ body: () throws(Failure) -> Void) throws(Failure) {
        try readerMayRun.withLock { _ throws(Failure) in try body() }
    }

    /// The reader's turn, if the engine thread is not in one and the reader may run at all; false
    /// when `body` did not run.
    func readerThread(_ body: () -> Void) -> Bool {
        readerMayRun.withLockIfAvailable { may in
            guard may else { return false }
            body()
            return true
        } ?? false
    }

    /// From the first round (the run has begun) to the end of the last (shutting down is the
    /// engine thread's alone). Waits for a turn of the reader's in progress.
    func letReaderRun(_ may: Bool) { readerMayRun.withLock { $0 = may } }
}
