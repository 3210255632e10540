import Foundation
import Testing

/// `--state` given a file that is not a gpsfence state file: every command refuses it with exit
/// status 2 and leaves it exactly as it was (content, mode, no -wal or -shm beside it); the reading
/// commands never change even a real state file's mode.
@Suite struct StateFileSafetyTests {
    static let capture = "captures/gym/capture.nmea"
    static let fences = "captures/gym/fences.geojson"

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    /// The commands that take `--state`, each given `state`.
    static func commands(_ state: String) -> [[String]] {
        [
            ["status", "--state", state], ["status", "--state", state, "--json"], ["visits", "--state", state],
            ["report", "--state", state, "--fences", fences, "--output", "/dev/null"],
            ["replay", capture, "--fences", fences, "--state", state],
            ["run", "--device", "/dev/ttyNOSUCH9", "--fences", fences, "--state", state],
        ]
    }

    func expectRefusedUntouched(_ path: String, original: Data, words: String) throws {
        for command in Self.commands(path) {
            // In the background with a deadline: `run` on a device that is not there would retry.
            let result = try BackgroundGPSFence(command).finish(timeout: 20)
            #expect(result.status == 2, "\(command): \(result.stderr)")
            #expect(result.stderr.contains(path) && result.stderr.contains(words), "\(command): \(result.stderr)")
            #expect(Self.mode(path) == 0o644, "\(command) changed the mode")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original, "\(command) changed the file")
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
            #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
        }
    }

    @Test func aFenceFileGivenAsStateIsRefusedUntouched() throws {
        let path = temporaryDirectory().appendingPathComponent("fences.geojson").path
        let original = try Data(contentsOf: packageRoot.appendingPathComponent(Self.fences))
        try original.write(to: URL(fileURLWithPath: path))
        #expect(chmod(path, 0o644) == 0)
        try expectRefusedUntouched(path, original: original, words: "is not a gpsfence state file (it is JSON")
    }

    @Test func anotherProgramsDatabaseIsRefusedUntouched() throws {
        let path = temporaryDirectory().appendingPathComponent("photos.db").path
        let made = try runProgram(
            "/usr/bin/python3",
            [
                "-c",
                "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('create table photo(id)'); c.commit()",
                path,
            ])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(chmod(path, 0o644) == 0)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        try expectRefusedUntouched(path, original: original, words: "not a gpsfence state file")
    }

    /// `status`, `visits` and `report` only read: a state file the user made group-readable stays so.
    @Test func readingCommandsLeaveAStateFilesModeAlone() throws {
        let state = temporaryDirectory().appendingPathComponent("state.sqlite").path
        let replay = try runGPSFence(["replay", Self.capture, "--fences", Self.fences, "--state", state])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(chmod(state, 0o640) == 0)
        for command in [
            ["status", "--state", state, "--json"], ["visits", "--state", state, "--year", "2026", "--month", "2"],
            ["report", "--state", state, "--fences", Self.fences, "--output", "/dev/null"],
        ] {
            let result = try runGPSFence(command)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(Self.mode(state) == 0o640, "\(command) changed the mode")
        }
        let visits = try runGPSFence(["visits", "--state", state, "--year", "2026", "--month", "2", "--json"])
        #expect(visits.stdout.contains("gym"), "read-only still reads: \(visits.stdout)")
    }
}
