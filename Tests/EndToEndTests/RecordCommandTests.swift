import Foundation
import Testing

/// `record`'s output rules and what it says while it looks for the rate, and
/// `--device` typos.
@Suite(.serialized) struct RecordCommandTests {
    /// Runs `body` with the pseudo-terminal of a looping 115200-baud simulator, stopped afterwards.
    func withSimulator(_ directory: URL, _ body: (String) throws -> Void) throws {
        let route = directory.appendingPathComponent("track.gpx")
        try gpxTrack(points: 30).text.write(to: route, atomically: true, encoding: .utf8)
        let simulator = try BackgroundGPSFence(["simulate", route.path, "--baud", "115200", "--rate", "5", "--loop"])
        defer {
            simulator.signal(SIGTERM)
            _ = simulator.finish()
        }
        try body(simulator.readFirstLine())
    }

    @Test func anExistingCaptureIsNeitherReplacedNorEmptiedWithoutForce() throws {
        let directory = temporaryDirectory()
        let capture = directory.appendingPathComponent("drive.nmea")
        try "an earlier drive\n".write(to: capture, atomically: true, encoding: .utf8)
        // The device does not exist either: the refusal comes first, and the file is untouched.
        let result = try runGPSFence(
            ["record", "--device", "/dev/ttyNOSUCH9", "--output", capture.path], environment: [:])
        #expect(result.status == 2)
        #expect(result.stderr.contains("'\(capture.path)' already exists"), "\(result.stderr)")
        #expect(result.stderr.contains("--force") && result.stderr.contains("--append"))
        #expect(try String(contentsOf: capture, encoding: .utf8) == "an earlier drive\n")
    }

    @Test func appendAddsARecordingAndForceReplacesTheFile() throws {
        let directory = temporaryDirectory()
        try withSimulator(directory) { pty in
            let capture = directory.appendingPathComponent("drive.nmea")
            try "an earlier drive\n".write(to: capture, atomically: true, encoding: .utf8)
            let base = ["record", "--device", pty, "--baud", "115200", "--output", capture.path, "--duration", "0.5"]

            let appended = try runGPSFence(base + ["--append"], environment: [:])
            #expect(appended.status == 0, "\(appended.stderr)")
            let afterAppend = try String(contentsOf: capture, encoding: .utf8)
            #expect(afterAppend.hasPrefix("an earlier drive\n# gpsfence record\n# device: \(pty)\n"))
            #expect(afterAppend.contains("$GP") || afterAppend.contains("$GN"))

            let forced = try runGPSFence(base + ["--force"], environment: [:])
            #expect(forced.status == 0, "\(forced.stderr)")
            let afterForce = try String(contentsOf: capture, encoding: .utf8)
            #expect(afterForce.hasPrefix("# gpsfence record\n# device: \(pty)\n"))
            #expect(!afterForce.contains("an earlier drive"))

            let both = try runGPSFence(base + ["--append", "--force"], environment: [:])
            #expect(both.status == 2)
        }
    }

    @Test func outputDashWritesTheCaptureToStandardOutput() throws {
        let directory = temporaryDirectory()
        try withSimulator(directory) { pty in
            let stray = packageRoot.appendingPathComponent("-")
            let existedBefore = FileManager.default.fileExists(atPath: stray.path)
            let result = try runGPSFence(
                ["record", "--device", pty, "--baud", "115200", "--output", "-", "--duration", "1"], environment: [:])
            let madeAFileNamedDash = !existedBefore && FileManager.default.fileExists(atPath: stray.path)
            if madeAFileNamedDash { try? FileManager.default.removeItem(at: stray) }
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!madeAFileNamedDash)
            #expect(result.stdout.hasPrefix("# gpsfence record\n# device: \(pty)\n# baud: 115200 (pinned)\n# start: "))
            #expect(result.stderr.contains("to standard output"))
            let decode = try runGPSFence(["decode", "-"], stdin: Data(result.stdout.utf8))
            #expect(decodedFixes(decode.stdout).count >= 2, "\(decode.stderr)")
        }
    }

    /// Autobaud may listen at several rates: record says which, and a record killed meanwhile
    /// leaves a file that says what it was recording (the hunt may have ended before the kill
    /// lands: the port starts at the simulator's own speed).
    @Test func autobaudSaysEachRateAndAKilledRecordLeavesTheHeader() throws {
        let directory = temporaryDirectory()
        try withSimulator(directory) { pty in
            let capture = directory.appendingPathComponent("drive.nmea")
            let recorder = try BackgroundGPSFence([
                "record", "--device", pty, "--output", capture.path, "--autobaud-window", "5",
            ])
            let said = firstLineOf(recorder.errors)
            #expect(said.contains("\(pty): listening at ") && said.contains(" baud (up to 5 s)"), "\(said)")
            recorder.signal(SIGKILL)
            _ = recorder.finish()
            let text = try String(contentsOf: capture, encoding: .utf8)
            #expect(text.hasPrefix("# gpsfence record\n# device: \(pty)\n"), "\(text)")
        }
    }

    @Test func aMistypedGpsdAddressIsBadUsageNotAMissingReceiver() throws {
        let directory = temporaryDirectory()
        let capture = directory.appendingPathComponent("x.nmea")
        for (command, typo) in [
            ("record", "gpsd:/"), ("record", "gpsd:localhost"), ("doctor", "gpsd:/"), ("run", "tcp://host:2947"),
        ] {
            var arguments = [command, "--device", typo]
            if command == "record" { arguments += ["--output", capture.path] }
            if command == "run" { arguments += ["--fences", "captures/bridge/fences.geojson"] }
            // Before, `run` took the typo for a path and retried it for ever: bounded here.
            let result = try BackgroundGPSFence(arguments).finish(timeout: 20)
            #expect(result.status == 2, "\(command) \(typo): \(result.stderr)")
            #expect(result.stderr.contains("--device '\(typo)'"), "\(result.stderr)")
            #expect(result.stderr.contains("gpsd://"), "\(result.stderr)")
            #expect(!result.stderr.contains("plugged in"), "\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: capture.path))
    }
}
