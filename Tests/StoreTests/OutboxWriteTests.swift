import Foundation
import GRDB
import NMEA
import Testing

@testable import Events
@testable import Fences
@testable import Store

/// What an event writes to the card: "delivered" marks wait for the next write, and the schema
/// keeps the pages per commit few (docs/performance.md, "Live cost").
@Suite struct OutboxWriteTests {
    let helpers = StateStoreTests()
    let target = "http://127.0.0.1:1/hook"

    func undeliveredInFile(_ store: StateStore) throws -> Int {
        try store.database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL") }
            ?? -1
    }

    func deliveredInFile(_ store: StateStore) throws -> Int {
        try store.database.read {
            try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NOT NULL")
        } ?? -1
    }

    func walFrames(_ store: StateStore) throws -> Int {
        // `PRAGMA wal_checkpoint` would fold the WAL; the frame count is the WAL's size over a frame.
        let size = (try? FileManager.default.attributesOfItem(atPath: store.path + "-wal")[.size] as? Int) ?? 0
        let page = try store.database.read { try Int.fetchOne($0, sql: "PRAGMA page_size") } ?? 1
        return size / (page + 24)
    }

    /// A delivered event writes nothing by itself; the mark rides on the next commit, and delivery
    /// meanwhile takes the next row and counts the event as delivered.
    @Test func deliveredMarksRideOnTheNextCommit() throws {
        let path = helpers.temporaryPath()
        let store = try StateStore(path: path)
        let fences = try FenceSet.parse(StateStoreTests.fencesText)
        let engine = EventEngine(fences: fences)
        let first = try helpers.run(engine, store, [helpers.fix(0, east: 0)], endpoints: [target])
        #expect(first == ["registered", "enter"])
        let item = try #require(try store.nextUndelivered(target: target))
        let frames = try walFrames(store)
        try store.markDelivered(item, at: 1000)
        #expect(try walFrames(store) == frames, "a delivered mark alone wrote to the WAL")
        #expect(try deliveredInFile(store) == 0)
        let next = try #require(try store.nextUndelivered(target: target))
        #expect(next.seq > item.seq)
        #expect(
            try store.counters(target: target)
                == OutboxCounters(delivered: 1, pending: 1, failedAttempts: 0, lastError: nil))
        // The next event's commit carries the mark: another process (`status`) sees it.
        let second = try helpers.run(
            engine, store, [helpers.fix(1, east: 80), helpers.fix(2, east: 80)], endpoints: [target])
        #expect(second == ["exit"])
        #expect(try deliveredInFile(store) == 1)
        let marked = try StateStore(path: path, access: .readOnly).counters(target: target)
        #expect(marked == OutboxCounters(delivered: 1, pending: 2, failedAttempts: 0, lastError: nil))
    }

    /// Delivery's end writes what is waiting, and a store closed without it sends the event again.
    @Test func persistWritesTheWaitingMarks() throws {
        let path = helpers.temporaryPath()
        let store = try StateStore(path: path)
        let fences = try FenceSet.parse(StateStoreTests.fencesText)
        _ = try helpers.run(EventEngine(fences: fences), store, [helpers.fix(0, east: 0)], endpoints: [target])
        let first = try #require(try store.nextUndelivered(target: target))
        try store.markDelivered(first, at: 1000)
        #expect(try StateStore(path: path).nextUndelivered(target: target)?.seq == first.seq)
        try store.persistDeliveredMarks()
        #expect(try StateStore(path: path).nextUndelivered(target: target)?.seq != first.seq)
        let attempts = try store.database.read {
            try Int.fetchOne($0, sql: "SELECT attempts FROM outbox WHERE seq = ?", arguments: [first.seq])
        }
        #expect(attempts == 1)
    }

    /// Many marks with no commit to ride on (a long replay without a track) are written in batches.
    @Test func aFullBatchIsWritten() throws {
        let store = try StateStore(path: helpers.temporaryPath())
        let fences = try FenceSet.parse(StateStoreTests.fencesText)
        let events = (0..<Int64(DeliveredMarks.most + 2)).map { second in
            OutgoingEvent(
                GeofenceEvent(
                    second % 2 == 0 ? .stationary : .moving,
                    time: UTCTime(millisecondsSinceEpoch: 1_770_113_700_000 + second * 1000)),
                fences: fences)
        }
        try store.commit(events: events, insideStates: [], fences: fences, outboxTargets: [target])
        #expect(try undeliveredInFile(store) == events.count)
        for count in 1...DeliveredMarks.most {
            let item = try #require(try store.nextUndelivered(target: target))
            try store.markDelivered(item, at: 1000)
            #expect(try deliveredInFile(store) == (count == DeliveredMarks.most ? count : 0))
        }
    }

    /// An existing state file loses AUTOINCREMENT and the old pending index, its fence states are
    /// keyed by id alone, and it keeps its rows and their order; new rows come after the old ones.
    @Test func existingFileIsMigratedWithItsRows() throws {
        let path = helpers.temporaryPath()
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let old = try DatabaseQueue(path: path)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in try db.execute(sql: TrackTests.versionOneSchema) }
        try migrator.migrate(old)
        try old.write { db in
            try db.execute(
                sql: """
                    INSERT INTO fence_state VALUES ('"gym"', 42, 1, 1770113741000, 1);
                    INSERT INTO event (seq, id, type, time, json) VALUES (7, 'e7', 'registered', 1, '{}');
                    INSERT INTO outbox (seq, endpoint, event_id, body, delivered_at) VALUES (40, 'h', 'e7', '{}', 5);
                    INSERT INTO outbox (seq, endpoint, event_id, body) VALUES (41, 'h', 'e8', '{"a":1}');
                    """)
        }
        try old.close()
        let store = try StateStore(path: path)
        let schema = try store.database.read {
            try String.fetchAll($0, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL")
        }
        #expect(!schema.contains { $0.contains("AUTOINCREMENT") }, "\(schema)")
        #expect(!schema.contains { $0.contains("delivered_at, seq") }, "\(schema)")
        #expect(schema.contains { $0.contains("fence_state") && $0.contains("WITHOUT ROWID") }, "\(schema)")
        #expect(
            try store.fenceStates() == [
                FenceStateRecord(
                    fenceID: .string("gym"), geometryHash: 42, inside: true, enterTime: 1_770_113_741_000,
                    dwellFired: true)
            ])
        let pending = try #require(try store.nextUndelivered(target: "h"))
        #expect(pending.seq == 41 && pending.eventID == "e8" && pending.body == #"{"a":1}"#)
        #expect(try store.counters(target: "h").delivered == 1)
        let fences = try FenceSet.parse(StateStoreTests.fencesText)
        _ = try helpers.run(EventEngine(fences: fences), store, [helpers.fix(0, east: 0)], endpoints: ["h"])
        let seqs = try store.database.read { db in
            (
                try Int64.fetchAll(db, sql: "SELECT seq FROM event ORDER BY seq"),
                try Int64.fetchAll(db, sql: "SELECT seq FROM outbox ORDER BY seq")
            )
        }
        // Two new events (registered, enter), each with its outbox row, after the old rows.
        #expect(seqs.0.count == 3 && seqs.0.first == 7 && seqs.0.dropFirst().allSatisfy { $0 > 7 }, "\(seqs.0)")
        #expect(
            seqs.1.count == 4 && seqs.1.prefix(2) == [40, 41] && seqs.1.dropFirst(2).allSatisfy { $0 > 41 }, "\(seqs.1)"
        )
    }
}
