import Foundation
import Platform
import Testing

/// `DirectoryWatch` on a real folder: the name of a file renamed in, written in place and deleted
/// shows up, a write shows up when its writer closes the file (not at each write), a wake signal
/// ends a wait that has no timeout, and a missing folder is an error value naming the call.
@Suite struct DirectoryWatchTests {
    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gpsfence-watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func names(_ watch: DirectoryWatch) throws -> Set<String> {
        Set(try watch.wait(timeout: 2).map(\.name))
    }

    @Test func renameWriteAndDeleteAreSeenByName() throws {
        let url = try folder()
        let watch = try DirectoryWatch(folder: url.path)
        let target = url.appendingPathComponent("fences.geojson")
        let temporary = url.appendingPathComponent(".fences.tmp")
        try "{}".write(to: temporary, atomically: false, encoding: .utf8)
        #expect(rename(temporary.path, target.path) == 0)
        #expect(try names(watch).contains("fences.geojson"), "an editor's rename-replace")
        let handle = try FileHandle(forWritingTo: target)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data("[]".utf8))
        try handle.close()
        #expect(try names(watch).contains("fences.geojson"), "a truncate-and-write")
        try FileManager.default.removeItem(at: target)
        #expect(try names(watch).contains("fences.geojson"), "a delete")
        #expect(try watch.wait(timeout: 0.1).isEmpty, "nothing more")
    }

    @Test func aWriteIsSeenWhenItsWriterClosesTheFile() throws {
        let url = try folder()
        let log = url.appendingPathComponent("state.sqlite-wal")
        #expect(FileManager.default.createFile(atPath: log.path, contents: nil))
        let watch = try DirectoryWatch(folder: url.path)
        let handle = try FileHandle(forWritingTo: log)
        for _ in 0..<3 { try handle.write(contentsOf: Data(repeating: 1, count: 4096)) }
        #expect(try watch.wait(timeout: 0.3).isEmpty, "a file kept open and written to says nothing")
        try handle.close()
        #expect(try names(watch) == ["state.sqlite-wal"], "its writer closed it")
    }

    @Test func aWakeSignalEndsAWaitThatHasNoTimeout() throws {
        let url = try folder()
        let watch = try DirectoryWatch(folder: url.path)
        let wake = try WakeSignal()
        wake.signal()
        wake.signal()
        #expect(try DirectoryWatch.wait([watch], wakingOn: wake, timeout: nil).woken)
        #expect(try !DirectoryWatch.wait([watch], wakingOn: wake, timeout: 0.1).woken, "both signals were taken")
        let start = Date()
        Thread {
            Thread.sleep(forTimeInterval: 0.2)  // the wait must last this long: the time is the case
            wake.signal()
        }.start()
        let woken = try DirectoryWatch.wait([watch], wakingOn: wake, timeout: nil)
        #expect(woken.woken && woken.changes == [[]], "woken from another thread, with no change")
        #expect(Date().timeIntervalSince(start) >= 0.15)
        try "{}".write(to: url.appendingPathComponent("fences.geojson"), atomically: false, encoding: .utf8)
        let changed = try DirectoryWatch.wait([watch], wakingOn: wake, timeout: nil)
        #expect(!changed.woken && changed.changes[0].contains { $0.name == "fences.geojson" })
    }

    @Test func aMissingFolderIsAnErrorNamingTheCall() {
        #expect(throws: SerialError.self) { try DirectoryWatch(folder: "/nonexistent/gpsfence-folder") }
        do {
            _ = try DirectoryWatch(folder: "/nonexistent/gpsfence-folder")
        } catch {
            #expect(error.operation == "inotify_add_watch" && error.path == "/nonexistent/gpsfence-folder")
        }
    }
}
