import Foundation
import Platform
import Testing

@testable import FenceImport

/// An import whose output cannot be written fails with the path and the failed call's errno,
/// said in its one rendering.
@Suite struct WriteFailureTests {
    @Test func aFullDiskIsNamedWithThePathAndTheCallsError() throws {
        let folder = try makeTemporaryFolder(prefix: FileManager.default.temporaryDirectory.path + "/gpsfence-write-")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let source = folder + "/drawn.kml"
        try "<kml><Placemark><Point><coordinates>8.0,47.0</coordinates></Point></Placemark></kml>\n".write(
            toFile: source, atomically: true, encoding: .utf8)
        // /dev/full opens, and every write to it fails for want of space.
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        defer { try? full.close() }
        let importer = FenceImporter(
            settings: ImportSettings(propertyForms: FencePropertyForms(numberKeys: [], measures: [:], choices: [:])))
        do {
            _ = try importer.run(sources: [source], descriptor: full.fileDescriptor, outputName: "/dev/full")
            Issue.record("an import into /dev/full succeeded")
        } catch let failure as WriteFailure {
            #expect(failure.path == "/dev/full")
            #expect(failure.cause.call == "write")
            #expect(failure.cause.errno.rawValue == ENOSPC)
            #expect(failure.description.hasPrefix("cannot write /dev/full: "), "\(failure)")
        }
    }
}
