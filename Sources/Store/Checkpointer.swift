import Foundation
import GRDB
import Synchronization

/// Moves SQLite's WAL checkpoints off the engine thread for a long-running engine.
///
/// By default SQLite checkpoints inside whichever commit crosses 1000 WAL pages: with the event
/// log, fence states and the track written by the engine thread, that commit is the one that makes
/// an event durable before it is printed, and it then takes milliseconds instead of microseconds
/// (SPEC §10: p99 < 1 ms from the last byte to the event). Here the engine's connection never
/// checkpoints; a thread of its own, on a second connection, runs a PASSIVE checkpoint (which never
/// waits for the writer) every `interval` seconds.
final class Checkpointer: Sendable {
    private let running = Atomic<Bool>(true)
    private let done = DispatchSemaphore(value: 0)

    init(path: String, interval: Double) throws {
        let connection = try DatabaseQueue(path: path)
        let thread = Thread { [self] in
            while running.load(ordering: .relaxed) {
                var slept = 0.0
                while slept < interval, running.load(ordering: .relaxed) {
                    usleep(50_000)
                    slept += 0.05
                }
                // Best effort: a checkpoint that cannot run now runs at the next tick.
                try? connection.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)") }
            }
            done.signal()
        }
        thread.name = "gpsfence checkpoint"
        thread.start()
    }

    func stop() {
        guard running.exchange(false, ordering: .relaxed) else { return }
        done.wait()
    }
}

extension StateStore {
    /// For `run` and `replay`: the engine's commits stop checkpointing the WAL; a background
    /// thread does it instead, until `stopBackgroundCheckpoints`.
    public func startBackgroundCheckpoints(interval: Double = 1) throws {
        try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        checkpointer.withLock { $0 = $0 ?? (try? Checkpointer(path: path, interval: interval)) }
    }

    /// Stops the thread after a last checkpoint, and gives checkpoints back to the commits.
    public func stopBackgroundCheckpoints() {
        checkpointer.withLock { current in
            current?.stop()
            current = nil
        }
        try? database.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 1000")
            try db.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)")
        }
    }
}
