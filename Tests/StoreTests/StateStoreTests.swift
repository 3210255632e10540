import Foundation
import GRDB
import NMEA
import Testing

@testable import Events
@testable import Fences
@testable import Store

@Suite struct StateStoreTests {
    static let fencesText = """
        {"type":"FeatureCollection","features":[{"type":"Feature","id":"gym","geometry":{"type":"Point","coordinates":[8.5417,47.3769]},
         "properties":{"name":"Gym","radius":50,"dwell":5}}]}
        """

    func temporaryPath() -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gpsfence-store-\(UUID().uuidString)")
        return folder.appendingPathComponent("nested/state.sqlite").path
    }

    func fix(_ second: Int64, east: Double) -> Fix {
        let point = Geodesy.destination(lat: 47.3769, lon: 8.5417, bearing: 90, distance: east)
        return Fix(
            time: UTCTime(millisecondsSinceEpoch: 1_770_113_700_000 + second * 1000),
            timeOfDay: TimeOfDay(milliseconds: 0),
            latitude: point.lat, longitude: point.lon, mode: .threeD, accuracy: 4)
    }

    /// Runs fixes through an engine, committing each fix's events as the runtime does.
    func run(_ engine: EventEngine, _ store: StateStore, _ fixes: [Fix], endpoints: [String] = []) throws -> [String] {
        var printed: [String] = []
        for fix in fixes {
            var events: [OutgoingEvent] = []
            engine.process(fix) { events.append(OutgoingEvent($0, fences: engine.fences)) }
            let fresh = try store.commit(
                events: events, insideStates: engine.snapshot(), fences: engine.fences, outboxTargets: endpoints)
            printed += fresh.map(\.event.kind.rawValue)
        }
        return printed
    }

    @Test func fileIsPrivateAndInWALMode() throws {
        let path = temporaryPath()
        let store = try StateStore(path: path)
        let fences = try FenceSet.parse(Self.fencesText)
        _ = try run(EventEngine(fences: fences), store, [fix(0, east: 0)])
        for file in [path, path + "-wal"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: file)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "\(file)")
        }
        let mode = try store.database.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }

    @Test func restartRestoresStateWithoutASecondEnter() throws {
        let path = temporaryPath()
        let fences = try FenceSet.parse(Self.fencesText)
        let first = try run(EventEngine(fences: fences), StateStore(path: path), [fix(0, east: 0), fix(1, east: 0)])
        #expect(first == ["registered", "enter"])

        // A new process: the store is opened again and the engine restored from it.
        let store = try StateStore(path: path)
        let engine = EventEngine(fences: fences)
        engine.restore(try store.fenceStates())
        let second = try run(engine, store, [fix(10, east: 0), fix(11, east: 80), fix(12, east: 80)])
        #expect(second == ["registered", "dwell", "exit", "visit"])
        let log = try store.eventLog()
        #expect(log.count == 6)
        let visits = try store.database.read { try Row.fetchAll($0, sql: "SELECT * FROM visit") }
        #expect(visits.count == 1)
        #expect((visits.first?["duration"] as Double?) == 12)
    }

    @Test func theSameEventIsNeverLoggedTwice() throws {
        let path = temporaryPath()
        let fences = try FenceSet.parse(Self.fencesText)
        let fixes = [fix(0, east: 0), fix(1, east: 80), fix(2, east: 80)]
        let first = try run(
            EventEngine(fences: fences), StateStore(path: path), fixes, endpoints: ["http://127.0.0.1:1/hook"])
        // Replaying the same input (a restart that re-reads a capture) finds every event logged.
        let again = try run(
            EventEngine(fences: fences), StateStore(path: path), fixes, endpoints: ["http://127.0.0.1:1/hook"])
        #expect(first == ["registered", "enter", "exit"])
        #expect(again.isEmpty)
        let store = try StateStore(path: path)
        #expect(try store.eventLog().count == 3)
        let queued = try store.database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM outbox") }
        #expect(queued == 3)
    }

    /// A row whose body is the event itself (a webhook's) keeps no second copy of it: the body is
    /// read from the event log; a target with a body of its own keeps that.
    @Test func anOutboxRowKeepsNoSecondCopyOfItsEvent() throws {
        let store = try StateStore(path: temporaryPath())
        let fences = try FenceSet.parse(Self.fencesText)
        let event = OutgoingEvent(
            GeofenceEvent(.stationary, time: UTCTime(millisecondsSinceEpoch: 1_770_113_700_000)), fences: fences)
        try store.commit(
            events: [event], insideStates: [], fences: fences,
            outbox: [
                OutboxTarget(name: "http://127.0.0.1:1/hook"),
                OutboxTarget(name: "mqtt://b", payload: { _, _ in OutboxPayload(body: "own") }),
            ])
        let stored = try store.database.read {
            try Row.fetchAll($0, sql: "SELECT endpoint, body FROM outbox ORDER BY seq").map {
                [$0["endpoint"] as String, ($0["body"] as String?) ?? "NULL"]
            }
        }
        #expect(stored == [["http://127.0.0.1:1/hook", "NULL"], ["mqtt://b", "own"]])
        #expect(try store.nextUndelivered(target: "http://127.0.0.1:1/hook")?.body == event.json)
        #expect(try store.nextUndelivered(target: "mqtt://b")?.body == "own")
    }

    /// The counters `status` shows: per target, in the order the targets first got a row.
    @Test func outboxCountersPerTarget() throws {
        let store = try StateStore(path: temporaryPath())
        let fences = try FenceSet.parse(Self.fencesText)
        let targets = ["mqtt://broker:1883/van", "http://127.0.0.1:1/hook"]
        let events = try run(
            EventEngine(fences: fences), store, [fix(0, east: 0), fix(1, east: 80), fix(2, east: 80)],
            endpoints: targets)
        #expect(events.count == 3)
        // The broker acknowledged the first event after one failed attempt; the webhook nothing yet.
        let first = try #require(try store.nextUndelivered(target: targets[0]))
        let before = currentUTCTime().millisecondsSinceEpoch
        try store.markFailed(first, error: "connection refused", retryAt: 0)
        let after = currentUTCTime().millisecondsSinceEpoch
        try store.markDelivered(first, at: 1)
        let counters = try store.outboxCounters()
        #expect(counters.map(\.target) == targets)
        // The error is kept with the wall-clock time it happened.
        let failedAt = try #require(counters[0].counters.lastErrorAt)
        #expect((before...after).contains(failedAt))
        #expect(
            counters[0].counters
                == OutboxCounters(
                    delivered: 1, pending: 2, failedAttempts: 1, lastError: "connection refused", lastErrorAt: failedAt)
        )
        #expect(counters[1].counters == OutboxCounters(delivered: 0, pending: 3, failedAttempts: 0, lastError: nil))
    }

    @Test func unwritableLocationNamesTheFile() {
        #expect(throws: StoreError.self) { try StateStore(path: "/proc/gpsfence/state.sqlite") }
    }
}
