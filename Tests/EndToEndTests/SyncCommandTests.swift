import Foundation
import JSONOutput
import Testing

/// `--sync` (docs/running.md, "Track sync") end to end: the real binary, a real HTTP server on
/// 127.0.0.1 (Tests/Support/sync_server.py) that goes down, fails and comes back, the state file
/// read back with the sqlite3 shell.
@Suite(.serialized) struct SyncCommandTests {
    /// The sync test server, its port, and the requests it logged.
    final class SyncServer {
        let process: BackgroundProcess
        let port: String
        let log: URL

        init(folder: URL, arguments: [String] = []) throws {
            log = folder.appendingPathComponent("requests-\(UUID().uuidString).jsonl")
            process = try BackgroundProcess(
                ["python3", packageRoot.appendingPathComponent("Tests/Support/sync_server.py").path, log.path]
                    + arguments)
            port = process.readFirstLine()
        }

        var url: String { "http://127.0.0.1:\(port)/track" }

        var requests: [[String: Any]] {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }

        /// The point ids of a JSON-format request, in order.
        static func ids(_ request: [String: Any]) -> [Int64] {
            guard let body = request["body"] as? String,
                let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
                let locations = object["locations"] as? [[String: Any]]
            else { return [] }
            return locations.compactMap { ($0["id"] as? NSNumber)?.int64Value }
        }

        static func accepted(_ request: [String: Any]) -> Bool { request["status"] as? Int == 200 }
    }

    /// Rows of the state file, with the sqlite3 command-line shell (one JSON object per row).
    static func query(_ state: String, _ sql: String) throws -> [[String: Any]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", "-json", state, sql]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard !data.isEmpty else { return [] }
        return (try JSONSerialization.jsonObject(with: data) as? [[String: Any]]) ?? []
    }

    static func trackTimes(_ state: String) throws -> [Int64] {
        try query(state, "SELECT time FROM track ORDER BY time").compactMap { ($0["time"] as? NSNumber)?.int64Value }
    }

    static func folder() throws -> URL {
        let folder = temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// `count` fixes one second apart going north-east from 47 N 8 E at 12.5 knots, course 45°,
    /// 512.3 m high, as RMC + GGA, from 2026-02-03 10:00:00 UTC; and a fence file beside it.
    static func capture(in folder: URL, count: Int) throws -> (capture: String, fences: String) {
        try capture(in: folder, moving: Array(repeating: true, count: count))
    }

    /// As above, one fix a second; where `moving` is false the receiver stands still (speed 0).
    static func capture(in folder: URL, moving: [Bool]) throws -> (capture: String, fences: String) {
        func checksummed(_ body: String) -> String {
            String(format: "$%@*%02X\r\n", body, body.utf8.reduce(0) { $0 ^ $1 })
        }
        var text = ""
        var steps = 0.0
        for (second, moves) in moving.enumerated() {
            if moves { steps += 1 }
            let time = String(format: "10%02d%02d.00", second / 60, second % 60)
            // About 25 m north and 25 m east a second.
            let lat = String(format: "47%07.4f", 0.1 + steps * 0.0137)
            let lon = String(format: "008%07.4f", 0.2 + steps * 0.0201)
            let knots = moves ? "12.5" : "0.0"
            text += checksummed("GPGGA,\(time),\(lat),N,\(lon),E,1,09,0.9,512.3,M,47.0,M,,")
            text += checksummed("GPRMC,\(time),A,\(lat),N,\(lon),E,\(knots),45.0,030226,,,A")
        }
        let capture = folder.appendingPathComponent("drive.nmea")
        try text.write(to: capture, atomically: true, encoding: .utf8)
        let fences = folder.appendingPathComponent("fences.geojson")
        try
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"yard","geometry":{"type":"Point","coordinates":[8.00004,47.00002]},"properties":{"radius":100}}]}"#
            .write(to: fences, atomically: true, encoding: .utf8)
        return (capture.path, fences.path)
    }

    /// Half a step of the last decimal the JSON writer prints positions with: the most a sent
    /// position may differ from the stored one.
    static let positionStep = 0.5 / pow(10, Double(JSONPrecision.coordinate)) * 1.000001

    /// What a replay with `--sync` left: its standard output, the server it synced to, its state file.
    struct SyncedReplay {
        let output: String
        let server: SyncServer
        let state: String
    }

    /// Replays `capture` with `--sync` to a fresh server (`query` appended to its URL) into a fresh
    /// state file named `state`, and checks that the replay succeeded.
    static func syncedReplay(
        _ capture: String, fences: String, in folder: URL, state name: String = "state.sqlite", query: String = "",
        _ options: [String]
    ) throws -> SyncedReplay {
        let server = try SyncServer(folder: folder)
        let state = folder.appendingPathComponent(name).path
        let result = try runGPSFence(
            ["replay", capture, "--fences", fences, "--state", state, "--sync", server.url + query] + options)
        #expect(result.status == 0, "\(result.stderr)")
        return SyncedReplay(output: result.stdout, server: server, state: state)
    }

    // MARK: - Batching options

    /// With the threshold out of reach, nothing goes out during the replay; the drain at its end
    /// sends the whole track in batches of `--sync-batch`: ceil(n / batch) requests.
    @Test func batchSizeSetsTheNumberOfRequests() throws {
        let folder = try Self.folder()
        let (capture, fences) = try Self.capture(in: folder, count: 45)
        for batch in [7, 100] {
            let replay = try Self.syncedReplay(
                capture, fences: fences, in: folder, state: "batch-\(batch).sqlite",
                ["--sync-id", "van1", "--sync-batch", String(batch), "--sync-threshold", "1000000"])
            let track = try Self.trackTimes(replay.state)
            #expect(track.count == 45)
            let requests = replay.server.requests
            #expect(requests.count == (45 + batch - 1) / batch, "batch \(batch): \(requests.count) requests")
            #expect(requests.dropLast().allSatisfy { SyncServer.ids($0).count == batch })
            #expect(requests.flatMap(SyncServer.ids) == track)
            #expect(requests.allSatisfy { $0["method"] as? String == "POST" && $0["path"] as? String == "/track" })
        }
    }

    /// `--sync-threshold N`: while the replay runs, no request carries fewer than N points; only
    /// the drain at the end may send a smaller rest. The track reaches the state file in batches
    /// (every 30 s of wall time, or 256 points), so the replay lasts long enough (15 s) for the
    /// first batch of 256 to be written and sent before the end.
    @Test func thresholdHoldsPointsBack() throws {
        let folder = try Self.folder()
        let (capture, fences) = try Self.capture(in: folder, count: 300)
        let replay = try Self.syncedReplay(
            capture, fences: fences, in: folder, ["--speed", "20", "--sync-threshold", "40", "--sync-batch", "1000"])
        let requests = replay.server.requests
        #expect(requests.count >= 2, "the threshold was reached during the replay: \(requests.count)")
        #expect(requests.dropLast().allSatisfy { SyncServer.ids($0).count >= 40 })
        #expect(requests.flatMap(SyncServer.ids) == (try Self.trackTimes(replay.state)))
    }

    /// A stop and a start (`stationary`, `moving`) send what is queued at once, below the
    /// threshold: the same replay without motion events (`--stationary 0`) sends one request, at
    /// its end; with them, the first request leaves before the end of the track.
    @Test func motionEventsFlushEagerly() throws {
        let folder = try Self.folder()
        let moving = (0..<180).map { $0 < 40 || $0 >= 140 }
        let (capture, fences) = try Self.capture(in: folder, moving: moving)
        var counts: [String: Int] = [:]
        for stationary in ["0", "10"] {
            let replay = try Self.syncedReplay(
                capture, fences: fences, in: folder, state: "motion-\(stationary).sqlite",
                [
                    "--speed", "40", "--stationary", stationary, "--json", "--sync-threshold", "100000",
                    "--sync-batch", "1000",
                ])
            let track = try Self.trackTimes(replay.state)
            let requests = replay.server.requests
            #expect(requests.flatMap(SyncServer.ids) == track)
            counts[stationary] = requests.count
            if stationary == "10" {
                #expect(types(replay.output.split(separator: "\n").map(String.init)).contains("stationary"))
                #expect(SyncServer.ids(requests[0]).last ?? 0 < track.last ?? 0, "sent before the end")
                let motion = requests.flatMap { request -> [String] in
                    guard let body = request["body"] as? String,
                        let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
                    else { return [] }
                    return (object["locations"] as? [[String: Any]] ?? []).compactMap { $0["motion"] as? String }
                }
                #expect(motion.contains("stationary") && motion.last == "moving", "the motion field follows the events")
            }
        }
        #expect(counts["0"] == 1)
        #expect((counts["10"] ?? 0) >= 2)
    }

    /// `--sync-interval S` sends what is queued every S seconds, below the threshold.
    @Test func intervalSendsBelowTheThreshold() throws {
        let folder = try Self.folder()
        let (capture, fences) = try Self.capture(in: folder, count: 120)
        let replay = try Self.syncedReplay(
            capture, fences: fences, in: folder,
            ["--speed", "30", "--sync-threshold", "100000", "--sync-interval", "1"])
        // 4 s of replay: a request about every second, then the rest at the end.
        let requests = replay.server.requests
        #expect(requests.count >= 3, "\(requests.count) requests")
        #expect(requests.flatMap(SyncServer.ids) == (try Self.trackTimes(replay.state)))
    }

    // MARK: - The JSON body and the OsmAnd form

    @Test func jsonBodyCarriesEveryField() throws {
        let folder = try Self.folder()
        let (capture, fences) = try Self.capture(in: folder, count: 5)
        let replay = try Self.syncedReplay(
            capture, fences: fences, in: folder, ["--sync-id", "van 1", "--sync-threshold", "1000"])
        let state = replay.state
        let request = try #require(replay.server.requests.first)
        #expect((request["headers"] as? [String: String])?["content-type"] == "application/json")
        let body = try #require(
            try JSONSerialization.jsonObject(with: Data((request["body"] as? String ?? "").utf8)) as? [String: Any])
        #expect(body["device"] as? String == "van 1")
        let locations = try #require(body["locations"] as? [[String: Any]])
        let rows = try Self.query(state, "SELECT * FROM track ORDER BY time")
        #expect(locations.count == rows.count)
        for (location, row) in zip(locations, rows) {
            let time = try #require((row["time"] as? NSNumber)?.int64Value)
            #expect((location["id"] as? NSNumber)?.int64Value == time)
            #expect(location["time"] as? String == ISO8601.string(milliseconds: time))
            #expect(abs((location["lat"] as? Double ?? 0) - (row["lat"] as? Double ?? 1)) <= Self.positionStep)
            #expect(abs((location["lon"] as? Double ?? 0) - (row["lon"] as? Double ?? 1)) <= Self.positionStep)
            #expect(abs((location["alt"] as? Double ?? 0) - 512.3) < 0.005)
            #expect(abs((location["speed"] as? Double ?? 0) - 12.5 * 1852 / 3600) < 0.0005)
            #expect(abs((location["track"] as? Double ?? 0) - 45) < 0.005)
            #expect(location["accuracy"] is Double)
            #expect(location["odometer"] is Double)
            #expect(location["motion"] is NSNull || location["motion"] is String)
        }
        // The odometer grows along the day's points (about 26 m between these fixes).
        let odometers = locations.compactMap { $0["odometer"] as? Double }
        #expect(odometers.first == 0)
        #expect(zip(odometers, odometers.dropFirst()).allSatisfy { $0 <= $1 } && (odometers.last ?? 0) > 50)
    }

    /// `--sync-format osmand`: one request per point, its fields as Traccar's OsmAnd protocol
    /// describes them (id, lat, lon, timestamp in seconds, speed in knots, bearing, altitude,
    /// accuracy), checked one by one against the state file's track.
    @Test func osmAndFieldsOneByOne() throws {
        let folder = try Self.folder()
        let (capture, fences) = try Self.capture(in: folder, count: 6)
        let replay = try Self.syncedReplay(
            capture, fences: fences, in: folder, query: "?key=k1", ["--sync-format", "osmand", "--sync-id", "van 1"])
        let requests = replay.server.requests
        let rows = try Self.query(replay.state, "SELECT * FROM track ORDER BY time")
        #expect(rows.count == 6)
        #expect(requests.count == rows.count)
        for (request, row) in zip(requests, rows) {
            let query = try #require(request["query"] as? [String: String])
            #expect(query["key"] == "k1", "the server's own query is kept")
            #expect(query["id"] == "van 1")
            let time = try #require((row["time"] as? NSNumber)?.int64Value)
            #expect(query["timestamp"] == String(time / 1000))
            #expect(abs((Double(query["lat"] ?? "") ?? 0) - (row["lat"] as? Double ?? 1)) <= Self.positionStep)
            #expect(abs((Double(query["lon"] ?? "") ?? 0) - (row["lon"] as? Double ?? 1)) <= Self.positionStep)
            #expect(abs((Double(query["speed"] ?? "") ?? 0) - 12.5) < 0.0005, "knots, as the receiver said")
            #expect(abs((Double(query["bearing"] ?? "") ?? 0) - 45) < 0.005)
            #expect(abs((Double(query["altitude"] ?? "") ?? 0) - 512.3) < 0.005)
            #expect(
                abs((Double(query["accuracy"] ?? "") ?? -1) - (row["accuracy"] as? Double ?? -2)) < 0.005)
        }
    }

    // MARK: - Down, failing, back; by hand; after kill -9

    /// A live run fed by `simulate`; the server refuses connections for 2 s, then answers 500 for
    /// 2 s, then 200. Every track point arrives, in order, exactly once among the acknowledged
    /// requests; each failed request is a retry of the batch that was acknowledged next; one
    /// `error` event for the whole outage; in both formats. (The issue's 60 s outage would only add
    /// backoff rounds: refused connections and 5xx answers take the same path whatever their length.)
    @Test(arguments: ["json", "osmand"]) func liveRunAcrossAnOutage(format: String) throws {
        let folder = try Self.folder()
        let (fences, route) = try RunCommandTests().writeFiles(folder)
        let server = try SyncServer(folder: folder, arguments: ["--down", "2", "--fail", "2"])
        let link = folder.appendingPathComponent("gps0").path
        let simulator = try BackgroundGPSFence([
            "simulate", route, "--baud", "38400", "--rate", "5", "--speed", "20", "--loop", "--link", link, "--start",
            "2026-02-03T10:15:00Z",
        ])
        _ = simulator.readFirstLine()
        let state = folder.appendingPathComponent("state.sqlite").path
        let run = try BackgroundGPSFence([
            "run", "--device", link, "--baud", "38400", "--fences", fences, "--state", state, "--json",
            "--track-write-interval", "1", "--sync",
            server.url, "--sync-batch", "50", "--drain-timeout", "30", "--sync-format", format,
        ])
        let output = LineCollector(run.output.fileHandleForReading)
        // OsmAnd: one request per point, so 3 acknowledged requests are not yet past the outage.
        #expect(
            output.wait(timeout: 60) { _ in
                server.requests.filter(SyncServer.accepted).count >= (format == "json" ? 3 : 8)
            },
            "the server took batches once back: \(server.requests.count) requests")
        simulator.signal(SIGINT)
        _ = simulator.finish()
        run.signal(SIGINT)
        let stopped = run.finish()
        output.finish()
        #expect(stopped.status == 0, "\(stopped.stderr)")

        // OsmAnd's timestamps are whole seconds; the points are at least a second apart.
        let track = try Self.trackTimes(state).map { format == "json" ? $0 : $0 / 1000 }
        #expect(track.count >= 5)
        func ids(_ request: [String: Any]) -> [Int64] {
            guard format == "osmand" else { return SyncServer.ids(request) }
            let query = request["query"] as? [String: String]
            return [query?["timestamp"].flatMap { Int64($0) }].compactMap { $0 }
        }
        let requests = server.requests
        let accepted = requests.filter(SyncServer.accepted)
        if format == "json" {
            #expect(ids(accepted[0]).count > 1, "the points queued during the outage went in one batch")
        }
        #expect(accepted.flatMap(ids) == track, "every point once, in order")
        let failed = requests.filter { !SyncServer.accepted($0) }
        #expect(!failed.isEmpty, "the 500 phase was seen")
        // A failed request is the batch that follows the last acknowledged point, sent again.
        for request in failed {
            let first = try #require(ids(request).first)
            #expect(accepted.contains { ids($0).first == first }, "retried batch starts at \(first)")
        }
        let errors = output.all.filter { $0.contains("\"error\"") && $0.contains("track sync") }
        #expect(errors.filter { $0.contains("retrying") }.count == 1, "one error per outage: \(errors)")
        // The server back is no `error` event: it is said on standard error.
        #expect(!errors.contains { $0.contains("reachable again") }, "\(errors)")
        #expect(stopped.stderr.contains("is reachable again"), "\(stopped.stderr)")

        let status = try runGPSFence(["status", "--state", state, "--json"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        let sync = try #require((object["sync"] as? [[String: Any]])?.first)
        #expect(sync["backlog"] as? Int == 0)
        let last = try #require(try Self.trackTimes(state).last)
        #expect(sync["last_acked_point"] as? String == ISO8601.string(milliseconds: last))
        #expect((sync["last_error"] as? String)?.isEmpty == false)
    }

    /// A run killed with SIGKILL while the server fails, restarted once it is back: nothing is
    /// lost, no acknowledged point is sent again, and the first request of the new run is the
    /// batch that failed.
    @Test func killNineWhileTheServerFailsResendsOnlyTheUnacknowledgedBatch() throws {
        let folder = try Self.folder()
        let (fences, route) = try RunCommandTests().writeFiles(folder)
        let control = folder.appendingPathComponent("status")
        let server = try SyncServer(folder: folder, arguments: ["--status-file", control.path])
        let link = folder.appendingPathComponent("gps0").path
        let simulator = try BackgroundGPSFence([
            "simulate", route, "--baud", "38400", "--rate", "5", "--speed", "20", "--loop", "--link", link, "--start",
            "2026-02-03T10:15:00Z",
        ])
        _ = simulator.readFirstLine()
        let state = folder.appendingPathComponent("state.sqlite").path
        let arguments = [
            "run", "--device", link, "--baud", "38400", "--fences", fences, "--state", state, "--json",
            "--track-write-interval", "1", "--sync",
            server.url, "--sync-batch", "20",
        ]
        let first = try BackgroundGPSFence(arguments)
        let firstOutput = LineCollector(first.output.fileHandleForReading)
        #expect(firstOutput.wait(timeout: 60) { _ in server.requests.filter(SyncServer.accepted).count >= 2 })
        try "500".write(to: control, atomically: true, encoding: .utf8)
        // The outage's `error` event is printed after the cursor was written.
        #expect(firstOutput.wait(timeout: 30) { $0.contains { $0.contains("retrying with backoff") } })
        first.signal(SIGKILL)
        _ = first.finish()
        firstOutput.finish()
        let beforeRestart = server.requests
        let lastFailed = try #require(beforeRestart.last { !SyncServer.accepted($0) })

        try "200".write(to: control, atomically: true, encoding: .utf8)
        let second = try BackgroundGPSFence(arguments)
        let secondOutput = LineCollector(second.output.fileHandleForReading)
        #expect(
            secondOutput.wait(timeout: 60) { _ in
                server.requests.dropFirst(beforeRestart.count).filter(SyncServer.accepted).count >= 3
            })
        simulator.signal(SIGINT)
        _ = simulator.finish()
        second.signal(SIGINT)
        #expect(second.finish().status == 0)
        secondOutput.finish()

        let afterRestart = Array(server.requests.dropFirst(beforeRestart.count))
        let resent = try #require(afterRestart.first)
        #expect(SyncServer.ids(resent).first == SyncServer.ids(lastFailed).first, "the failed batch comes first")
        let acknowledged = server.requests.filter(SyncServer.accepted).flatMap(SyncServer.ids)
        #expect(acknowledged == (try Self.trackTimes(state)), "nothing lost, nothing acknowledged twice")
    }

    /// A run killed with SIGKILL while the server answers: nothing is lost; what is sent again is
    /// only points acknowledged in the last minute before the kill (the cursor's write interval,
    /// docs/running.md), once each, right before the new points.
    @Test func killNineWhileTheServerAnswersLosesNothing() throws {
        let folder = try Self.folder()
        let (fences, route) = try RunCommandTests().writeFiles(folder)
        let server = try SyncServer(folder: folder)
        let link = folder.appendingPathComponent("gps0").path
        let simulator = try BackgroundGPSFence([
            "simulate", route, "--baud", "38400", "--rate", "5", "--speed", "20", "--loop", "--link", link, "--start",
            "2026-02-03T10:15:00Z",
        ])
        _ = simulator.readFirstLine()
        let state = folder.appendingPathComponent("state.sqlite").path
        let arguments = [
            "run", "--device", link, "--baud", "38400", "--fences", fences, "--state", state, "--track-write-interval",
            "1", "--sync", server.url,
        ]
        let first = try BackgroundGPSFence(arguments)
        #expect(LineCollector(first.output.fileHandleForReading).wait(timeout: 60) { _ in server.requests.count >= 3 })
        first.signal(SIGKILL)
        _ = first.finish()
        let beforeKill = server.requests.flatMap(SyncServer.ids)
        let second = try BackgroundGPSFence(arguments)
        #expect(
            LineCollector(second.output.fileHandleForReading).wait(timeout: 60) { _ in
                server.requests.flatMap(SyncServer.ids).count >= beforeKill.count + 3
            })
        simulator.signal(SIGINT)
        _ = simulator.finish()
        second.signal(SIGINT)
        #expect(second.finish().status == 0)

        let received = server.requests.flatMap(SyncServer.ids)
        let track = try Self.trackTimes(state)
        #expect(Set(received) == Set(track), "nothing lost")
        let afterKill = Array(received.dropFirst(beforeKill.count))
        let repeated = afterKill.filter { beforeKill.contains($0) }
        #expect(afterKill.prefix(repeated.count).elementsEqual(repeated), "repeats come first")
        #expect(repeated.elementsEqual(beforeKill.suffix(repeated.count)), "only the last acknowledged points")
        #expect((repeated.last ?? 0) - (repeated.first ?? 0) <= 60_000)
        #expect(afterKill.dropFirst(repeated.count).elementsEqual(track.filter { $0 > (beforeKill.last ?? 0) }))
    }

    /// A replay whose server never answers keeps its points queued (status says so); `gpsfence
    /// sync` sends them by hand later.
    @Test func syncByHandSendsTheBacklog() throws {
        let folder = try Self.folder()
        let (capture, fences) = try Self.capture(in: folder, count: 30)
        let state = folder.appendingPathComponent("state.sqlite").path
        let absent = try SyncServer(folder: folder, arguments: ["--down", "600"])
        let replay = try runGPSFence([
            "replay", capture, "--fences", fences, "--state", state, "--sync", absent.url, "--drain-timeout", "1",
        ])
        absent.process.kill()
        #expect(replay.status == 0, "\(replay.stderr)")
        let status = try runGPSFence(["status", "--state", state, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        let cursor = try #require((object["sync"] as? [[String: Any]])?.first)
        #expect(cursor["backlog"] as? Int == 30)
        #expect(cursor["last_acked_point"] is NSNull)
        #expect((cursor["last_error"] as? String)?.isEmpty == false)

        // Another server at the same address, with a header from a file.
        let token = folder.appendingPathComponent("token")
        try "Bearer s3cret\n".write(to: token, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: token.path)
        let server = try SyncServer(folder: folder, arguments: ["--port", absent.port])
        let sync = try runGPSFence([
            "sync", "--state", state, "--sync", absent.url, "--sync-batch", "8", "--sync-header",
            "Authorization: @\(token.path)",
        ])
        #expect(sync.status == 0, "\(sync.stderr)")
        let requests = server.requests
        #expect(requests.count == 4)
        #expect(requests.flatMap(SyncServer.ids) == (try Self.trackTimes(state)))
        #expect(requests.allSatisfy { ($0["headers"] as? [String: String])?["authorization"] == "Bearer s3cret" })
        let again = try runGPSFence(["sync", "--state", state, "--sync", absent.url])
        #expect(again.status == 0)
        #expect(server.requests.count == 4, "nothing acknowledged is sent again")
    }

    /// Bad sync options are bad usage (exit 2), named, before anything runs.
    @Test func badOptionsAreNamed() throws {
        let folder = try Self.folder()
        let (capture, fences) = try Self.capture(in: folder, count: 3)
        let state = folder.appendingPathComponent("state.sqlite").path
        let cases: [([String], String)] = [
            (["--sync", "http://127.0.0.1:9/"], "--sync needs --state"),
            (["--state", state, "--sync", "ftp://host/"], "--sync ftp://host/: not an http:// or https:// URL"),
            (["--state", state, "--sync-batch", "5"], "--sync-batch goes with --sync"),
            (["--state", state, "--sync", "http://h/", "--sync-batch", "0"], "--sync-batch must be 1 to 10000, not 0"),
            (
                ["--state", state, "--sync", "http://h/", "--sync-format", "gpx"],
                "--sync-format must be json or osmand"
            ),
            (
                ["--state", state, "--sync", "http://h/", "--sync-header", "Bad Name: 1"],
                "'Bad Name' is not a header name"
            ),
        ]
        for (options, message) in cases {
            let result = try runGPSFence(["replay", capture, "--fences", fences] + options)
            #expect(result.status == 2, "\(options)")
            #expect(result.stderr.contains(message), "\(options): \(result.stderr)")
        }
        let missing = try runGPSFence([
            "sync", "--state", folder.appendingPathComponent("none").path, "--sync", "http://h/",
        ])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no state file"))
    }

    /// `--webhook-header` is the same option as `--sync-header`.
    @Test func webhookHeaders() throws {
        let folder = try Self.folder()
        let (capture, fences) = try Self.capture(in: folder, count: 3)
        let server = try SyncServer(folder: folder)
        let secret = folder.appendingPathComponent("secret")
        try "abc123".write(to: secret, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secret.path)
        let result = try runGPSFence([
            "replay", capture, "--fences", fences, "--webhook", server.url, "--webhook-header",
            "X-Api-Key: @\(secret.path)",
            "--webhook-header", "Title: @@home",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let requests = server.requests
        #expect(!requests.isEmpty)
        for request in requests {
            let headers = request["headers"] as? [String: String] ?? [:]
            #expect(headers["x-api-key"] == "abc123")
            #expect(headers["title"] == "@home")
            #expect(headers["x-gpsfence-event-id"] != nil)
        }
        let bad = try runGPSFence([
            "replay", capture, "--fences", fences, "--webhook", server.url, "--webhook-header",
            "X-Api-Key: @/no/such/file",
        ])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--webhook-header X-Api-Key: open '/no/such/file' failed"), "\(bad.stderr)")
    }
}

/// Fix times as the JSON outputs print them.
enum ISO8601 {
    static func string(milliseconds: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'"
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}
