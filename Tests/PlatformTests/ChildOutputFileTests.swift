import Foundation
import Platform
import Testing

/// A child's standard output into a file (`ChildProcess.Output.file`): made for this user only,
/// and never through a symbolic link, which could name a file the program did not make.
@Suite struct ChildOutputFileTests {
    /// Whether `echo 4711` ran to a clean exit with its output to `output`.
    func ranCleanly(_ output: String) -> Bool {
        var child = SupervisedRun(program: "/bin/echo", environment: [], output: .file(output), timeout: 10)
        child.arguments = ["4711"]
        guard case .exited(let status) = child.run() else { return false }
        return status.problem == nil
    }

    @Test func theAnswerLandsInAFileOfItsOwn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("child-output-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("id").path
        #expect(ranCleanly(path))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "4711\n")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func aSymbolicLinkAtThePathIsNotFollowed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("child-output-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let someoneElses = folder.appendingPathComponent("notes.txt").path
        try "keep me\n".write(toFile: someoneElses, atomically: true, encoding: .utf8)
        let link = folder.appendingPathComponent("id").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: someoneElses)
        #expect(!ranCleanly(link), "the child ran with its output through the link")
        #expect(try String(contentsOfFile: someoneElses, encoding: .utf8) == "keep me\n")
    }
}
