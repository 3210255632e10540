import Foundation
import Platform
import Testing

/// The one reader of password and token files: private regular files only, the first line.
@Suite struct SecretFileTests {
    let folder: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    func write(_ text: String, mode: Int) throws -> String {
        let path = folder + "/secret-\(String(mode, radix: 8))"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    @Test(arguments: [0o600, 0o400])
    func privateFilesAreReadToTheEndOfTheFirstLine(_ mode: Int) throws {
        let path = try write("s3cret pass\r\nsecond line\n", mode: mode)
        #expect(try SecretFile.firstLine(of: path).get() == "s3cret pass")
    }

    @Test func aFileWithoutALineBreakIsOneLine() throws {
        let path = try write("token", mode: 0o600)
        #expect(try SecretFile.firstLine(of: path).get() == "token")
    }

    @Test(arguments: [0o640, 0o644, 0o604])
    func filesOthersMayReadAreRefusedWithTheFix(_ mode: Int) throws {
        let path = try write("s3cret\n", mode: mode)
        let result = SecretFile.firstLine(of: path)
        guard case .failure(let error) = result else {
            Issue.record("mode \(String(mode, radix: 8)) was accepted")
            return
        }
        #expect(error.reason == .readableByOthers(mode: UInt32(0o100000 | mode)))
        let octal = "0" + String(mode, radix: 8)
        #expect(
            error.description
                == "'\(path)' is readable by other users (mode \(octal)); a secret file must be private: chmod 600 \(path)"
        )
    }

    @Test func aDirectoryIsRefused() {
        guard case .failure(let error) = SecretFile.firstLine(of: folder) else {
            Issue.record("a directory was accepted")
            return
        }
        #expect(error.reason == .notRegular("a directory"))
        #expect(error.description == "'\(folder)' is a directory, not a regular file")
    }

    @Test func aMissingFileIsNamed() {
        let path = folder + "/absent"
        guard case .failure(let error) = SecretFile.firstLine(of: path) else {
            Issue.record("a missing file was accepted")
            return
        }
        guard case .failed(operation: "open", _) = error.reason else {
            Issue.record("\(error.reason)")
            return
        }
        #expect(error.description == "open '\(path)' failed: No such file or directory")
    }
}
