import Foundation
import Testing

/// `status` of a running run asks the run itself on its local channel (docs/running.md, "Status
/// of a running run"): the real binary, `simulate` driving a boat north on a pseudo-terminal that
/// `run` reads, with a track write interval far longer than the test so that the state file holds
/// no fix of its own while it runs.
@Suite(.serialized) struct LiveStatusTests {
    /// A boat leaving the anchorage of `AnchorWatchTests` northwards at 3 m/s, one point a second
    /// from now on: today's points, which today's odometer counts.
    static func northbound(_ folder: URL, seconds: Int) throws -> String {
        let formatter = ISO8601DateFormatter()
        let start = Date()
        var text = #"<?xml version="1.0"?><gpx version="1.1" creator="test"><trk><trkseg>"# + "\n"
        for second in 0..<seconds {
            let lat = AnchorWatchTests.anchorage.lat + Double(second) * 3 * AnchorWatchTests.metre
            let time = formatter.string(from: start.addingTimeInterval(Double(second)))
            text += "<trkpt lat=\"\(lat)\" lon=\"\(AnchorWatchTests.anchorage.lon)\"><time>\(time)</time></trkpt>\n"
        }
        text += "</trkseg></trk></gpx>\n"
        let path = folder.appendingPathComponent("north.gpx")
        try text.write(to: path, atomically: true, encoding: .utf8)
        return path.path
    }

    struct Running {
        let folder: URL
        let simulator: BackgroundGPSFence
        let run: BackgroundGPSFence
        var state: String { folder.appendingPathComponent("state.sqlite").path }
    }

    static func start(_ folder: URL, extra: [String] = []) throws -> Running {
        try #"{"type":"FeatureCollection","features":[]}"#.write(
            to: folder.appendingPathComponent("fences.geojson"), atomically: true, encoding: .utf8)
        let route = try northbound(folder, seconds: 600)
        let link = folder.appendingPathComponent("gps0").path
        let simulator = try BackgroundGPSFence([
            "simulate", route, "--baud", "38400", "--rate", "1", "--link", link,
        ])
        _ = simulator.readFirstLine()
        let run = try BackgroundGPSFence(
            [
                "run", "--device", link, "--baud", "38400", "--fences",
                folder.appendingPathComponent("fences.geojson").path, "--state",
                folder.appendingPathComponent("state.sqlite").path, "--json", "--track-write-interval", "3600",
            ] + extra)
        return Running(folder: folder, simulator: simulator, run: run)
    }

    static func status(_ state: String) throws -> [String: Any] {
        let result = try runGPSFence(["status", "--state", state, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(jsonObject(result.stdout), "\(result.stdout)")
    }

    static func fixTime(_ status: [String: Any]) -> String? {
        (status["last_fix"] as? [String: Any])?["time"] as? String
    }

    /// Polls `status --json` until `condition` holds or `timeout` seconds pass; the last status.
    static func waitForStatus(
        _ state: String, timeout: Double = 60, until condition: ([String: Any]) -> Bool
    ) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        var last: [String: Any] = [:]
        while Date() < deadline {
            if FileManager.default.fileExists(atPath: state) {
                last = try status(state)
                if condition(last) { return last }
            }
            usleep(200_000)
        }
        return last
    }

    /// The sizes and modification times of the state file and its write-ahead log.
    static func storage(_ state: String) -> [String] {
        [state, state + "-wal"].map { path in
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            let size = (attributes?[.size] as? NSNumber)?.intValue ?? -1
            let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1
            return "\(path): \(size) bytes, modified \(modified)"
        }
    }

    @Test func statusOfARunningRunShowsItsLatestFixWithoutAWriteToTheStateFile() throws {
        let running = try Self.start(temporaryDirectory())
        defer {
            running.run.signal(SIGINT)
            _ = running.run.finish()
            running.simulator.signal(SIGINT)
            _ = running.simulator.finish()
        }
        let first = try Self.waitForStatus(running.state) { $0["live"] as? Bool == true && Self.fixTime($0) != nil }
        #expect(first["live"] as? Bool == true, "\(first)")
        #expect(first["running"] as? Bool == true, "\(first)")
        let socket = running.state + ".sock"
        let attributes = try FileManager.default.attributesOfItem(atPath: socket)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "\(attributes)")
        #expect(attributes[.type] as? FileAttributeType == .typeSocket)

        // The state file is still as the run's start left it: with a track write an hour away, the
        // fixes status shows come from the run, and asking for them writes nothing.
        let before = Self.storage(running.state)
        var times: Set<String> = []
        let deadline = Date().addingTimeInterval(60)
        var latest = first
        while times.count < 4, Date() < deadline {
            latest = try Self.status(running.state)
            if let time = Self.fixTime(latest) { times.insert(time) }
            usleep(300_000)
        }
        #expect(times.count >= 4, "the last fix moves on: \(times.sorted())")
        let fix = try #require(latest["last_fix"] as? [String: Any])
        let age = try #require(fix["age"] as? Double)
        #expect(age < 3, "at most an epoch old, and a loaded machine's delay: \(fix)")
        #expect((latest["odometer_today"] as? Double ?? 0) > 0, "the odometer counts as it goes: \(latest)")
        #expect(Self.storage(running.state) == before, "no write to storage")

        // The text says the same fix.
        let text = try runGPSFence(["status", "--state", running.state])
        #expect(text.stdout.contains("monitoring"), "\(text.stdout)")
        #expect(text.stdout.contains("last fix"), "\(text.stdout)")
    }

    /// The distance to the anchor is the live fix's, not the one of the last write.
    @Test func theAnchorDistanceIsTheLatestFixs() throws {
        // A circle the boat stays in while the test runs.
        let running = try Self.start(temporaryDirectory(), extra: ["--anchor", "1000"])
        defer {
            running.run.signal(SIGINT)
            _ = running.run.finish()
            running.simulator.signal(SIGINT)
            _ = running.simulator.finish()
        }
        let latest = try Self.waitForStatus(running.state) { status in
            (status["anchor"] as? [String: Any])?["distance"] as? Double ?? 0 > 10 && status["live"] as? Bool == true
        }
        let fix = try #require(latest["last_fix"] as? [String: Any], "\(latest)")
        let anchor = try #require(latest["anchor"] as? [String: Any], "\(latest)")
        let fixAt = (lat: try #require(fix["lat"] as? Double), lon: try #require(fix["lon"] as? Double))
        let anchorAt = (lat: try #require(anchor["lat"] as? Double), lon: try #require(anchor["lon"] as? Double))
        let shown = try #require(anchor["distance"] as? Double)
        #expect(abs(shown - AnchorWatchTests.metres(fixAt, anchorAt)) < 1, "\(anchor) for the fix \(fix)")
        #expect(shown > 10, "the boat has moved off the anchor: \(anchor)")
    }

    /// `status --watch` off a terminal prints a frame a second: with no track written yet, its
    /// motion (speed, satellites) and its fence ahead come from the run's live fix.
    @Test func theLiveViewShowsTheMotionBeforeAnyTrackWrite() throws {
        let folder = temporaryDirectory()
        let running = try Self.start(folder)
        defer {
            running.run.signal(SIGINT)
            _ = running.run.finish()
            running.simulator.signal(SIGINT)
            _ = running.simulator.finish()
        }
        _ = try Self.waitForStatus(running.state) { $0["live"] as? Bool == true && Self.fixTime($0) != nil }
        let watch = try BackgroundGPSFence(["status", "--watch", "--state", running.state, "--interval", "1"])
        let frames = LineCollector(watch.output.fileHandleForReading)
        let moving = frames.wait(timeout: 30) { lines in
            lines.contains { $0.hasPrefix("  motion") && $0.contains("km/h") && $0.contains("satellites") }
        }
        watch.signal(SIGINT)
        _ = watch.finish()
        frames.finish()
        #expect(moving, "\(frames.all.suffix(20))")
        #expect(!frames.all.contains { $0.contains("no track point yet") }, "\(frames.all.prefix(20))")
    }

    @Test func aStoppedRunIsReadFromTheStateFile() throws {
        let running = try Self.start(temporaryDirectory())
        _ = try Self.waitForStatus(running.state) { $0["live"] as? Bool == true && Self.fixTime($0) != nil }
        running.run.signal(SIGINT)
        let stopped = running.run.finish()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        running.simulator.signal(SIGINT)
        _ = running.simulator.finish()
        #expect(!FileManager.default.fileExists(atPath: running.state + ".sock"), "the run removes its socket")
        let after = try Self.status(running.state)
        #expect(after["live"] as? Bool == false, "\(after)")
        #expect(after["running"] as? Bool == false, "\(after)")
        #expect(Self.fixTime(after) != nil, "the last fix the run wrote at its stop: \(after)")
    }

    /// A run killed with no chance to remove its socket leaves it behind; nobody listens there, so
    /// status reads the file, and the next run takes the path over.
    @Test func aSocketLeftByAKilledRunIsRefusedAndTakenOver() throws {
        let folder = temporaryDirectory()
        let running = try Self.start(folder)
        _ = try Self.waitForStatus(running.state) { $0["live"] as? Bool == true && Self.fixTime($0) != nil }
        running.run.signal(SIGKILL)
        _ = running.run.finish()
        #expect(FileManager.default.fileExists(atPath: running.state + ".sock"))
        let orphaned = try Self.status(running.state)
        #expect(orphaned["live"] as? Bool == false, "\(orphaned)")

        let again = try BackgroundGPSFence([
            "run", "--device", folder.appendingPathComponent("gps0").path, "--baud", "38400", "--fences",
            folder.appendingPathComponent("fences.geojson").path, "--state", running.state, "--json",
            "--track-write-interval", "3600",
        ])
        defer {
            again.signal(SIGINT)
            _ = again.finish()
            running.simulator.signal(SIGINT)
            _ = running.simulator.finish()
        }
        let live = try Self.waitForStatus(running.state) { $0["live"] as? Bool == true }
        #expect(live["live"] as? Bool == true, "\(live)")
    }
}
