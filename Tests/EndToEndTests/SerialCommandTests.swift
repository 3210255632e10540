import Foundation
import Testing
import Waiting

/// A `gpsfence` process running in the background, with its first line of standard output.
final class BackgroundGPSFence {
    let process = Process()
    let output = Pipe()
    let errors = Pipe()
    private(set) var firstLine = ""

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = gpsfenceBinary()
        // Remembered baud rates go to a private state directory, never the user's.
        process.environment = ProcessInfo.processInfo.environment
            .merging(["XDG_STATE_HOME": NSTemporaryDirectory() + "gpsfence-e2e-state-\(UUID().uuidString)"]) { $1 }
            // Times for people are local: tests read them in UTC unless they choose a zone.
            .merging(["TZ": "UTC"]) { $1 }
            .merging(environment) { $1 }
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Waits for the first line of standard output (the simulator's pseudo-terminal path).
    func readFirstLine() -> String {
        firstLine = firstLineOf(output)
        return firstLine
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits for the exit, at most `timeout` seconds: a process that ignores its stop signal is
    /// killed and recorded as a failure, rather than hanging the whole test run.
    func finish(timeout: Double = 60) -> (status: Int32, stderr: String) {
        if !waitUntil(timeout: timeout, every: 0.01, { !process.isRunning }) {
            Issue.record("gpsfence \(process.arguments ?? []) still running after \(timeout) s; killed")
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, stderr)
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}

/// Reads a pipe up to its first line feed and returns that line.
func firstLineOf(_ pipe: Pipe) -> String {
    var bytes = Data()
    while !bytes.contains(0x0A) {
        let chunk = pipe.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        bytes.append(chunk)
    }
    return String(decoding: bytes.prefix { $0 != 0x0A }, as: UTF8.self)
}

/// `runGPSFence` with extra environment variables.
func runGPSFence(_ arguments: [String], environment: [String: String]) throws -> CommandResult {
    let background = try BackgroundGPSFence(arguments, environment: environment)
    let output = background.output.fileHandleForReading.readDataToEndOfFile()
    let (status, stderr) = background.finish()
    return CommandResult(status: status, stdout: String(decoding: output, as: UTF8.self), stderr: stderr)
}

func temporaryDirectory() -> URL {
    let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("gpsfence-e2e-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A GPX track with one point every 0.2 s: simulated at 5 Hz, every fix is a track point.
func gpxTrack(points: Int) -> (text: String, points: [(lat: Double, lon: Double, time: String)]) {
    var list: [(Double, Double, String)] = []
    var text = #"<?xml version="1.0"?><gpx version="1.1" creator="test"><trk><trkseg>"# + "\n"
    for index in 0..<points {
        let lat = 42.2806 + Double(index) * 0.00002
        let lon = -83.7519 + Double(index) * 0.00003
        let ms = 2000 + index * 200
        let time = String(format: "2026-02-03T10:%02d:%02d.%03dZ", 15 + ms / 60_000, ms / 1000 % 60, ms % 1000)
        list.append((lat, lon, time))
        text += #"<trkpt lat="\#(lat)" lon="\#(lon)"><time>\#(time)</time></trkpt>"# + "\n"
    }
    return (text + "</trkseg></trk></gpx>\n", list)
}

func decodedFixes(_ jsonLines: String) -> [[String: Any]] {
    jsonLines.split(separator: "\n").compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
}

@Suite(.serialized) struct SerialCommandTests {
    @Test func simulateThenRecordThenDecodeGivesBackTheTrack() throws {
        let directory = temporaryDirectory()
        let (gpx, points) = gpxTrack(points: 30)
        let route = directory.appendingPathComponent("track.gpx")
        try gpx.write(to: route, atomically: true, encoding: .utf8)
        let simulator = try BackgroundGPSFence(["simulate", route.path, "--baud", "57600", "--rate", "5"])
        let pty = simulator.readFirstLine()
        #expect(pty.hasPrefix("/dev/pts/"))

        let capture = directory.appendingPathComponent("capture.nmea")
        let record = try runGPSFence(
            ["record", "--device", pty, "--output", capture.path, "--duration", "30", "--autobaud-window", "0.3"],
            environment: ["XDG_STATE_HOME": directory.path])
        // The simulator's end is a hang-up: the recording stops there, complete, with status 1.
        #expect(record.status == 1)
        #expect(record.stderr.contains("57600 baud"))
        #expect(record.stderr.contains("hung up"))
        // A simulator held up by a loaded machine drops the sentences that no longer fit the line
        // (and says so), as a receiver's full transmit buffer does: an epoch may then lack its RMC.
        let simulatorDropped = simulator.finish().stderr.contains("sentences dropped")

        let text = String(decoding: try Data(contentsOf: capture), as: UTF8.self)
        #expect(text.hasPrefix("# gpsfence record\n# device: \(pty)\n# baud: 57600 (autobaud)\n# start: "))
        let decode = try runGPSFence(["decode", capture.path])
        #expect(decode.status == 0)
        // A recording that began between an epoch's RMC and its GGA opens with a fix that has no
        // date, so no time (`"time": null`, which JSONSerialization reads as NSNull, not nil): the
        // track is what follows it.
        let fixes = Array(decodedFixes(decode.stdout).drop { $0["time"] as? String == nil })
        // Autobaud starts at the port's speed, the simulator's: from the first burst heard on, every
        // point arrives.
        #expect(fixes.count >= points.count - 12)
        let offset = points.count - fixes.count
        for (index, fix) in fixes.enumerated() {
            let point = points[offset + index]
            if fix["time"] as? String == nil && simulatorDropped { continue }
            #expect(fix["time"] as? String == point.time, "the simulator dropped nothing")
            #expect(abs((fix["lat"] as? Double ?? 0) - point.lat) < 1e-6)
            #expect(abs((fix["lon"] as? Double ?? 0) - point.lon) < 1e-6)
        }
    }

    @Test func aRecordedCaptureReplayedBySimulateRecordsTheSameFixes() throws {
        let directory = temporaryDirectory()
        let route = directory.appendingPathComponent("track.gpx")
        // The simulator plays as soon as it says its terminal, and `record` misses what comes before
        // it opens the port (a process start, seconds on a busy machine): 10 s of fixes leave it
        // half the route each time.
        let points = Int(50 * testTimeScale)
        try gpxTrack(points: points).text.write(to: route, atomically: true, encoding: .utf8)
        func simulateAndRecord(_ source: URL, _ capture: URL) throws {
            let simulator = try BackgroundGPSFence(["simulate", source.path, "--baud", "115200", "--rate", "5"])
            let pty = simulator.readFirstLine()
            _ = try runGPSFence(
                ["record", "--device", pty, "--baud", "115200", "--output", capture.path, "--duration", "30"],
                environment: [:])
            _ = simulator.finish()
        }
        let first = directory.appendingPathComponent("first.nmea")
        let second = directory.appendingPathComponent("second.nmea")
        try simulateAndRecord(route, first)
        try simulateAndRecord(first, second)  // an NMEA capture as the route: replayed with its own timing
        let original = decodedFixes(try runGPSFence(["decode", first.path]).stdout)
        let replayed = decodedFixes(try runGPSFence(["decode", second.path]).stdout)
        #expect(original.count >= points / 2, "\(original.count) of \(points) fixes recorded")
        #expect(replayed.count >= original.count / 2, "\(replayed.count) of \(original.count) fixes recorded again")
        let times = replayed.compactMap { $0["time"] as? String }
        #expect(times == Array(original.compactMap { $0["time"] as? String }.suffix(times.count)))
    }

    @Test func recordWithAutoOnAMachineWithoutUSBSaysSo() throws {
        guard !FileManager.default.fileExists(atPath: "/sys/bus/usb") else { return }
        let result = try runGPSFence(
            ["record", "--output", temporaryDirectory().appendingPathComponent("x.nmea").path], environment: [:])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no USB bus"))
    }

    @Test func recordStopsCleanlyOnSIGINTWithEveryByteWritten() throws {
        let directory = temporaryDirectory()
        let route = directory.appendingPathComponent("track.gpx")
        try gpxTrack(points: 30).text.write(to: route, atomically: true, encoding: .utf8)
        let simulator = try BackgroundGPSFence(["simulate", route.path, "--baud", "115200", "--rate", "5", "--loop"])
        let pty = simulator.readFirstLine()
        let capture = directory.appendingPathComponent("capture.nmea")
        let recorder = try BackgroundGPSFence(["record", "--device", pty, "--baud", "115200", "--output", capture.path])
        // Until a few epochs are in the capture (an RMC each), then stop it mid-stream.
        #expect(
            waitUntil(every: 0.05) {
                ((try? String(contentsOf: capture, encoding: .utf8)) ?? "").components(separatedBy: "RMC,").count > 6
            }, "record never wrote five epochs")
        recorder.signal(SIGINT)
        let result = recorder.finish()
        simulator.signal(SIGTERM)
        #expect(simulator.finish().status == 0)

        #expect(result.status == 0)
        let data = try Data(contentsOf: capture)
        let header = String(decoding: data, as: UTF8.self).split(separator: "\n").prefix { $0.hasPrefix("#") }
        #expect(header.contains("# baud: 115200 (pinned)"))
        let headerBytes = header.reduce(0) { $0 + $1.utf8.count + 1 }
        // "recorded N bytes": every byte counted is in the file after the header.
        #expect(result.stderr.contains("recorded \(data.count - headerBytes) bytes"))
        let decode = try runGPSFence(["decode", "--stats", capture.path])
        #expect(decodedFixes(decode.stdout).count >= 4)
        #expect(decode.stderr.contains("0 bad checksum"))
    }

    @Test func aWrongPinnedBaudRecordsGarbageThatDecodesToNothing() throws {
        let directory = temporaryDirectory()
        let route = directory.appendingPathComponent("track.gpx")
        try gpxTrack(points: 30).text.write(to: route, atomically: true, encoding: .utf8)
        let simulator = try BackgroundGPSFence(["simulate", route.path, "--baud", "57600", "--rate", "5", "--loop"])
        let pty = simulator.readFirstLine()
        let capture = directory.appendingPathComponent("garbage.nmea")
        let record = try runGPSFence(
            ["record", "--device", pty, "--baud", "9600", "--output", capture.path, "--duration", "1"], environment: [:]
        )
        simulator.signal(SIGTERM)
        _ = simulator.finish()
        #expect(record.status == 0)
        let bytes = try Data(contentsOf: capture).count
        let decode = try runGPSFence(["decode", "--stats", capture.path])
        #expect(decode.stdout.isEmpty, "no fix from framing garbage")
        #expect(decode.stderr.contains(": 0 fixes"))
        #expect(bytes > 100, "the garbage itself was recorded")
    }

    @Test func simulateMakesAndRemovesItsLinkAndStopsOnSIGTERM() throws {
        let directory = temporaryDirectory()
        let route = directory.appendingPathComponent("route.geojson")
        try #"{"type":"LineString","coordinates":[[-83.7519,42.2806],[-83.7500,42.2806]]}"#.write(
            to: route, atomically: true, encoding: .utf8)
        let link = directory.appendingPathComponent("gps0").path
        let simulator = try BackgroundGPSFence(["simulate", route.path, "--pty", "--link", link, "--loop"])
        let pty = simulator.readFirstLine()
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == pty)
        simulator.signal(SIGTERM)
        #expect(simulator.finish().status == 0)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == nil)
    }

    /// `--link` replaces only a symlink to a pseudo-terminal: a file, a device node (the real
    /// receiver's, on a root test rig), a named pipe or a link elsewhere is refused and left as it was.
    @Test func simulateLinkNeverReplacesWhatIsNotItsOwn() throws {
        let directory = temporaryDirectory()
        let route = directory.appendingPathComponent("route.geojson")
        try #"{"type":"LineString","coordinates":[[-83.7519,42.2806],[-83.7518,42.2806]]}"#.write(
            to: route, atomically: true, encoding: .utf8)
        let file = directory.appendingPathComponent("notes.txt").path
        try "keep me\n".write(toFile: file, atomically: true, encoding: .utf8)
        let pipe = directory.appendingPathComponent("fifo").path
        #expect(mkfifo(pipe, 0o600) == 0)
        let elsewhere = directory.appendingPathComponent("elsewhere").path
        try FileManager.default.createSymbolicLink(atPath: elsewhere, withDestinationPath: file)
        var paths = [(file, "a file"), (pipe, "a named pipe"), (elsewhere, "a symlink to '\(file)'")]
        let node = directory.appendingPathComponent("ttyUSB9").path
        if getuid() == 0 {  // a character device like a USB receiver's (188, 9)
            #expect(mknod(node, S_IFCHR | 0o660, dev_t(188 << 8 | 9)) == 0)
            paths.append((node, "a character device"))
        }
        for (path, kind) in paths {
            var before = stat()
            #expect(lstat(path, &before) == 0)
            let result = try runGPSFence(["simulate", route.path, "--pty", "--speed", "50", "--link", path])
            #expect(result.status == 2, "\(path): \(result.stderr)")
            #expect(result.stderr.contains("--link \(path): there is \(kind)"), "\(result.stderr)")
            var after = stat()
            #expect(lstat(path, &after) == 0, "\(path) is still there")
            #expect(after.st_mode == before.st_mode && after.st_ino == before.st_ino && after.st_rdev == before.st_rdev)
        }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep me\n")

        // A link to a pseudo-terminal that is gone (an earlier simulate killed) is taken over.
        let stale = directory.appendingPathComponent("gps0").path
        try FileManager.default.createSymbolicLink(atPath: stale, withDestinationPath: "/dev/pts/999999")
        let simulator = try BackgroundGPSFence(["simulate", route.path, "--pty", "--link", stale, "--loop"])
        let pty = simulator.readFirstLine()
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: stale) == pty)
        simulator.signal(SIGTERM)
        #expect(simulator.finish().status == 0)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: stale)) == nil)
    }

    /// A logged GPX from long ago, played now and sped up: the fixes carry today's date, and
    /// simulate says when the route ended.
    @Test func simulateShiftsAnOldTimedRouteToNowAndSaysWhenItEnds() throws {
        let directory = temporaryDirectory()
        let route = directory.appendingPathComponent("old.gpx")
        try """
        <?xml version="1.0"?><gpx version="1.1" creator="test"><trk><trkseg>
        <trkpt lat="42.2806" lon="-83.7519"><time>2019-06-01T08:00:00Z</time></trkpt>
        <trkpt lat="42.2816" lon="-83.7519"><time>2019-06-01T08:01:40Z</time></trkpt>
        </trkseg></trk></gpx>
        """.write(to: route, atomically: true, encoding: .utf8)
        let simulator = try BackgroundGPSFence([
            "simulate", route.path, "--pty", "--now", "--time-scale", "50", "--rate", "1",
        ])
        _ = simulator.readFirstLine()
        let result = simulator.finish(timeout: 20)
        #expect(result.status == 0, "\(result.stderr)")
        let today = currentDay()
        // 100 s of route at 50 times: 2 s, an epoch at 0, 1 and 2 s, on whole centiseconds.
        #expect(result.stderr.contains("route ended: 3 epochs, receiver time \(today)"), "\(result.stderr)")
        #expect(result.stderr.contains("0Z to \(today)"), "\(result.stderr)")
        #expect(!result.stderr.contains("2019-06-01"))
        let line = directory.appendingPathComponent("line.geojson")
        try #"{"type":"LineString","coordinates":[[-83.7519,42.2806],[-83.7518,42.2806]]}"#.write(
            to: line, atomically: true, encoding: .utf8)
        let untimed = try runGPSFence(["simulate", line.path, "--time-scale", "2"])
        #expect(untimed.status == 2)
        #expect(untimed.stderr.contains("--time-scale and --now are for a GPX with times"), "\(untimed.stderr)")
    }

    @Test func simulateRefusesBadInputWithStatusTwo() throws {
        let missing = try runGPSFence(["simulate", "/nonexistent/route.gpx"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("/nonexistent/route.gpx"))
        let directory = temporaryDirectory()
        let bad = directory.appendingPathComponent("bad.gpx")
        try #"<gpx><trk><trkseg><trkpt lat="42" lon="x"/></trkseg></trk></gpx>"#.write(
            to: bad, atomically: true, encoding: .utf8)
        let badPoint = try runGPSFence(["simulate", bad.path])
        #expect(badPoint.status == 2)
        #expect(badPoint.stderr.contains("\(bad.path): point 1: lon must be a number"))
        let cut = directory.appendingPathComponent("cut.geojson")
        try "{\"type\":\"LineString\",\n\"coordinates\":[[-83.7519,42.2806],[-83.75".write(
            to: cut, atomically: true, encoding: .utf8)
        let malformed = try runGPSFence(["simulate", cut.path])
        #expect(malformed.status == 2)
        #expect(
            malformed.stderr.contains(
                "\(cut.path): malformed JSON at line 2, column 42: expected ',' or ']', found the end of the file"),
            "\(malformed.stderr)")
        let baud = try runGPSFence(["simulate", bad.path, "--baud", "1234"])
        #expect(baud.status == 2)
        #expect(baud.stderr.contains("--baud must be 1200, 2400, "), "\(baud.stderr)")
        #expect(baud.stderr.contains("not '1234'"), "\(baud.stderr)")
    }

    @Test func aDeviceThatCannotBeOpenedIsARuntimeFailureNamingIt() throws {
        let directory = temporaryDirectory()
        let result = try runGPSFence(
            ["record", "--device", "/dev/ttyNOSUCH9", "--output", directory.appendingPathComponent("x.nmea").path],
            environment: [:])
        #expect(result.status == 1)
        #expect(result.stderr.contains("/dev/ttyNOSUCH9"))
        #expect(result.stderr.contains("gpsfence devices"))
    }

    @Test func devicesListsAsJSONAndSaysWhenThereIsNoUSBBus() throws {
        let result = try runGPSFence(["devices", "--json"])
        #expect(result.status == 0)
        let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        #expect(parsed is [Any])
        let text = try runGPSFence(["devices"])
        #expect(text.status == 0)
        if !FileManager.default.fileExists(atPath: "/sys/bus/usb") {
            #expect(text.stdout.contains("no USB bus"))
            #expect(result.stderr.contains("no USB bus"))
        }
    }

    @Test func doctorFindsValidNMEAAtTheSimulatorsRate() throws {
        let directory = temporaryDirectory()
        let route = directory.appendingPathComponent("track.gpx")
        try gpxTrack(points: 30).text.write(to: route, atomically: true, encoding: .utf8)
        let simulator = try BackgroundGPSFence(["simulate", route.path, "--baud", "38400", "--rate", "5", "--loop"])
        let pty = simulator.readFirstLine()
        let doctor = try runGPSFence(["doctor", "--device", pty, "--autobaud-window", "0.4"], environment: [:])
        simulator.signal(SIGTERM)
        _ = simulator.finish()
        #expect(doctor.status == 0, "\(doctor.stdout)")
        #expect(doctor.stdout.contains("valid NMEA at 38400 baud"))
        #expect(doctor.stdout.contains("no other process has \(pty) open"))

        let missing = try runGPSFence(["doctor", "--device", "/dev/ttyNOSUCH9"])
        #expect(missing.status == 1)
        #expect(missing.stdout.contains("PROBLEM /dev/ttyNOSUCH9 does not exist"))
    }

    /// Permission denied, for real: the device is given to group dialout (mode 0660) and the binary
    /// runs as user nobody. Needs root to arrange (CI and this machine run tests as root).
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func permissionDeniedNamesTheGroupAndTheFix() throws {
        let asNobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", gpsfenceBinary().path]
        guard let dialout = getgrnam("dialout")?.pointee.gr_gid, try run(asNobody + ["--help"]).status == 0 else {
            return  // no dialout group, or the build folder is not reachable for nobody: nothing to test
        }
        let directory = temporaryDirectory()
        let route = directory.appendingPathComponent("track.gpx")
        try gpxTrack(points: 30).text.write(to: route, atomically: true, encoding: .utf8)
        let simulator = try BackgroundGPSFence(["simulate", route.path, "--baud", "115200", "--loop"])
        let pty = simulator.readFirstLine()
        defer {
            simulator.signal(SIGTERM)
            _ = simulator.finish()
        }
        #expect(chown(pty, 0, dialout) == 0 && chmod(pty, 0o660) == 0)
        let result = try run(asNobody + ["record", "--device", pty, "--output", "/dev/null", "--duration", "1"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("open '\(pty)' failed: Permission denied"))
        #expect(result.stderr.contains("belongs to group 'dialout', which nobody is not in"))
        #expect(result.stderr.contains("sudo usermod -aG dialout $USER, then log out and back in"))
    }

    /// Runs any program, collecting its output.
    func run(_ command: [String]) throws -> CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandResult(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }
}

/// Today's UTC date, `YYYY-MM-DD`.
func currentDay() -> String {
    let formatter = DateFormatter()
    formatter.dateFormat = "yyyy-MM-dd"
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: Date())
}
