import Foundation
import GRDB
import NMEA
import Testing

@testable import Fences
@testable import Store

/// The track sync's cursor in the state file (docs/running.md, "Track sync"), on real SQLite files.
@Suite struct TrackSyncStoreTests {
    static let start: Int64 = 1_770_113_700_000

    func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("gpsfence-sync-\(UUID().uuidString).sqlite").path
    }

    func record(_ store: StateStore, seconds: Range<Int>, keepDays: Double = 7) throws {
        var settings = TrackRecorder.Settings()
        settings.keepDays = keepDays
        let recorder = TrackRecorder(store: store, settings: settings)
        for second in seconds {
            try recorder.record(
                Fix(
                    time: UTCTime(millisecondsSinceEpoch: Self.start + Int64(second) * 1000),
                    timeOfDay: TimeOfDay(milliseconds: 0), latitude: 47, longitude: 8 + Double(second) * 1e-4,
                    mode: .threeD, accuracy: 4))
        }
        try recorder.flush()
    }

    @Test func batchesFollowTheCursorAndItOnlyMovesForward() throws {
        let path = temporaryPath()
        let store = try StateStore(path: path)
        try record(store, seconds: 0..<25)
        let target = "http://127.0.0.1:1/track"
        var cursor = try store.openSyncCursor(target: target)
        #expect(cursor == .min, "a new server starts at the beginning of the kept track")
        var batches: [[Int64]] = []
        while case let batch = try store.trackPoints(after: cursor, limit: 10), let last = batch.last {
            batches.append(batch.map(\.time))
            cursor = last.time
        }
        #expect(batches.map(\.count) == [10, 10, 5])
        #expect(batches.flatMap { $0 } == (0..<25).map { Self.start + Int64($0) * 1000 })
        #expect(try store.trackBacklog(after: Self.start + 4000, cap: 3) == 3, "counted up to the cap")

        try store.saveSyncCursor(
            target: target, ackedTime: Self.start + 9000, ackedAt: 5, lastError: nil, lastErrorAt: nil)
        try store.saveSyncCursor(
            target: target, ackedTime: Self.start + 2000, ackedAt: 6, lastError: "HTTP 500", lastErrorAt: 7)
        // Reopened (a restart): the cursor is where it got farthest, with the last error.
        let reopened = try StateStore(path: path)
        #expect(try reopened.openSyncCursor(target: target) == Self.start + 9000)
        let shown = try #require(try reopened.syncCursors().first)
        #expect(shown.backlog == 15)
        #expect(shown.lastError == "HTTP 500")
        #expect(shown.unsentPruned == 0)
        #expect(try reopened.openSyncCursor(target: "https://other/") == .min, "one cursor per server")
    }

    /// Points older than --keep-days are pruned whether sent or not; those a server never had are counted.
    @Test func pruningCountsTheUnsentPoints() throws {
        let store = try StateStore(path: temporaryPath())
        let target = "http://127.0.0.1:1/track"
        _ = try store.openSyncCursor(target: target)
        try record(store, seconds: 0..<10)
        try store.saveSyncCursor(
            target: target, ackedTime: Self.start + 3000, ackedAt: 1, lastError: nil, lastErrorAt: nil)
        // Two days later, with one day kept: the 10 old points go, 6 of them never sent.
        try record(store, seconds: 172_800..<172_801, keepDays: 1)
        #expect(try store.track().count == 1)
        let cursor = try #require(try store.syncCursors().first)
        #expect(cursor.unsentPruned == 6)
        #expect(cursor.backlog == 1)
    }

    /// A state file written before the track sync (schema v2) gains the cursor table and keeps its track.
    @Test func migratesAVersionTwoFile() throws {
        let path = temporaryPath()
        let queue = try DatabaseQueue(path: path)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in try db.execute(sql: TrackTests.versionOneSchema) }
        migrator.registerMigration("v2") { db in try db.execute(sql: TrackSchema.v2) }
        try migrator.migrate(queue)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO track (time, lat, lon) VALUES (?, 47, 8)", arguments: [Self.start])
        }
        try queue.close()
        let store = try StateStore(path: path)
        #expect(try store.openSyncCursor(target: "http://x/") == .min)
        #expect(try store.trackPoints(after: .min, limit: 10).map(\.time) == [Self.start])
    }
}
