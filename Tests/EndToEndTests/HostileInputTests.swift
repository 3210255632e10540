import Foundation
import Testing
import Waiting

/// Hostile input through the real binary: numbers too big for the program, corrupted sentences, C1
/// controls, permissions under umask 000, and stopping with hung hooks. Before the fixes, the
/// number cases died with SIGILL (exit 132).
@Suite(.serialized) struct HostileInputTests {
    func folder() -> URL { temporaryDirectory() }

    func write(_ text: String, _ name: String, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func circle(id: String = "a", lon: Double = 7, lat: Double = 45, radius: String = "100", extra: String = "")
        -> String
    {
        #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"\#(id)","geometry":{"type":"Point","coordinates":[\#(lon),\#(lat)]},"properties":{"radius":\#(radius)\#(extra)}}]}"#
    }

    // MARK: Item 1: numbers

    @Test(arguments: ["1e19", "1e300"]) func checkRefusesAHugeRadius(radius: String) throws {
        let file = try write(circle(radius: radius), "r.geojson", in: folder())
        let result = try runGPSFence(["check", "--fences", file, "45", "7"])
        #expect(result.status == 2)
        let shown = Double(radius)!.description
        #expect(
            result.stderr
                == "gpsfence: \(file): feature 0 (id \"a\"): radius \(shown) must be at most 20015115 metres (half the Earth's circumference)\n"
        )
        #expect(result.stdout.isEmpty)
    }

    @Test func checkStillTakesTheWholeEarth() throws {
        let file = try write(circle(radius: "20015115"), "r.geojson", in: folder())
        let result = try runGPSFence(["check", "--fences", file, "-45", "-173"])  // the antipode
        #expect(result.status == 0)
        #expect(result.stdout.contains("is inside 1 fence"))
    }

    static let bridge = ["replay", "captures/bridge/capture.nmea", "--fences", "captures/bridge/fences.geojson"]

    @Test(arguments: [
        (["--dwell", "1e300"], "--dwell must be 0 to 1000000000 seconds, not 1e+300"),
        (["--dwell", "inf"], "--dwell must be 0 to 1000000000 seconds, not inf"),
        (["--dwell", "nan"], "--dwell must be 0 to 1000000000 seconds, not nan"),
        (["--heartbeat", "1e300"], "--heartbeat must be more than 0 and at most 1000000000 seconds, not 1e+300"),
        (["--stale", "1e19"], "--stale must be more than 0 and at most 1000000000 seconds, not 1e+19"),
        (["--hysteresis", "inf"], "--hysteresis must be 0 to 20015115 metres, not inf"),
        (["--approach", "1e300"], "--approach must be more than 0 and at most 20015115 metres, not 1e+300"),
        (["--max-accuracy", "inf"], "--max-accuracy must be more than 0 and at most 20015115 metres, not inf"),
        (["--exit-confirm", "1000"], "--exit-confirm must be 1 to 255, not 1000"),
        (["--speed", "1e-300"], "--speed must be 0.001 to 1000000 times real time, not 1e-300"),
        (["--speed", "inf"], "--speed must be 0.001 to 1000000 times real time, not inf"),
    ]) func replayRefusesOptionsOutOfRange(options: [String], message: String) throws {
        let result = try runGPSFence(Self.bridge + options)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func replayTakesTheLargestValuesAndRuns() throws {
        let result = try runGPSFence(
            Self.bridge + ["--dwell", "1e9", "--heartbeat", "1e9", "--stale", "1e9", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"enter\""))
    }

    @Test(arguments: [
        (
            ["simulate", "captures/bridge/capture.nmea", "--rate", "1e-300"],
            "--rate must be 0.001 to 50 Hz, not 1e-300"
        ),
        (
            ["simulate", "captures/bridge/capture.nmea", "--speed", "1e-300"],
            "--speed must be 0.001 to 1000000 m/s, not 1e-300"
        ),
        (
            ["record", "--device", "/dev/null", "--output", "/tmp/x.nmea", "--duration", "1e300"],
            "--duration must be more than 0 and at most 1000000000 seconds, not 1e+300"
        ),
        (
            ["run", "--device", "/dev/null", "--fences", "f.geojson", "--exec-timeout", "1e300"],
            "--exec-timeout must be more than 0 and at most 1000000000 seconds, not 1e+300"
        ),
        (
            ["run", "--device", "/dev/null", "--fences", "f.geojson", "--exec-concurrency", "100000"],
            "--exec-concurrency must be 1 to 256, not 100000"
        ),
        (
            ["doctor", "--autobaud-window", "inf"],
            "--autobaud-window must be more than 0 and at most 3600 seconds, not inf"
        ),
    ]) func otherCommandsRefuseOptionsOutOfRange(arguments: [String], message: String) throws {
        let result = try runGPSFence(arguments)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    /// A fence's own dwell of 1e16 s crashed `replay` once the receiver was inside.
    @Test(arguments: ["1e16", "1e300"]) func replayRefusesAFenceWithAHugeDwell(dwell: String) throws {
        let fences = try String(
            contentsOf: packageRoot.appendingPathComponent("captures/bridge/fences.geojson"), encoding: .utf8)
        // Every fence of the capture gets the property; the first one is named in the message.
        let hostile = fences.replacingOccurrences(of: "\"properties\": {", with: "\"properties\": {\"dwell\":\(dwell),")
        #expect(hostile != fences)
        let file = try write(hostile, "fences.geojson", in: folder())
        let result = try runGPSFence(["replay", "captures/bridge/capture.nmea", "--fences", file])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(file): feature 0 (id "), "\(result.stderr)")
        #expect(
            result.stderr.contains("property dwell must be 0 to 1000000000 seconds, not \(Double(dwell)!)"),
            "\(result.stderr)")
    }

    /// The receiver's own numbers: 18-digit speeds, tracks, HDOP and altitudes (valid checksums)
    /// through `replay` with approach on, and the human console line (ETA, distance).
    @Test func replayTakesAbsurdReceiverNumbers() throws {
        let capture = try String(
            contentsOf: packageRoot.appendingPathComponent("captures/bridge/capture.nmea"), encoding: .utf8)
        func resum(_ line: Substring) -> String {
            guard line.hasPrefix("$"), let star = line.lastIndex(of: "*") else { return String(line) }
            let body = line[line.index(after: line.startIndex)..<star]
            return "$" + body + "*" + String(format: "%02X", body.utf8.reduce(UInt8(0), ^))
        }
        let absurd = capture.split(separator: "\n").map { line -> String in
            var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if line.hasPrefix("$GPRMC"), fields.count > 8 {
                fields[7] = "999999999999999999.9"  // speed, knots
                fields[8] = "999999999999999999.9"  // track, degrees
            }
            if line.hasPrefix("$GPGGA"), fields.count > 9 {
                fields[8] = "999999999999999999"  // HDOP
                fields[9] = "-999999999999999999.9"  // altitude
            }
            return resum(Substring(fields.joined(separator: ",")))
        }.joined(separator: "\n")
        let dir = folder()
        let file = try write(absurd, "absurd.nmea", in: dir)
        for extra in [[], ["--max-accuracy", "20015115", "--approach", "20015115"]] {
            let result = try runGPSFence(["replay", file, "--fences", "captures/bridge/fences.geojson"] + extra)
            #expect(result.status == 0, "\(extra): \(result.stderr)")
        }
    }

    /// The state file's numbers: a visit lasting 1e300 s and a text where a time belongs, written
    /// with the sqlite3 shell, then `visits` (text and JSON) and `replay --state` on that file.
    @Test func damagedStateFileIsReadWithoutACrash() throws {
        let dir = folder()
        let state = dir.appendingPathComponent("state.sqlite").path
        #expect(try runGPSFence(Self.bridge + ["--state", state]).status == 0)
        let february = 1_770_076_800_000  // 2026-02-03T00:00:00Z
        let sql = """
            INSERT INTO visit VALUES ('v1', '"bridge-1"', 'Low bridge', \(february), \(february + 1000), 1e300);
            INSERT INTO visit VALUES ('v2', '"diner"', NULL, 'soon', 0, 5);
            UPDATE fence_state SET enter_time = -9223372036854775808;
            INSERT OR REPLACE INTO fence_state (fence_id, geometry_hash, inside, enter_time, dwell_fired, exit_delay_since)
                VALUES ('"diner"', 'x', 1, 'y', 'z', 'w');
            """
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        sqlite.arguments = ["sqlite3", state, sql]
        try sqlite.run()
        sqlite.waitUntilExit()
        #expect(sqlite.terminationStatus == 0)
        for json in [[], ["--json"]] {
            let visits = try runGPSFence(["visits", "--state", state, "--month", "2", "--year", "2026"] + json)
            #expect(visits.status == 0, "\(visits.stderr)")
            #expect(visits.stdout.contains("bridge-1"))
        }
        let again = try runGPSFence(Self.bridge + ["--state", state, "--json"])
        #expect(again.status == 0, "\(again.stderr)")
    }

    // MARK: Item 2: invalid time of day

    @Test(arguments: ["999999.00", "246000.00", "120003.00x"]) func decodeDropsASentenceWithAnInvalidTime(time: String)
        throws
    {
        func nmea(_ body: String) -> String {
            let sum = body.utf8.reduce(UInt8(0), ^)
            return "$" + body + "*" + String(format: "%02X", sum)
        }
        let capture = [
            nmea("GPGGA,120003.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            nmea("GPRMC,\(time),A,5000.000,S,02000.000,W,55.0,180.0,230324,,,A"),
        ].map { $0 + "\r\n" }.joined()
        let result = try runGPSFence(["decode", "--stats", "-"], stdin: Data(capture.utf8))
        #expect(result.status == 0)
        let fixes = result.stdout.split(separator: "\n")
        #expect(fixes.count == 1)
        let fix = try #require(JSONSerialization.jsonObject(with: Data(fixes[0].utf8)) as? [String: Any])
        #expect((fix["lat"] as? Double).map { abs($0 - 48.1173) < 1e-9 } == true, "\(fix)")
        #expect(fix["speed"] is NSNull && fix["time"] is NSNull)
        #expect(result.stderr.contains("1 malformed"), "\(result.stderr)")
    }

    // MARK: Item 3: C1 controls

    @Test func checkAndReplayNeverPrintC1Controls() throws {
        let dir = folder()
        let name = "Gate\u{9B}2J\u{85}\u{1B}[31m"
        let file = try write(
            circle(
                id: "g\\u009b", lon: -83.751891, lat: 42.280597, radius: "300",
                extra: ",\"name\":\"Gate\\u009b2J\\u0085\\u001b[31m\""), "c1.geojson", in: dir)
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("\\u009b"))
        let check = try runGPSFence(["check", "--fences", file, "42.280597", "-83.751891"])
        #expect(check.status == 0)
        #expect(check.stdout.contains(#"id "g\u009b" "Gate\u009b2J\u0085\u001b[31m""#), "\(check.stdout)")
        let replay = try runGPSFence(["replay", "captures/bridge/capture.nmea", "--fences", file])
        #expect(replay.status == 0)
        #expect(replay.stdout.contains("Gate?2J??[31m [g?]"), "\(replay.stdout)")
        for output in [check.stdout, replay.stdout] {
            #expect(!output.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || $0.value == 0x1B }, "\(name)")
        }
    }

    // MARK: Item 4: permissions

    /// Runs the binary from `/bin/sh -c 'umask 000; exec gpsfence ...'` (arguments as "$@": the
    /// shell sees no data), with `environment` added; with `stopWhen`, stopped by SIGTERM once that
    /// holds.
    func runWithUmaskZero(_ arguments: [String], environment: [String: String] = [:], stopWhen: (() -> Bool)? = nil)
        throws
        -> Int32
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "umask 000; exec \"$0\" \"$@\"", gpsfenceBinary().path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.currentDirectoryURL = packageRoot
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        if let stopWhen {
            #expect(waitUntil(every: 0.1) { stopWhen() || !process.isRunning }, "\(arguments) never got there")
            kill(process.processIdentifier, SIGTERM)
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    func mode(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1) ?? -1
    }

    @Test func stateFoldersAre0700AndTheFile0600UnderUmaskZero() throws {
        let dir = folder()
        let state = dir.appendingPathComponent("a/b/state.sqlite").path
        let status = try runWithUmaskZero(Self.bridge + ["--state", state])
        #expect(status == 0)
        #expect(mode(dir.appendingPathComponent("a").path) == 0o700)
        #expect(mode(dir.appendingPathComponent("a/b").path) == 0o700)
        #expect(mode(state) == 0o600)
        #expect(mode(state + "-wal") == 0o600 || !FileManager.default.fileExists(atPath: state + "-wal"))

        // An existing state file that others can read is tightened when it is opened.
        chmod(state, 0o644)
        #expect(mode(state) == 0o644)
        #expect(try runWithUmaskZero(Self.bridge + ["--state", state]) == 0)
        #expect(mode(state) == 0o600)
    }

    @Test func defaultStateFolderIs0700UnderUmaskZero() throws {
        let home = folder()
        let fences = try write(circle(), "f.geojson", in: home)
        let status = try runWithUmaskZero(
            ["run", "--device", home.appendingPathComponent("no-gps").path, "--baud", "9600", "--fences", fences],
            environment: ["HOME": home.path, "XDG_STATE_HOME": ""]
        ) {
            // Until the run has opened its state file and noted its start there.
            sqlite(
                home.appendingPathComponent(".local/state/gpsfence/state.sqlite").path,
                "SELECT monitoring_since IS NOT NULL FROM receiver") == "1"
        }
        #expect(status == 0)
        for folder in [".local", ".local/state", ".local/state/gpsfence"] {
            #expect(mode(home.appendingPathComponent(folder).path) == 0o700, "\(folder)")
        }
        #expect(mode(home.appendingPathComponent(".local/state/gpsfence/state.sqlite").path) == 0o600)
    }

    // MARK: Item 9: stopping with hung hooks

    /// SIGTERM with a hung hook running and more queued: `run` stops within the hook timeout plus
    /// a second (plus a margin for a loaded machine), prints an `error` for the hook it killed and
    /// for the events it did not run, and leaves no hook process behind.
    @Test func stopWithHungHooksIsBoundedAndReported() throws {
        let dir = folder()
        let pids = dir.appendingPathComponent("pids").path
        let hook = dir.appendingPathComponent("hangs.sh").path
        try "#!/bin/sh\necho $$ >> '\(pids)'\nexec sleep 300\n".write(toFile: hook, atomically: true, encoding: .utf8)
        chmod(hook, 0o755)
        let fences = try write(circle(), "f.geojson", in: dir)
        let run = try BackgroundGPSFence([
            "run", "--device", dir.appendingPathComponent("no-gps").path, "--baud", "9600", "--fences", fences,
            "--state", dir.appendingPathComponent("state.sqlite").path, "--json",
            "--exec", hook, "--exec-timeout", "2", "--exec-concurrency", "1",
        ])
        let output = LineCollector(run.output.fileHandleForReading)
        #expect(output.wait { types($0).contains("registered") })
        // Each reload announces the fences again: more events queue behind the hung hook.
        for count in 2...4 {
            run.signal(SIGHUP)
            #expect(output.wait(timeout: 10) { types($0).filter { $0 == "registered" }.count == count })
        }
        let start = Date()
        run.signal(SIGTERM)
        let stopped = run.finish(timeout: 30)
        let took = Date().timeIntervalSince(start)
        output.finish()
        #expect(stopped.status == 0)
        #expect(took < 2 + 1 + 1.5, "stop took \(took) s")
        let messages = output.all.compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["type"] as? String == "error"
            else { return nil }
            return object["message"] as? String
        }
        #expect(
            messages.contains { $0.contains("hangs.sh took longer than 2 s") && $0.contains("killed") }, "\(messages)")
        #expect(messages.contains { $0.contains("not run: gpsfence is stopping") }, "\(messages)")
        for pid in ((try? String(contentsOfFile: pids, encoding: .utf8)) ?? "").split(separator: "\n").compactMap({
            pid_t($0)
        }) {
            #expect(kill(pid, 0) != 0, "hook \(pid) still running")
        }
    }
}
