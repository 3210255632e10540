import Foundation
import Testing

/// What `status` says of a state file that runs, replays and a `gpsfence sync` have used in turn
/// (docs/report.md): each target where it belongs, errors with their times, and a replay's fixes
/// and a changed fence file spoken of truly. The real binary on real files and ports.
@Suite(.serialized) struct StatusAfterRunsTests {
    /// A replay of a 40-second drive out of the yard into `state`, delivering to `webhook`.
    static func replay(_ capture: String, _ fences: String, state: String, extra: [String]) throws -> CommandResult {
        try runGPSFence(["replay", capture, "--fences", fences, "--state", state] + extra)
    }

    /// A webhook and a track server of earlier runs, both dead: while they are the last run's,
    /// they are its deliveries (their errors timed); once a replay without them ran, they are
    /// shown apart as previous, and `--forget` removes each one and nothing else.
    @Test func targetsTheLastRunDidNotHaveAreShownApartAndCanBeForgotten() throws {
        let folder = try SyncCommandTests.folder()
        let (capture, fences) = try SyncCommandTests.capture(in: folder, count: 40)
        let state = folder.appendingPathComponent("state.sqlite").path
        let dead = try freeLoopbackPort()
        let hook = "http://127.0.0.1:\(dead)/hook"
        let track = "http://127.0.0.1:\(dead)/track"

        let first = try Self.replay(capture, fences, state: state, extra: ["--webhook", hook, "--drain-timeout", "1"])
        #expect(first.status == 0, "\(first.stderr)")
        // A replay does not promise to retry for ever: it retries until its end, then counts.
        let down = try #require(first.stdout.split(separator: "\n").first { $0.contains("error") && $0.contains(hook) })
        #expect(!down.contains("nothing is dropped") && down.contains("until the replay ends"), "\(down)")
        #expect(first.stderr.contains("events remain queued in \(state)"), "\(first.stderr)")
        var status = try runGPSFence(["status", "--state", state])
        #expect(status.status == 0, "\(status.stderr)")
        let hookLine = try #require(status.stdout.split(separator: "\n").first { $0.contains(hook) })
        #expect(hookLine.contains("last error: ") && hookLine.contains(" (at 20"), "\(hookLine)")
        #expect(!status.stdout.contains("previous targets"), "\(status.stdout)")
        let json = try #require(jsonObject(try runGPSFence(["status", "--state", state, "--json"]).stdout))
        let outbox = try #require(json["outbox"] as? [[String: Any]])
        #expect(outbox.count == 1 && outbox.first?["last_error_at"] is String, "\(outbox)")

        let sync = try runGPSFence(["sync", "--state", state, "--sync", track, "--drain-timeout", "1"])
        #expect(sync.status == 1, "nothing answers: \(sync.stderr)")

        // The same capture again, without the targets: its fixes are held already, but it is now
        // the last run, and it had no targets.
        let second = try Self.replay(capture, fences, state: state, extra: [])
        #expect(second.status == 0, "\(second.stderr)")
        status = try runGPSFence(["status", "--state", state])
        let lines = status.stdout.split(separator: "\n").map(String.init)
        let previous = try #require(lines.firstIndex { $0.contains("previous targets") }, "\(status.stdout)")
        #expect(!lines.contains { $0.trimmingCharacters(in: .whitespaces) == "deliveries" }, "\(status.stdout)")
        #expect(!lines.contains { $0.trimmingCharacters(in: .whitespaces) == "track sync" }, "\(status.stdout)")
        #expect(lines[previous...].contains { $0.contains(hook) && $0.contains("waiting") })
        #expect(lines[previous...].contains { $0.contains(track) && $0.contains("track points not sent") })

        let events = try SyncCommandTests.query(state, "SELECT COUNT(*) AS n FROM event").first?["n"] as? Int
        let points = try SyncCommandTests.query(state, "SELECT COUNT(*) AS n FROM track").first?["n"] as? Int
        #expect((events ?? 0) > 0 && (points ?? 0) > 0)
        let forgot = try runGPSFence(["status", "--state", state, "--forget", hook])
        #expect(forgot.status == 0, "\(forgot.stderr)")
        #expect(forgot.stdout.contains("forgot \(hook)"), "\(forgot.stdout)")
        #expect(try runGPSFence(["status", "--state", state, "--forget", track]).status == 0)
        status = try runGPSFence(["status", "--state", state])
        #expect(!status.stdout.contains(hook) && !status.stdout.contains(track), "\(status.stdout)")
        #expect(!status.stdout.contains("previous targets"), "\(status.stdout)")
        #expect(try SyncCommandTests.query(state, "SELECT COUNT(*) AS n FROM event").first?["n"] as? Int == events)
        #expect(try SyncCommandTests.query(state, "SELECT COUNT(*) AS n FROM track").first?["n"] as? Int == points)

        let unknown = try runGPSFence(["status", "--state", state, "--forget", "http://127.0.0.1:1/none"])
        #expect(unknown.status == 2 && unknown.stderr.contains("no target"), "\(unknown.stderr)")
    }

    /// A target of the last run is not forgotten: the next run would deliver what waits for it.
    @Test func theLastRunsTargetIsNotForgotten() throws {
        let folder = try SyncCommandTests.folder()
        let (capture, fences) = try SyncCommandTests.capture(in: folder, count: 10)
        let state = folder.appendingPathComponent("state.sqlite").path
        let hook = "http://127.0.0.1:\(try freeLoopbackPort())/hook"
        let replay = try Self.replay(capture, fences, state: state, extra: ["--webhook", hook, "--drain-timeout", "1"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let forgot = try runGPSFence(["status", "--state", state, "--forget", hook])
        #expect(forgot.status == 2 && forgot.stderr.contains("target of the last run"), "\(forgot.stderr)")
        let json = try #require(jsonObject(try runGPSFence(["status", "--state", state, "--json"]).stdout))
        #expect((json["outbox"] as? [[String: Any]])?.first?["pending"] as? Int ?? 0 > 0)
    }

    /// A replay's last fix is from the capture's past: no "0.0 s ago", but when it was replayed.
    /// A fence entered and left has no `since`; a fence added to the file after the replay, around
    /// its last fix, is not called `outside` while `inside the edge`.
    @Test func aReplaysStateAndAFenceAddedAfterIt() throws {
        let folder = try SyncCommandTests.folder()
        let (capture, fences) = try SyncCommandTests.capture(in: folder, count: 40)
        // The yard around the first fix, which the drive leaves.
        let yardJSON =
            #"{"type":"Feature","id":"yard","geometry":{"type":"Point","coordinates":[8.00334,47.00168]},"properties":{"radius":100}}"#
        try #"{"type":"FeatureCollection","features":[\#(yardJSON)]}"#.write(
            toFile: fences, atomically: true, encoding: .utf8)
        let state = folder.appendingPathComponent("state.sqlite").path
        let replay = try Self.replay(capture, fences, state: state, extra: ["--json"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains(#""type":"exit""#), "the drive leaves the yard: \(replay.stdout)")

        var status = try runGPSFence(["status", "--state", state])
        let fixLine = try #require(status.stdout.split(separator: "\n").first { $0.contains("last fix") })
        #expect(fixLine.contains("replayed at") && !fixLine.contains("ago"), "\(fixLine)")
        var json = try #require(jsonObject(try runGPSFence(["status", "--state", state, "--json"]).stdout))
        let lastFix = try #require(json["last_fix"] as? [String: Any])
        #expect(lastFix["age"] == nil && json["replayed"] as? Bool == true, "\(json)")
        let yard = try #require((json["fences"] as? [[String: Any]])?.first { $0["id"] as? String == "yard" })
        #expect(yard["inside"] as? Bool == false && yard.keys.contains("since") == false, "\(yard)")

        // A circle around the last fix, added while nothing runs.
        let lat = try #require(lastFix["lat"] as? Double)
        let lon = try #require(lastFix["lon"] as? Double)
        usleep(50_000)  // a modification time after the replay's last write, not a wait for a state
        try
            #"{"type":"FeatureCollection","features":[\#(yardJSON),{"type":"Feature","id":"new","geometry":{"type":"Point","coordinates":[\#(lon),\#(lat)]},"properties":{"radius":50}}]}"#
            .write(toFile: fences, atomically: true, encoding: .utf8)
        status = try runGPSFence(["status", "--state", state])
        let lines = status.stdout.split(separator: "\n").map(String.init)
        let title = try #require(lines.firstIndex { $0.contains("[new]") }, "\(status.stdout)")
        let card = lines[title..<min(lines.count, title + 4)].joined(separator: "\n")
        #expect(card.contains("not watched yet"), "\(card)")
        #expect(!card.contains("│ outside"), "\(card)")
        json = try #require(jsonObject(try runGPSFence(["status", "--state", state, "--json"]).stdout))
        let new = try #require((json["fences"] as? [[String: Any]])?.first { $0["id"] as? String == "new" })
        #expect(new["watched"] as? Bool == false, "\(new)")
    }
}
