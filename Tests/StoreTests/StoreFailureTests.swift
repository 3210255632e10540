import Foundation
import GRDB
import NMEA
import Platform
import Testing

@testable import Delivery
@testable import Events
@testable import Fences
@testable import Store

/// The state file failing while in use (a table gone, a disk that refuses a write) is a
/// `StoreError` of the `use` stage, which `classify` makes a runtime failure, and delivery says so
/// instead of taking the failure for an empty queue.
@Suite struct StoreFailureTests {
    static let fences = try! FenceSet.parse(
        """
        {"type":"FeatureCollection","features":[{"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[8.5,47.3]},"properties":{"radius":20}}]}
        """)

    func store() throws -> StateStore {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gpsfence-failure-\(UUID().uuidString)")
        return try StateStore(path: folder.appendingPathComponent("state.sqlite").path)
    }

    @Test func aFailureInUseIsAStoreErrorOfTheUseStage() throws {
        let store = try store()
        try store.database.write { db in try db.execute(sql: "DROP TABLE event") }
        let event = OutgoingEvent(
            GeofenceEvent(.heartbeat(inside: []), time: UTCTime(millisecondsSinceEpoch: 1_770_113_700_000)),
            fences: Self.fences)
        let error = #expect(throws: StoreError.self) {
            try store.commit(events: [event], insideStates: [], fences: Self.fences)
        }
        #expect(error?.stage == .use)
        #expect(error?.description.contains(store.path) == true)
    }

    /// SQLite's primary code alone ("disk I/O error") does not say which failure it was; the
    /// extended code does, and is said beside it.
    @Test func aDatabaseProblemSaysSQLitesExtendedCode() throws {
        let store = try store()
        let refused = #expect(throws: StoreError.self) {
            try store.database.write { db in
                try db.execute(sql: "CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT UNIQUE)")
                try db.execute(sql: "INSERT INTO t (v) VALUES ('a'), ('a')")
            }
        }
        guard case .database(let error as DatabaseError)? = refused?.problem else {
            Issue.record("not an SQLite error: \(String(describing: refused))")
            return
        }
        #expect(error.resultCode == .SQLITE_CONSTRAINT)
        let text = StoreProblem.database(error).text
        #expect(refused?.description == "state file '\(store.path)': \(text)")
        #expect(text.hasPrefix("SQLite error 19: UNIQUE constraint failed"), "\(text)")
        // SQLITE_CONSTRAINT_UNIQUE
        #expect(text.hasSuffix("(SQLite's extended result code 2067)"), "\(text)")
        // one whose extended code is its primary code says nothing more
        let plain = DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: x")
        #expect(StoreProblem.database(plain).text == "\(plain)")
    }

    @Test func deliverySaysOnceThatItCannotReadTheOutbox() throws {
        let store = try store()
        try store.database.write { db in try db.execute(sql: "DROP TABLE outbox") }
        let reports = Locked<[String]>([])
        let delivery = OutboxDelivery(
            transport: try WebhookTransport(endpoint: "http://127.0.0.1:9/"), outbox: store,
            report: { problem in reports.withLock { $0.append(problem.text) } })
        delivery.start()
        // The loop retries about once a second: three tries, one report (nothing more said in the
        // time of three tries, not a wait for a state).
        Thread.sleep(forTimeInterval: 2.5)
        delivery.finish()
        let said = reports.withLock { $0 }
        #expect(said.count == 1, "\(said)")
        #expect(said.first?.contains("cannot read the outbox") == true)
    }
}
