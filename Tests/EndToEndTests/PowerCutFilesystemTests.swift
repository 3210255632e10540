import Foundation
import Testing

/// The power-cut filesystem itself (`PowerCutFilesystem`), proven with SQLite before any gpsfence
/// test relies on it: a commit that SQLite never synced is lost at a cut, one it synced stays.
@Suite(.serialized, .enabled(if: PowerCutFilesystem.unavailable == nil, "needs /dev/fuse (FUSE)"))
struct PowerCutFilesystemTests {
    /// Commits one row in a child process with `synchronous` as given, then kills that process
    /// with SIGKILL (no close, so SQLite gets no chance to checkpoint), then cuts the power.
    func rowsAfterCut(synchronous: String) throws -> (beforeCut: String, afterCut: String) {
        let filesystem = try PowerCutFilesystem()
        let database = filesystem.mountPoint.appendingPathComponent("t.sqlite").path
        // The table is made durable first (a clean close checkpoints and syncs).
        #expect(sqlite(database, "PRAGMA journal_mode=WAL; CREATE TABLE t(x);") == "wal")
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        writer.arguments = [
            "python3", "-c",
            """
            import sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute('PRAGMA synchronous=' + sys.argv[2])
            c.execute('INSERT INTO t VALUES (42)')
            print('committed', flush=True)
            time.sleep(60)
            """,
            database, synchronous,
        ]
        let output = Pipe()
        writer.standardOutput = output
        try writer.run()
        #expect(firstLineOf(output) == "committed")
        let before = sqlite(database, "SELECT count(*) FROM t")
        kill(writer.processIdentifier, SIGKILL)
        writer.waitUntilExit()
        try filesystem.cut()
        let after = sqlite(database, "PRAGMA integrity_check; SELECT count(*) FROM t")
        return (before, after)
    }

    @Test func anUnsyncedCommitIsLostAtACut() throws {
        let rows = try rowsAfterCut(synchronous: "OFF")
        #expect(rows.beforeCut == "1", "the commit is visible before the cut")
        #expect(rows.afterCut == "ok\n0", "the commit was never synced: the cut loses it")
    }

    @Test func aSyncedCommitSurvivesACut() throws {
        let rows = try rowsAfterCut(synchronous: "FULL")
        #expect(rows.beforeCut == "1")
        #expect(rows.afterCut == "ok\n1", "synchronous=FULL synced the WAL at commit")
    }
}

/// Runs statements with the sqlite3 shell; its output, trimmed.
func sqlite(_ database: String, _ statements: String) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["sqlite3", database, statements]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    guard (try? process.run()) != nil else { return "sqlite3 did not start" }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}
