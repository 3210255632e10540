import Foundation
import Platform
import Testing

/// The file calls every module reaches through Platform: the one atomic replace, the readers and
/// the one sniffer, on real files in a folder of their own.
@Suite struct FileFloorTests {
    let folder: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("floor-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder).sorted() }

    @Test func aReplacedFileHasTheNewBytesTheOldModeAndNoTemporaryLeft() throws {
        let target = folder + "/fences.geojson"
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: target)
        let old = try FileStatus.of(target)
        try replaceFile(
            target, temporary: target + ".1.new", mode: ReplaceMode(creation: 0o600, copying: old),
            with: Array("new text".utf8))
        #expect(try readWholeFile(target) == Array("new text".utf8))
        #expect(try FileStatus.of(target).permissions == 0o640)
        #expect(try FileStatus.of(target).inode != old.inode)
        #expect(try names() == ["fences.geojson"])
    }

    @Test func aFillThatFailsLeavesTheOldFileWholeAndNoTemporary() throws {
        struct SourceBroke: Error {}
        let target = folder + "/out.geojson"
        try Data("whole".utf8).write(to: URL(fileURLWithPath: target))
        #expect(throws: SourceBroke.self) {
            try replaceFile(target, temporary: target + ".1.partial", mode: ReplaceMode(creation: 0o644)) { _ in
                throw SourceBroke()
            }
        }
        #expect(try readWholeFile(target) == Array("whole".utf8))
        #expect(try names() == ["out.geojson"])
    }

    @Test func aLeftoverTemporaryIsRefusedWhenExclusiveAndReplacedOtherwise() throws {
        let target = folder + "/baud-rates"
        let temporary = target + ".7.tmp"
        try Data("stale".utf8).write(to: URL(fileURLWithPath: temporary))
        #expect(throws: ReplaceError.self) {
            try replaceFile(target, temporary: temporary, mode: ReplaceMode(creation: 0o600), with: [0x41])
        }
        try replaceFile(
            target, temporary: temporary, mode: ReplaceMode(creation: 0o600, exclusive: false), with: [0x42])
        #expect(try readWholeFile(target) == [0x42])
        #expect(try names() == ["baud-rates"])
    }

    @Test func aRenameIntoAMissingFolderSaysRenameAndRemovesTheTemporary() throws {
        let temporary = folder + "/x.new"
        do {
            try replaceFile(folder + "/gone/x", temporary: temporary, mode: ReplaceMode(creation: 0o600), with: [1])
            Issue.record("a rename into a missing folder succeeded")
        } catch {
            #expect(error.step == .rename)
            #expect(error.errno == .noSuchFileOrDirectory)
        }
        #expect(try names() == [])
    }

    @Test func aSymlinkIsReplacedByALinkToTheNewTarget() throws {
        let link = folder + "/gps"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/pts/1")
        try replaceSymlink(link, temporary: link + ".3.new", pointingTo: "/dev/pts/9")
        #expect(symlinkTarget(link) == "/dev/pts/9")
        #expect(try FileStatus.ofLink(link).kind == .symlink)
        #expect(try names() == ["gps"])
    }

    @Test func aWholeFileReadStopsAtItsLimitAndAMissingOneSaysOpen() throws {
        let path = folder + "/big"
        try Data(repeating: 0x61, count: 300_000).write(to: URL(fileURLWithPath: path))
        #expect(try readWholeFile(path).count == 300_000)
        #expect(try readWholeFile(path, limit: 1000).count < 300_000)
        do {
            _ = try readWholeFile(folder + "/missing")
            Issue.record("a missing file was read")
        } catch {
            #expect(error.call == "open")
            #expect(error.reason == "No such file or directory")
        }
    }

    @Test func aMappedFileHoldsTheBytesAndAFolderIsSaidToBeOne() throws {
        let path = folder + "/fences"
        try Data("{\"type\":1}".utf8).write(to: URL(fileURLWithPath: path))
        let file = try MappedFile(path: path)
        #expect(file.mapped)
        #expect(Array(file.buffer) == Array("{\"type\":1}".utf8))
        #expect(throws: MappedFile.Failure.isDirectory) { _ = try MappedFile(path: folder) }
        let empty = folder + "/empty"
        try Data().write(to: URL(fileURLWithPath: empty))
        #expect(try MappedFile(path: empty).mapped == false)
    }

    @Test func theHeadOfAFileAndWhatItIs() throws {
        let path = folder + "/capture"
        try Data("$GPRMC,1*00\r\n".utf8).write(to: URL(fileURLWithPath: path))
        let head = try FileHead.read(path, count: 4)
        #expect(head.bytes == Array("$GPR".utf8))
        #expect(head.status.kind == .regular)
        #expect(FileKind.sniff(path: path) == .nmea)
        #expect(FileKind.sniff(path: folder + "/missing") == nil)
    }

    @Test func theSnifferTellsTheImportFormatsApart() {
        #expect(FileKind.sniff(Array("<?xml version='1.0'?>\n<osm version=\"0.6\">".utf8)) == .osmXML)
        #expect(FileKind.sniff(Array("<?xml version='1.0'?>\n<gpx>".utf8)) == .gpx)
        #expect(FileKind.sniff(Array("<kml xmlns=\"http://www.opengis.net/kml/2.2\">".utf8)) == .kml)
        #expect(FileKind.sniff([0, 0, 0, 0x0D, 0x0A, 0x09] + Array("OSMHeader".utf8)) == .osmPBF)
        #expect(FileKind.sniff([0x50, 0x4B, 0x03, 0x04, 0x14]) == .zip)
        #expect(FileKind.sniff(Array("SQLite format 3\u{0}".utf8)) == .sqlite)
        #expect(FileKind.sniff(Array(" \n".utf8)) == .empty)
    }

    @Test func aHeldLockFileGivesItsHoldersNote() throws {
        let path = folder + "/state.lock"
        let first = try LockFile(claiming: path)
        first.write(note: Array("4242\n".utf8))
        // flock locks belong to the open file description: a second open in this process conflicts.
        do {
            _ = try LockFile(claiming: path)
            Issue.record("a held lock was taken twice")
        } catch {
            guard case .held(let note) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(note == Array("4242\n".utf8))
        }
        withExtendedLifetime(first) {}
    }
}
