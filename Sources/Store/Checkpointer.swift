import Foundation
import GRDB
import NMEA
import Platform
import Synchronization

/// Moves SQLite's WAL checkpoints off the engine thread for a long-running engine, and makes them
/// rare.
///
/// By default SQLite checkpoints inside whichever commit crosses 1000 WAL pages: with the event
/// log, fence states and the track written by the engine thread, that commit is the one that makes
/// an event durable before it is printed, and it then takes milliseconds instead of microseconds
/// (docs/performance.md: p99 < 1 ms from the last byte to the event). Here the engine's connection
/// never checkpoints; a thread of its own, on a second connection, runs a PASSIVE checkpoint (which
/// never waits for the writer).
///
/// Each checkpoint rewrites, in the database file, every page the WAL changed since the last one,
/// and lets the next commit start the WAL over: on an SD card a checkpoint a second rewrote the same
/// few pages 3600 times an hour. So a checkpoint runs only when the WAL has changed and either
/// `interval` seconds have passed or the WAL grew by `growth` bytes (a fast replay). Between the
/// two, readers see the WAL; a power cut loses nothing by it (the WAL is synced where it matters).
final class Checkpointer: Sendable {
    private let running = Atomic<Bool>(true)
    private let wake = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    init(path: String, interval: Double, growth: Int64 = Int64(StateStore.walReserve), look: Double = 5) throws {
        let connection = try DatabaseQueue(path: path)
        let thread = Thread { [self] in
            runThread(named: "gf-checkpoint") {
                var last = Self.walStamp(path)
                var lastTime = monotonicSeconds()
                var grownFrom = last.size
                while running.load(ordering: .relaxed) {
                    _ = wake.wait(timeout: .now() + min(look, interval))
                    let now = Self.walStamp(path)
                    let due =
                        !running.load(ordering: .relaxed)
                        || (now != last && monotonicSeconds() - lastTime >= interval)
                        || now.size - grownFrom >= growth
                    guard due else { continue }
                    // Best effort: a checkpoint that cannot run now runs at the next look.
                    try? connection.writeWithoutTransaction { db in
                        try db.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)")
                    }
                    last = Self.walStamp(path)
                    grownFrom = last.size
                    lastTime = monotonicSeconds()
                }
                done.signal()
            }
        }
        thread.start()
    }

    /// The WAL's size and change time: a commit changes the second at least, a burst the first.
    static func walStamp(_ path: String) -> WALStamp {
        guard let status = try? FileStatus.of(path + "-wal") else { return WALStamp(size: 0, changed: 0) }
        return WALStamp(
            size: status.size,
            changed: Int64(status.modifiedSeconds) * 1_000_000_000 + Int64(status.modifiedNanoseconds))
    }

    func stop() {
        guard running.exchange(false, ordering: .relaxed) else { return }
        wake.signal()
        done.wait()
    }
}

struct WALStamp: Equatable {
    var size: Int64
    var changed: Int64
}

extension StateStore {
    /// For `run` and `replay`: the engine's commits stop checkpointing the WAL; a background
    /// thread does it instead (see `Checkpointer`), until `stopBackgroundCheckpoints`.
    public func startBackgroundCheckpoints(interval: Double = 3600) throws {
        try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        reserveWALBlocks()
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
