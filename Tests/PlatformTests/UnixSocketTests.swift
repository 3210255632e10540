import Foundation
import Platform
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The owner-only Unix socket of the local channel: a real socket in a temporary folder.
@Suite struct UnixSocketTests {
    static func folder() -> String {
        let path = NSTemporaryDirectory() + "gpsfence-unix-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Accepts one connection (polling, as the channel's thread does) and sends `text`.
    static func answerOnce(_ listener: UnixSocketListener, _ text: String) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if let connection = try? listener.acceptOwnUser() {
                return (try? connection.sendNow(Array(text.utf8))) == text.utf8.count
            }
            usleep(10_000)
        }
        return false
    }

    @Test func itsOwnerReadsWhatItSaysAndNobodyElseCan() throws {
        let path = Self.folder() + "/state.sqlite.sock"
        let listener = try UnixSocketListener.listen(at: path)
        var info = stat()
        #expect(lstat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600, "mode \(String(info.st_mode & 0o777, radix: 8))")
        let answered = Locked(false)
        let thread = Thread { answered.withLock { $0 = Self.answerOnce(listener, "{\"a\":1}\n") } }
        thread.start()
        let read = UnixSocketClient.readAll(from: path, timeout: 5)
        #expect(read == .success(Array("{\"a\":1}\n".utf8)), "\(read)")
        usleep(100_000)
        #expect(answered.withLock { $0 })

        // A socket of another user's is not asked at all.
        #expect(chown(path, 65534, 65534) == 0)
        #expect(UnixSocketClient.readAll(from: path, timeout: 1) == .failure(.notOwnSocket))
        _ = chown(path, geteuid(), getegid())
        listener.close()
        #expect(lstat(path, &info) == -1, "closing removes the socket file")
        #expect(UnixSocketClient.readAll(from: path, timeout: 1) == .failure(.nobodyListens))
    }

    @Test func aSocketLeftBehindIsRefusedAndTakenOverButNothingElseIs() throws {
        let folder = Self.folder()
        let path = folder + "/state.sqlite.sock"
        let first = try UnixSocketListener.listen(at: path)
        // A run that was killed: its socket file stays, nobody listens.
        try first.descriptor.close()
        #expect(UnixSocketClient.readAll(from: path, timeout: 1) == .failure(.nobodyListens))
        let second = try UnixSocketListener.listen(at: path)
        defer { second.close() }
        // A regular file at the path is not a socket to take over.
        let file = folder + "/plain.sock"
        try #require(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        #expect(throws: SocketError.self) { try UnixSocketListener.listen(at: file) }
        #expect(UnixSocketClient.readAll(from: file, timeout: 1) == .failure(.notOwnSocket))
        #expect(FileManager.default.contents(atPath: file) == Data("x".utf8))
    }

    @Test func aPathTooLongForASocketIsSaid() {
        let path = "/tmp/" + String(repeating: "d", count: 120) + ".sock"
        #expect(throws: SocketError.self) { try UnixSocketListener.listen(at: path) }
    }
}
