import Foundation
import GRDB
import NMEA
import Testing

@testable import Events
@testable import Fences
@testable import Store

/// The state file is input too. Values of the wrong type, NULLs and times near 2^63 read
/// back as "no state" (that fence starts fresh) or clamped, never as a crash: GRDB's `row["x"]`
/// stops the process on a failed conversion, and `now - enterTime` overflows for such a time.
@Suite struct DamagedStateTests {
    func store() throws -> StateStore {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gpsfence-damaged-\(UUID().uuidString)")
        return try StateStore(path: folder.appendingPathComponent("state.sqlite").path)
    }

    @Test func damagedFenceStatesAreLeftOut() throws {
        let store = try store()
        try store.database.write { db in
            let rows: [(String, DatabaseValue, DatabaseValue, DatabaseValue)] = [
                ("\"good\"", 7.databaseValue, 1_770_000_000_000.databaseValue, 0.databaseValue),
                ("\"huge\"", 7.databaseValue, Int64.min.databaseValue, 0.databaseValue),
                ("\"real\"", 7.databaseValue, 1e300.databaseValue, 0.databaseValue),
                ("\"text\"", "seven".databaseValue, "soon".databaseValue, 0.databaseValue),
                ("\"blob\"", 7.databaseValue, 1_770_000_000_000.databaseValue, Data([1, 2]).databaseValue),
            ]
            for (id, hash, time, fired) in rows {
                try db.execute(
                    sql:
                        "INSERT INTO fence_state (fence_id, geometry_hash, inside, enter_time, dwell_fired) VALUES (?, ?, 1, ?, ?)",
                    arguments: [id, hash, time, fired])
            }
        }
        let states = try store.fenceStates()
        #expect(states.map(\.fenceID) == [.string("good")])
        #expect(states.first?.enterTime == 1_770_000_000_000)
    }

    @Test func engineRestoreSkipsTimesThatWouldOverflow() throws {
        let fences = try FenceSet.parse(
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[7,45]},"properties":{"radius":100,"dwell":1}}]}"#
        )
        let engine = EventEngine(fences: fences)
        engine.restore([
            FenceStateRecord(
                fenceID: .string("a"), geometryHash: fences.geometryHash(0), inside: true,
                enterTime: Int64.min, dwellFired: false)
        ])
        var kinds: [String] = []
        for second in Int64(0)..<3 {
            let fix = Fix(
                time: UTCTime(millisecondsSinceEpoch: 1_770_000_000_000 + second * 1000),
                timeOfDay: TimeOfDay(milliseconds: 0),
                latitude: 45, longitude: 7, mode: .threeD, accuracy: 5)
            engine.process(fix) { kinds.append($0.kind.rawValue) }
        }
        // The damaged state is ignored: a fresh enter, then a dwell a second later.
        #expect(kinds == ["registered", "enter", "dwell"])
    }

    @Test func damagedOutboxRowsAreClamped() throws {
        let store = try store()
        try store.database.write { db in
            try db.execute(
                sql:
                    "INSERT INTO outbox (endpoint, event_id, body, attempts, next_attempt) VALUES ('http://x', 'e1', '{}', ?, ?)",
                arguments: [Int64.max, Int64.max])
        }
        let item = try #require(try store.nextUndelivered(target: "http://x"))
        #expect(item.attempts == 1_000_000)
        #expect(item.nextAttempt == 0)  // a time that cannot be read: try again now
        #expect(item.attempts + 1 > item.attempts)  // the delivery loop's arithmetic does not trap
    }

    @Test func damagedVisitsAreLeftOutOrClamped() throws {
        let store = try store()
        let february = Int64(CivilDate(year: 2026, month: 2, day: 3).daysSinceEpoch) * 86_400_000
        try store.database.write { db in
            for (id, enter, duration) in [
                ("\"a\"", february.databaseValue, 1e300.databaseValue),
                ("\"b\"", "soon".databaseValue, 10.databaseValue),
                ("\"c\"", february.databaseValue, (-5).databaseValue),
            ] {
                try db.execute(
                    sql:
                        "INSERT INTO visit (event_id, fence_id, fence_name, enter_time, exit_time, duration) VALUES (?, ?, NULL, ?, 0, ?)",
                    arguments: [id + "-visit", id, enter, duration])
            }
        }
        let report = try store.visitReport(year: 2026, month: 2)
        #expect(report.fences.map(\.fenceID) == [.string("a"), .string("c")])
        #expect(report.fences.first?.totalSeconds == 1e9)
        #expect(report.fences.last?.totalSeconds == 0)
    }
}
