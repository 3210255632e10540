import Foundation
import Testing

/// docs/events.md, `time`: a replay reads as the drive's timeline. Events no fix caused (a target
/// that is down) are on the replay's clock there, with the wall clock kept as `wall_time`; `run`
/// stamps them with the wall clock, which agrees with its fix times.
@Suite struct ReplayClockTests {
    static let gym = ["captures/gym/capture.nmea", "--fences", "captures/gym/fences.geojson"]

    static func isoTime(_ value: Any?) -> Date? {
        let format = ISO8601DateFormatter()
        format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return (value as? String).flatMap(format.date(from:))
    }

    static func jsonLines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// A dead webhook's `error` sits among the capture's times, and says when it really happened.
    @Test func aDeadWebhooksErrorIsOnTheReplaysClockInJSON() throws {
        let dead = "http://127.0.0.1:\(try freeLoopbackPort())/hook"
        let started = Date()
        let replay = try runGPSFence(
            ["replay"] + Self.gym + ["--webhook", dead, "--drain-timeout", "1", "--json"])
        let ended = Date()
        #expect(replay.status == 1, "undelivered events: \(replay.stderr)")
        let lines = Self.jsonLines(replay.stdout)
        let times = lines.map { Self.isoTime($0["time"]) }
        #expect(!times.isEmpty && times.allSatisfy { $0 != nil }, "\(replay.stdout)")
        let ordered = times.compactMap { $0 }
        #expect(zip(ordered, ordered.dropFirst()).allSatisfy { $0 <= $1 }, "out of order: \(replay.stdout)")

        let error = try #require(lines.first { $0["type"] as? String == "error" }, "\(replay.stdout)")
        #expect((error["message"] as? String)?.contains(dead) == true)
        let errorTime = try #require(Self.isoTime(error["time"]))
        let fixEvents = lines.filter { $0["type"] as? String != "error" }.compactMap { Self.isoTime($0["time"]) }
        #expect(errorTime >= fixEvents.min()! && errorTime <= fixEvents.max()!.addingTimeInterval(60))
        let wall = try #require(Self.isoTime(error["wall_time"]), "the wall clock is kept: \(error)")
        #expect(wall >= started.addingTimeInterval(-1) && wall <= ended.addingTimeInterval(1))
        #expect(lines.filter { $0["type"] as? String != "error" }.allSatisfy { $0["wall_time"] == nil })
    }

    /// The lines people read are in order too, in their own zone.
    @Test func aDeadWebhooksErrorIsInOrderInTheConsole() throws {
        let dead = "http://127.0.0.1:\(try freeLoopbackPort())/hook"
        let replay = try runGPSFence(
            ["replay"] + Self.gym + ["--webhook", dead, "--drain-timeout", "1"],
            environment: ["TZ": "America/New_York"])
        let lines = replay.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains(" error ") && $0.contains(dead) }, "\(replay.stdout)")
        // "2026-02-03 05:15:00" leads every line: in one zone, text order is time order.
        let stamps = lines.map { String($0.prefix(19)) }
        #expect(stamps.allSatisfy { $0.hasPrefix("2026-02-03 05:") }, "\(replay.stdout)")
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 <= $1 }, "out of order: \(replay.stdout)")
    }

    /// The state file's log and its field report keep the replay's order: no event from today
    /// after the drive's last.
    @Test func aReplayedStatesLogAndReportAreInOrder() throws {
        let folder = temporaryDirectory()
        let state = folder.appendingPathComponent("state.sqlite").path
        let dead = "http://127.0.0.1:\(try freeLoopbackPort())/hook"
        let replay = try runGPSFence(
            ["replay"] + Self.gym + ["--webhook", dead, "--drain-timeout", "1", "--state", state])
        #expect(replay.status == 0, "\(replay.stderr)")
        let page = folder.appendingPathComponent("report.html").path
        let report = try runGPSFence(["report", "--state", state, "--output", page])
        #expect(report.status == 0, "\(report.stderr)")
        // The event table: one row per event, its time in the first cell, its type in the chip.
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let rows = try Regex(#"<td>([0-9 :-]+Z)</td><td><span class="chip ev-([a-z_]+)"#)
        let table = html.matches(of: rows).map {
            (time: String($0.output[1].substring!), type: String($0.output[2].substring!))
        }
        #expect(table.contains { $0.type == "error" }, "\(table)")
        #expect(table.allSatisfy { $0.time.hasPrefix("2026-02-03 10:") }, "the drive's clock: \(table)")
        #expect(zip(table, table.dropFirst()).allSatisfy { $0.time <= $1.time }, "\(table)")
    }

    /// `run` is unchanged: its problems carry the wall clock (which is its fixes' clock) and no
    /// `wall_time`.
    @Test func runStampsProblemsWithTheWallClock() throws {
        let folder = temporaryDirectory()
        let started = Date()
        let run = try BackgroundGPSFence(
            [
                "run", "--device", folder.appendingPathComponent("no-such-gps").path, "--baud", "9600",
            ] + Self.gym.dropFirst() + ["--json"])
        let output = LineCollector(run.output.fileHandleForReading)
        #expect(output.wait { $0.contains { $0.contains(#""type":"error""#) } }, "\(output.all)")
        run.signal(SIGTERM)
        _ = run.finish()
        output.finish()
        let ended = Date()
        let error = try #require(
            Self.jsonLines(output.all.joined(separator: "\n")).first { $0["type"] as? String == "error" })
        let time = try #require(Self.isoTime(error["time"]))
        #expect(time >= started.addingTimeInterval(-1) && time <= ended.addingTimeInterval(1))
        #expect(error["wall_time"] == nil)
    }
}
