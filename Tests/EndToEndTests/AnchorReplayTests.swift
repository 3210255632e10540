import Foundation
import Testing

/// A recorded night at anchor replayed (docs/running.md, "At anchor"): `replay --anchor --alarm`
/// through the real binary, on captures of marina multipath written by scripts/anchor_captures.py
/// (errors wandering 5-15 m for minutes, spikes of 30-50 m for 5-20 s, GST present). The
/// expectations are worked out here from the capture's own fixes and the generator's truth, not
/// from gpsfence.
@Suite struct AnchorReplayTests {
    static let anchor = "54.323300,10.139400"
    static let anchorLat = 54.3233
    static let anchorLon = 10.1394
    /// The captures start at 2026-06-20T22:00:00Z.
    static let start = 1_781_992_800.0

    /// A capture from the generator, and what it says of it (`--describe`).
    static func generate(_ arguments: [String], in folder: URL, name: String) throws -> (
        path: String, truth: [String: Any]
    ) {
        let script = packageRoot.appendingPathComponent("scripts/anchor_captures.py").path
        let nmea = try runProgram("/usr/bin/env", ["python3", script] + arguments)
        #expect(nmea.status == 0, "\(nmea.stderr)")
        let path = folder.appendingPathComponent(name)
        try nmea.stdout.write(to: path, atomically: true, encoding: .utf8)
        let described = try runProgram("/usr/bin/env", ["python3", script] + arguments + ["--describe"])
        let truth = try #require(JSONSerialization.jsonObject(with: Data(described.stdout.utf8)) as? [String: Any])
        return (path.path, truth)
    }

    /// Each epoch's second from the start, its distance from the anchor (haversine) and GST's
    /// 1-sigma horizontal error, read from the capture's GGA and GST.
    static func fixes(_ path: String) throws -> [(second: Double, distance: Double, error: Double)] {
        var out: [(Double, Double, Double)] = []
        var position: (second: Double, distance: Double)?
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\r\n") {
            let fields = line.split(separator: "*")[0].split(separator: ",", omittingEmptySubsequences: false)
            if fields[0] == "$GPGGA" {
                let lat = Double(fields[2].prefix(2))! + Double(fields[2].dropFirst(2))! / 60
                let lon = Double(fields[4].prefix(3))! + Double(fields[4].dropFirst(3))! / 60
                let time = fields[1]
                let second =
                    Double(time.prefix(2))! * 3600 + Double(time.dropFirst(2).prefix(2))! * 60
                    + Double(time.dropFirst(4))!
                position = ((second - 22 * 3600 + 86_400).truncatingRemainder(dividingBy: 86_400), metres(lat, lon))
            } else if fields[0] == "$GPGST", let at = position {
                let error = (Double(fields[6])! * Double(fields[6])! + Double(fields[7])! * Double(fields[7])!)
                    .squareRoot()
                out.append((at.second, at.distance, error))
            }
        }
        return out
    }

    static func metres(_ lat: Double, _ lon: Double) -> Double {
        let radians = Double.pi / 180
        let a =
            pow(sin((lat - anchorLat) * radians / 2), 2) + cos(lat * radians) * cos(anchorLat * radians)
            * pow(sin((lon - anchorLon) * radians / 2), 2)
        return 2 * 6_371_008.8 * asin(a.squareRoot())
    }

    static func events(_ arguments: [String]) throws -> [[String: Any]] {
        let result = try runGPSFence(["replay"] + arguments + ["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        return try result.stdout.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    static func second(_ event: [String: Any]) -> Double? {
        guard let time = event["time"] as? String,
            let date = ISO8601DateFormatter.withFractions.date(from: time) ?? ISO8601DateFormatter().date(from: time)
        else { return nil }
        return date.timeIntervalSince1970 - start
    }

    static func isAnchor(_ event: [String: Any]) -> Bool {
        (event["fence"] as? [String: Any])?["id"] as? String == "anchor"
    }

    /// Three hours at rest with a 30 m circle (seed 7: an 18 s spike of 48 m among the wander).
    /// The capture's own fixes would trip Signal K's rule (beyond 40 m for 5 fixes and more) and
    /// even an exit judged on each fix's own error (beyond 30 m plus GST's error for 10 fixes in
    /// a row); the anchor watch's delay outlasts them: no exit, no alarm.
    @Test func threeHoursAtRestRaiseNoAlarm() throws {
        let folder = try FenceRulesTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let capture = try Self.generate(["rest", "--hours", "3", "--seed", "7"], in: folder, name: "rest.nmea")
        let fixes = try Self.fixes(capture.path)
        #expect(fixes.count == 3 * 3600)
        func longestRun(_ beyond: ((second: Double, distance: Double, error: Double)) -> Bool) -> Int {
            var longest = 0
            var run = 0
            for fix in fixes {
                run = beyond(fix) ? run + 1 : 0
                longest = max(longest, run)
            }
            return longest
        }
        #expect(longestRun { $0.distance > 40 } >= 5, "the capture would trip Signal K's rule")
        #expect(longestRun { $0.distance > 30 + $0.error } >= 10, "its spike is beyond the exit distance")

        let events = try Self.events([capture.path, "--anchor", "30", "--anchor-at", Self.anchor, "--alarm"])
        let types = events.map { $0["type"] as? String ?? "?" }
        #expect(
            events.contains { $0["type"] as? String == "enter" && Self.isAnchor($0) },
            "the anchor watch was on: \(types)")
        #expect(!types.contains("exit"), "\(types)")
        #expect(!types.contains("alarm"), "\(types)")
    }

    /// A drag at 0.3 m/s from the anchor after 10 minutes at rest, with a 30 m circle: one alarm,
    /// caused by the anchor's exit, after the boat began to drag, at least the 22 s delay after its
    /// first fix beyond 30 m, and within 40 s of the true position passing 40 m (the generator's
    /// truth). `--anchor-warn 80` warns first, at 24 m.
    @Test func aDragIsAlarmedWithin40SecondsOfPassing40Metres() throws {
        let folder = try FenceRulesTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let capture = try Self.generate(["drag", "--radius", "30", "--seed", "1"], in: folder, name: "drag.nmea")
        let passed = try #require(capture.truth["passes_radius_plus_10_at"] as? Double)
        let fixes = try Self.fixes(capture.path)
        let firstBeyond = try #require(fixes.first { $0.second >= 600 && $0.distance > 30 }).second

        let events = try Self.events([
            capture.path, "--anchor", "30", "--anchor-at", Self.anchor, "--alarm", "--anchor-warn", "80",
        ])
        let alarms = events.filter { $0["type"] as? String == "alarm" }
        #expect(alarms.count == 1, "\(events.map { $0["type"] ?? "?" })")
        let alarm = try #require(alarms.first)
        #expect((alarm["cause"] as? [String: Any])?["type"] as? String == "exit")
        #expect(Self.isAnchor(alarm))
        let at = try #require(Self.second(alarm))
        #expect(at >= firstBeyond + 22, "the delay: \(at) s, first fix beyond 30 m at \(firstBeyond) s")
        #expect(at - passed <= 40, "told \(at - passed) s after the boat passed 40 m")
        #expect((alarm["anchor_distance"] as? Double ?? 0) > 30)
        let warning = try #require(events.first { $0["type"] as? String == "anchor_warning" })
        #expect(try #require(Self.second(warning)) < at)
    }

    /// GST's error ellipse is the fix's accuracy through `replay`, in what events say and in what
    /// they decide: a boat 7 m beyond a 30 m circle with no hysteresis (`"hysteresis":0`) from 10 s
    /// on. With GST's 1-sigma errors of 6 m and 8 m (10 m) after each GGA (HDOP 0.9: 4.5 m) the
    /// exit distance is 10 m, so no exit, and the enter's accuracy is 10 m; the same fixes without
    /// GST exit at their second fix beyond (11 s).
    @Test func gstIsTheAccuracyOfAReplayedFix() throws {
        let folder = try FenceRulesTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let steps = (0...40).map { FenceRulesTests.Step(second: $0, east: $0 < 10 ? 5 : 37, speed: 0) }
        let plain = try FenceRulesTests.capture(steps, date: "030226", start: 36_000, in: folder)
        var withGST = ""
        for line in try String(contentsOfFile: plain, encoding: .utf8).split(separator: "\r\n") {
            withGST += line + "\r\n"
            guard line.hasPrefix("$GPGGA") else { continue }
            let body = "GPGST,\(line.split(separator: ",")[1]),10.0,8.5,5.5,30.0,6.0,8.0,12.0"
            withGST += String(format: "$%@*%02X\r\n", body, body.utf8.reduce(0) { $0 ^ $1 })
        }
        let gst = folder.appendingPathComponent("gst.nmea")
        try withGST.write(to: gst, atomically: true, encoding: .utf8)
        let fences = try FenceRulesTests.fences([("mooring", 0, 30, #","hysteresis":0"#)], in: folder)

        let judged = try Self.events([gst.path, "--fences", fences, "--stationary", "0"])
        #expect(FenceRulesTests.summary(judged, types: ["enter", "exit"]) == ["enter@10:00:00"])
        let enter = try #require(judged.first { $0["type"] as? String == "enter" })
        #expect((enter["location"] as? [String: Any])?["accuracy"] as? Double == 10)
        let withoutGST = try Self.events([plain, "--fences", fences, "--stationary", "0"])
        #expect(FenceRulesTests.summary(withoutGST, types: ["enter", "exit"]) == ["enter@10:00:00", "exit@10:00:11"])
    }

    /// The option groups are `run`'s, with the replay's own limits: no fence file needs an
    /// anchor, and nothing escalates in a replay.
    @Test func replayRefusesWhatItCannotDo() throws {
        let noFences = try runGPSFence(["replay", "captures/bridge/capture.nmea"])
        #expect(noFences.status == 2)
        #expect(noFences.stderr.contains("--anchor RADIUS"), "\(noFences.stderr)")
        let escalate = try runGPSFence([
            "replay", "captures/bridge/capture.nmea", "--anchor", "30", "--alarm", "--alarm-escalate", "5m",
            "--on-escalate", "/bin/true",
        ])
        #expect(escalate.status == 2)
        #expect(escalate.stderr.contains("nothing sounds or escalates"), "\(escalate.stderr)")
        let warnAlone = try runGPSFence(["replay", "captures/bridge/capture.nmea", "--anchor-warn", "80"])
        #expect(warnAlone.status == 2)
        #expect(warnAlone.stderr.contains("--anchor-warn goes with --anchor RADIUS"), "\(warnAlone.stderr)")
    }
}

extension ISO8601DateFormatter {
    fileprivate static var withFractions: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
