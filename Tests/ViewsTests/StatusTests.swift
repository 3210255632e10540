import Foundation
import Testing

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
