import Foundation
import Testing

@testable import Store
@testable import Views

@Suite struct StatusTests {
    /// `status` only reads: a state file that is not there is its own error (bad input, exit status
    /// 2 through the runtime's classify), naming the path, and no file is created.
    @Test func aMissingStateFileIsSaidAndNotCreated() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gpsfence-none-\(UUID()).db").path
        let error = try #require(throws: StateFileMissing.self) { try StatusReport.read(statePath: path, now: 0) }
        #expect(error.path == path && error.message.contains(path))
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}

/// A run that writes its state file less often than every 30 s (`--track-write-interval`) is still
/// running between its writes.
@Suite struct StatusAliveTests {
    func state(writeInterval: Double, lastWrite agoMilliseconds: Int64) throws -> (path: String, now: Int64) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gpsfence-alive-\(UUID()).sqlite").path
        let store = try StateStore(path: path)
        try store.noteMonitoringStarted(fencesPath: "", writeInterval: writeInterval)
        let now = try #require(try store.receiver().updatedAt)
        try store.database.write { db in
            try db.execute(sql: "UPDATE receiver SET updated_at = ? WHERE id = 1", arguments: [now - agoMilliseconds])
        }
        return (path, now)
    }

    @Test func aRunIsAliveWithinOneAndAHalfOfItsWriteIntervals() throws {
        let slow = try state(writeInterval: 60, lastWrite: 50_000)
        #expect(try StatusReport.read(statePath: slow.path, now: slow.now).running, "60 s interval, 50 s ago")
        let dead = try state(writeInterval: 60, lastWrite: 95_000)
        #expect(try !StatusReport.read(statePath: dead.path, now: dead.now).running, "60 s interval, 95 s ago")
        let usual = try state(writeInterval: 30, lastWrite: 50_000)
        #expect(try !StatusReport.read(statePath: usual.path, now: usual.now).running, "30 s interval, 50 s ago")
    }
}
