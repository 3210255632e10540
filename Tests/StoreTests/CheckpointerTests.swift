import Foundation
import GRDB
import Testing
import Waiting

@testable import Store

/// The background checkpoints of a live run: rare, so that an SD card is not rewritten with the same
/// pages over and over (docs/performance.md, "Live cost"), but bounded by the WAL's growth.
@Suite struct CheckpointerTests {
    func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("gpsfence-ckpt-\(UUID().uuidString).sqlite")
            .path
    }

    /// When the database file itself was last written: a checkpoint is what writes it.
    func databaseWritten(_ path: String) -> Int64 {
        var status = stat()
        stat(path, &status)
        return Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
    }

    func write(_ store: StateStore, bytes: Int) throws {
        try store.database.write { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS filler (text TEXT)")
            try db.execute(sql: "INSERT INTO filler VALUES (?)", arguments: [String(repeating: "x", count: bytes)])
        }
    }

    @Test func aFewCommitsWaitForTheIntervalAndAGrowingWALDoesNot() throws {
        let path = temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try StateStore(path: path)
        try store.database.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        let checkpointer = try Checkpointer(path: path, interval: 3600, growth: 256 << 10, look: 0.05)
        defer { checkpointer.stop() }
        let before = databaseWritten(path)
        for _ in 0..<20 { try write(store, bytes: 2000) }
        // Nothing happens: the checkpointer looks every 0.05 s, ten times in this.
        Thread.sleep(forTimeInterval: 0.5)
        #expect(databaseWritten(path) == before, "40 KB of WAL: no checkpoint within the hour")
        for _ in 0..<150 { try write(store, bytes: 2000) }
        waitUntil(timeout: 5, every: 0.05) { databaseWritten(path) != before }
        #expect(databaseWritten(path) != before, "over 256 KB of WAL: checkpointed")
    }

    /// A long-running engine's WAL grows into disk blocks reserved when it starts, so that an event's
    /// sync does not also write the filesystem's record of new blocks; its size (what SQLite reads)
    /// stays what SQLite wrote.
    @Test func theWALsBlocksAreReservedForALongRun() throws {
        let path = temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try StateStore(path: path)
        func wal() -> stat {
            var status = stat()
            stat(path + "-wal", &status)
            return status
        }
        #expect(Int(wal().st_blocks) * 512 < StateStore.walReserve)
        // What SQLite wrote so far: the fresh file's schema (its migrations).
        let written = Int(wal().st_size)
        try store.startBackgroundCheckpoints()
        defer { store.stopBackgroundCheckpoints() }
        let reserved = wal()
        #expect(Int(reserved.st_blocks) * 512 >= StateStore.walReserve)
        #expect(Int(reserved.st_size) == written, "\(reserved.st_size) bytes, \(written) before the reservation")
        #expect(Int(reserved.st_size) < StateStore.walReserve / 16)
        try write(store, bytes: 2000)
        #expect(Int(wal().st_size) > Int(reserved.st_size))
        #expect(Int(wal().st_blocks) == Int(reserved.st_blocks))
    }
}
