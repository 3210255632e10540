import Foundation
import Serial
import Testing

/// `DirectoryWatch` on a real folder: the name of a file renamed in, written in place and deleted
/// shows up, and a missing folder is an error value naming the call.
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

    @Test func aMissingFolderIsAnErrorNamingTheCall() {
        #expect(throws: SerialError.self) { try DirectoryWatch(folder: "/nonexistent/gpsfence-folder") }
        do {
            _ = try DirectoryWatch(folder: "/nonexistent/gpsfence-folder")
        } catch {
            #expect(error.operation == "inotify_add_watch" && error.path == "/nonexistent/gpsfence-folder")
        }
    }
}
