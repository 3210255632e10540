import Foundation
import GRDB
import Testing

@testable import Events
@testable import Fences
@testable import Store

/// An exit `delay`'s count on its fence's row (docs/fences.md, "delay"): written with the fence
/// states, read back by the next run, cleared when it breaks off; a damaged value is no count.
@Suite struct ExitDelayStoreTests {
    func path() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("gpsfence-exit-delay-\(UUID().uuidString)")
            .appendingPathComponent("state.sqlite").path
    }

    func record(_ since: Int64?) -> FenceStateRecord {
        FenceStateRecord(
            fenceID: .string("mooring"), geometryHash: 42, inside: true, enterTime: 1_770_113_700_000,
            dwellFired: false, exitDelaySince: since)
    }

    @Test func theCountIsWrittenReadBackAndCleared() throws {
        let path = path()
        let fences = try FenceSet.parse(StateStoreTests.fencesText)
        // A commit without events: what a fix that began the count writes.
        try StateStore(path: path).commit(events: [], insideStates: [record(1_770_113_720_000)], fences: fences)
        // Opened again, as by the next run.
        let next = try StateStore(path: path)
        #expect(try next.fenceStates() == [record(1_770_113_720_000)])
        try next.commit(events: [], insideStates: [record(nil)], fences: fences)
        #expect(try StateStore(path: path).fenceStates() == [record(nil)])
    }

    @Test func aDamagedCountIsNoCount() throws {
        let store = try StateStore(path: path())
        try store.database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO fence_state (fence_id, geometry_hash, inside, enter_time, dwell_fired, exit_delay_since)
                    VALUES ('"text"', 42, 1, 1770113700000, 0, 'soon'), ('"huge"', 42, 1, 1770113700000, 0, ?)
                    """, arguments: [Int64.min])
        }
        let states = try store.fenceStates()
        #expect(states.count == 2, "the fences stay inside: \(states)")
        #expect(states.allSatisfy { $0.exitDelaySince == nil }, "\(states)")
    }
}
