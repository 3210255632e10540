import Foundation
import Testing

/// The latched alarm (docs/running.md, "Alarms") with the real binary on a real pseudo-terminal
/// that is its controlling terminal (`Tests/Support/alarm_terminal.py`): `simulate` plays a boat
/// that drags its anchor 60 m and lies there; the bell is counted, and the alarm answered by
/// Enter, by `gpsfence ack`, and across a kill -9 and a restart.
@Suite(.serialized) struct AlarmTests {
    static let anchorage = AnchorWatchTests.anchorage
    static let metre = AnchorWatchTests.metre

    /// 5 s at the anchor, 20 s dragging north at 3 m/s, then 300 s lying 60 m off: the alarm's
    /// condition lasts, and never gets twice as far as when it was raised.
    static func dragThenLie(_ folder: URL, dragSeconds: Int = 20) throws -> String {
        var text = #"<?xml version="1.0"?><gpx version="1.1" creator="test"><trk><trkseg>"# + "\n"
        for second in 0..<325 {
            let dragged = Double(min(max(0, second - 5), dragSeconds)) * 3
            let lat = anchorage.lat + dragged * metre
            let time = String(format: "2026-07-01T04:%02d:%02dZ", second / 60, second % 60)
            text += "<trkpt lat=\"\(lat)\" lon=\"\(anchorage.lon)\"><time>\(time)</time></trkpt>\n"
        }
        text += "</trkseg></trk></gpx>\n"
        let path = folder.appendingPathComponent("drag.gpx")
        try text.write(to: path, atomically: true, encoding: .utf8)
        return path.path
    }

    /// The simulated boat on a pseudo-terminal, and the `run --alarm` that reads it.
    static func boat(_ folder: URL, extra: [String] = [], state: String? = nil, dragSeconds: Int = 20) throws -> (
        simulator: BackgroundGPSFence, run: [String]
    ) {
        try #"{"type":"FeatureCollection","features":[]}"#.write(
            to: folder.appendingPathComponent("fences.geojson"), atomically: true, encoding: .utf8)
        let link = folder.appendingPathComponent("gps0").path
        let simulator = try BackgroundGPSFence([
            "simulate", try dragThenLie(folder, dragSeconds: dragSeconds), "--baud", "38400", "--rate", "2",
            "--time-scale", "2", "--link", link,
        ])
        _ = simulator.readFirstLine()
        let run =
            [
                gpsfenceBinary().path, "run", "--device", link, "--baud", "38400", "--fences",
                folder.appendingPathComponent("fences.geojson").path, "--state",
                state ?? folder.appendingPathComponent("state.sqlite").path, "--json", "--anchor", "30", "--anchor-at",
                "\(anchorage.lat),\(anchorage.lon)", "--alarm", "--alarm-repeat", "1",
            ] + extra
        return (simulator, run)
    }

    static func answer(_ mode: String, _ run: [String]) throws -> [String: Any] {
        let script = packageRoot.appendingPathComponent("Tests/Support/alarm_terminal.py").path
        let result = try runProgram("/usr/bin/env", ["python3", script, mode] + run)
        return try #require(jsonObject(result.stdout.split(separator: "\n").last.map(String.init)), "\(result)")
    }

    /// What every answer must give: the alarm rang about once a second until the answer, and
    /// not after it.
    static func expectRangUntilAnswered(_ outcome: [String: Any]) {
        #expect(outcome["alarm"] as? Bool == true, "\(outcome)")
        let bells = outcome["bells"] as? Int ?? 0
        #expect(bells >= 3 && bells <= 6, "--alarm-repeat 1 over 4 s: \(outcome)")
        #expect((outcome["acknowledged_after"] as? Double ?? 99) < 1.5, "\(outcome)")
        #expect(outcome["bells_after"] as? Int == 0, "still ringing after the answer: \(outcome)")
        let types = outcome["types"] as? [String] ?? []
        // After a restart, the exit was the first run's.
        let firstTypes = outcome["first_types"] as? [String] ?? types
        #expect(firstTypes.contains("exit") && types.contains("alarm_acknowledged"), "\(types)")
        #expect(!types.contains("alarm_cleared"), "the boat never came back: \(types)")
    }

    @Test func enterOnTheTerminalAnswersTheAlarm() throws {
        let folder = temporaryDirectory()
        let (simulator, run) = try Self.boat(folder, extra: ["--anchor-warn", "50"])
        defer { simulator.signal(SIGTERM) }
        let outcome = try Self.answer("enter", run)
        Self.expectRangUntilAnswered(outcome)
        #expect(outcome["exit"] as? Int == 0, "\(outcome)")
        let events = try stateEvents(folder)
        let alarm = try #require(events.first { $0["type"] as? String == "alarm" })
        let exit = try #require(events.first { $0["type"] as? String == "exit" })
        let cause = try #require(alarm["cause"] as? [String: Any])
        #expect(cause["id"] as? String == exit["id"] as? String)
        #expect(cause["type"] as? String == "exit")
        #expect(alarm["state"] as? String == "active")
        #expect(((alarm["fence"] as? [String: Any])?["id"]) as? String == "anchor")
        let distance = try #require(alarm["anchor_distance"] as? Double, "\(alarm)")
        #expect(distance > 35 && distance < 62, "\(alarm)")
        // `--anchor-warn 50`: one warning, past 15 m, before the exit; not an alarm.
        let warnings = events.filter { $0["type"] as? String == "anchor_warning" }
        #expect(warnings.count == 1, "\(events.compactMap { $0["type"] as? String })")
        let warning = try #require(warnings.first)
        let warned = try #require(warning["anchor_distance"] as? Double, "\(warning)")
        #expect(warned >= 15 && warned < 25, "\(warning)")
        #expect(((warning["fence"] as? [String: Any])?["id"]) as? String == "anchor")
        let order = events.compactMap { $0["type"] as? String }
        #expect(order.firstIndex(of: "anchor_warning")! < order.firstIndex(of: "exit")!, "\(order)")
        #expect(order.filter { $0 == "alarm" }.count == 1, "the warning raised no alarm: \(order)")
        let answered = try #require(events.first { $0["type"] as? String == "alarm_acknowledged" })
        #expect(answered["by"] as? String == "terminal")
        #expect(answered["state"] as? String == "acknowledged", "outside still: \(answered)")

        // `status`: the answered alarm, and the anchor watch's bearing and largest distance (the
        // boat lies 60 m north of the anchor, so the anchor bears south).
        let status = try runGPSFence([
            "status", "--json", "--state", folder.appendingPathComponent("state.sqlite").path,
        ])
        let report = try #require(jsonObject(status.stdout), "\(status.stderr)")
        let kept = try #require(report["alarm"] as? [String: Any], "\(report)")
        #expect(kept["state"] as? String == "acknowledged")
        #expect((kept["cause"] as? [String: Any])?["id"] as? String == exit["id"] as? String)
        let anchor = try #require(report["anchor"] as? [String: Any], "\(report)")
        let bearing = try #require((anchor["bearing"] as? NSNumber)?.doubleValue, "\(anchor)")
        #expect(abs(bearing - 180) <= 2, "\(anchor)")
        let largest = try #require(anchor["max_distance"] as? Double, "\(anchor)")
        #expect(largest > 55 && largest < 65, "\(anchor)")
        let text = try runGPSFence(["status", "--state", folder.appendingPathComponent("state.sqlite").path])
        #expect(text.stdout.contains("alarm          acknowledged (exit anchor"), "\(text.stdout)")
        #expect(text.stdout.contains("at most 6"), "\(text.stdout)")
    }

    /// Answered, the alarm is silent, but a boat that keeps dragging until it is twice as far from
    /// the anchor as when the alarm was raised sounds it again, by itself.
    @Test func anAnsweredAlarmSoundsAgainWhenTheBoatDragsTwiceAsFar() throws {
        let folder = temporaryDirectory()
        // The GPX plays at 2x on a receiver clock at 1x: 6 m of drag a second. The alarm comes
        // once the boat has been beyond the circle for the anchor's delay (22 s), about 165 m
        // out; twice as far needs 110 s of drag, and the boat drags on to 390 m.
        let (simulator, run) = try Self.boat(folder, dragSeconds: 130)
        defer { simulator.signal(SIGTERM) }
        let outcome = try Self.answer("worse", run)
        #expect(outcome["alarm"] as? Bool == true, "\(outcome)")
        #expect((outcome["acknowledged_after"] as? Double ?? 99) < 1.5, "\(outcome)")
        #expect(outcome["sounded_again_after"] as? Double != nil, "\(outcome)")
        #expect((outcome["bells_again"] as? Int ?? 0) >= 3, "\(outcome)")
        let alarms = try stateEvents(folder).filter { $0["type"] as? String == "alarm" }
        #expect(alarms.count == 2, "\(alarms)")
        let first = try #require(alarms.first?["anchor_distance"] as? Double)
        let second = try #require(alarms.last?["anchor_distance"] as? Double)
        // Both are rounded to the centimetre in JSON; the fixes come every 3 m, so twice as far
        // can fall on a fix exactly (168 m, then 336 m).
        #expect(second >= 2 * first - 0.02 && second < 2 * first + 10, "\(first) m, then \(second) m")
        // The alarm said again carries where the boat is, as the first one does (MQTT, hooks).
        let position = try #require(alarms.last?["location"] as? [String: Any], "\(alarms)")
        #expect(position["lat"] as? Double != nil && position["lon"] as? Double != nil, "\(position)")
        // And `status` says when it sounded again, not when it first did.
        let status = try #require(
            jsonObject(
                try runGPSFence(["status", "--state", folder.appendingPathComponent("state.sqlite").path, "--json"])
                    .stdout))
        let since = (status["alarm"] as? [String: Any])?["since"] as? String
        #expect(since == alarms.last?["time"] as? String, "\(status)")
    }

    @Test func gpsfenceAckFromAnotherShellAnswersTheAlarm() throws {
        let folder = temporaryDirectory()
        let (simulator, run) = try Self.boat(folder)
        defer { simulator.signal(SIGTERM) }
        let outcome = try Self.answer("command", run)
        Self.expectRangUntilAnswered(outcome)
        #expect(outcome["ack_exit"] as? Int == 0, "\(outcome)")
        #expect((outcome["ack_seconds"] as? Double ?? 99) < 1.5, "\(outcome)")
        #expect(outcome["second_ack_exit"] as? Int == 1, "nothing left to answer: \(outcome)")
        #expect((outcome["second_ack_output"] as? String ?? "").contains("no alarm is sounding"), "\(outcome)")
        let answered = try #require(try stateEvents(folder).first { $0["type"] as? String == "alarm_acknowledged" })
        #expect(answered["by"] as? String == "command")
    }

    @Test func aRunKilledWhileTheAlarmSoundsRingsAtOnceWhenStartedAgain() throws {
        let folder = temporaryDirectory()
        let (simulator, run) = try Self.boat(folder)
        defer { simulator.signal(SIGTERM) }
        let outcome = try Self.answer("restart", run)
        Self.expectRangUntilAnswered(outcome)
        let first = try #require(
            outcome["restart_first_bell_seconds"] as? Double, "no bell after the restart: \(outcome)")
        #expect(first < 5, "\(outcome)")
        #expect((outcome["restart_bells"] as? Int ?? 0) >= 3, "\(outcome)")
        let types = outcome["types"] as? [String] ?? []
        #expect(types.contains("alarm"), "the restarted run says the alarm again: \(types)")
        #expect(!types.contains("exit"), "a restart outside the circle is no second exit: \(types)")
    }

    /// With `--mqtt`: the retained `PREFIX/alarm` says the alarm sounds, with its cause; `ack` on
    /// `PREFIX/alarm/set` (what Home Assistant's button sends) answers it, and the retained state
    /// follows. A real mosquitto.
    @Test func ackOnTheBrokerAnswersTheAlarm() throws {
        let folder = temporaryDirectory()
        let broker = try MosquittoBroker()
        let prefix = "boats/sea-otter"
        let (simulator, run) = try Self.boat(folder, extra: ["--mqtt", "mqtt://127.0.0.1:\(broker.port)/\(prefix)"])
        defer { simulator.signal(SIGTERM) }
        let outcome = try Self.answer("mqtt=\(broker.port)=\(prefix)", run)
        Self.expectRangUntilAnswered(outcome)
        let before = try #require(jsonObject(outcome["retained_before"] as? String), "\(outcome)")
        #expect(before["type"] as? String == "alarm", "\(before)")
        #expect(before["state"] as? String == "active", "\(before)")
        #expect((before["cause"] as? [String: Any])?["type"] as? String == "exit", "\(before)")
        let after = try #require(jsonObject(try broker.retained("\(prefix)/alarm")["\(prefix)/alarm"]))
        #expect(after["type"] as? String == "alarm_acknowledged", "\(after)")
        #expect(after["by"] as? String == "mqtt", "\(after)")
        #expect(after["state"] as? String == "acknowledged", "\(after)")
    }

    /// A hook that appends its standard input (and a line feed) to `escalated.jsonl`.
    static func escalationHook(_ folder: URL) throws -> (program: String, output: URL) {
        let output = folder.appendingPathComponent("escalated.jsonl")
        let program = folder.appendingPathComponent("escalate.sh")
        try "#!/bin/sh\n{ cat; echo; } >> '\(output.path)'\n".write(to: program, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program.path)
        return (program.path, output)
    }

    /// Unanswered for 2 s: the escalation runs once, with the alarm event on its standard input,
    /// and not again while the alarm keeps sounding (it is answered about 4 s after it began).
    @Test func anUnansweredAlarmEscalatesOnce() throws {
        let folder = temporaryDirectory()
        let hook = try Self.escalationHook(folder)
        let (simulator, run) = try Self.boat(
            folder, extra: ["--alarm-escalate", "2s", "--on-escalate", hook.program])
        defer { simulator.signal(SIGTERM) }
        let outcome = try Self.answer("enter", run)
        Self.expectRangUntilAnswered(outcome)
        let lines = try String(contentsOf: hook.output, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1, "\(lines)")
        let event = try #require(jsonObject(lines.first.map(String.init)))
        #expect(event["type"] as? String == "alarm")
        #expect((event["cause"] as? [String: Any])?["type"] as? String == "exit", "\(event)")
    }

    /// Answered about 4 s after it began, an alarm that would escalate after 6 s never does, though
    /// the run goes on for 4 s more.
    @Test func anAnsweredAlarmDoesNotEscalate() throws {
        let folder = temporaryDirectory()
        let hook = try Self.escalationHook(folder)
        let (simulator, run) = try Self.boat(
            folder, extra: ["--alarm-escalate", "6s", "--on-escalate", hook.program])
        defer { simulator.signal(SIGTERM) }
        let outcome = try Self.answer("enter", run)
        Self.expectRangUntilAnswered(outcome)
        #expect(!FileManager.default.fileExists(atPath: hook.output.path), "escalated after the answer")
    }

    /// Escalated, then killed while the alarm still sounds: the restarted run cannot know whether
    /// the text went out before the crash, so it escalates again, a whole wait after it started,
    /// and only once.
    @Test func aRestartedRunEscalatesTheUnansweredAlarmAgain() throws {
        let folder = temporaryDirectory()
        let hook = try Self.escalationHook(folder)
        let (simulator, run) = try Self.boat(
            folder, extra: ["--alarm-escalate", "2s", "--on-escalate", hook.program])
        defer { simulator.signal(SIGTERM) }
        let outcome = try Self.answer("restart", run)
        Self.expectRangUntilAnswered(outcome)
        let escalated = try String(contentsOf: hook.output, encoding: .utf8).split(separator: "\n").compactMap {
            jsonObject(String($0))
        }
        #expect(escalated.count == 2, "\(escalated)")
        #expect(escalated.allSatisfy { $0["type"] as? String == "alarm" }, "\(escalated)")
        let causes = Set(escalated.compactMap { ($0["cause"] as? [String: Any])?["id"] as? String })
        #expect(causes.count == 1, "one alarm, escalated by each run: \(escalated)")
        let restarted = try #require(outcome["restarted_at"] as? Double, "\(outcome)")
        let modified = try FileManager.default.attributesOfItem(atPath: hook.output.path)[.modificationDate] as? Date
        let second = try #require(modified).timeIntervalSince1970 - restarted
        #expect(second >= 2 && second < 6, "the second escalation \(second) s after the restart")
    }

    /// At anchor, the receiver goes silent (the boat's GPS unplugged): `fix_lost` raises the alarm
    /// (no position is as dangerous as a bad one), and nothing else happened to raise it. Without
    /// a terminal here: answered by `gpsfence ack`.
    @Test func losingTheFixDuringAnAnchorWatchRaisesTheAlarm() throws {
        let folder = temporaryDirectory()
        try #"{"type":"FeatureCollection","features":[]}"#.write(
            to: folder.appendingPathComponent("fences.geojson"), atomically: true, encoding: .utf8)
        let resting = try AnchorWatchTests.boat(
            folder, name: "rest.gpx", start: Self.anchorage, restSeconds: 8, dragSeconds: 0)
        let link = folder.appendingPathComponent("gps0").path
        let simulator = try BackgroundGPSFence([
            "simulate", resting, "--baud", "38400", "--rate", "2", "--link", link,
        ])
        _ = simulator.readFirstLine()
        let state = folder.appendingPathComponent("state.sqlite").path
        let run = try BackgroundGPSFence([
            "run", "--device", link, "--baud", "38400", "--fences",
            folder.appendingPathComponent("fences.geojson").path, "--state", state, "--json", "--anchor", "30",
            "--alarm", "--stale", "3",
        ])
        defer {
            run.signal(SIGTERM)
            _ = run.finish()
        }
        let output = LineCollector(run.output.fileHandleForReading)
        _ = simulator.finish()
        #expect(output.wait(timeout: 40) { types($0).contains("alarm") }, "\(output.all)")
        let events = output.all.compactMap { jsonObject($0) }
        let lost = try #require(events.first { $0["type"] as? String == "fix_lost" })
        let alarm = try #require(events.first { $0["type"] as? String == "alarm" })
        let cause = try #require(alarm["cause"] as? [String: Any])
        #expect(cause["type"] as? String == "fix_lost")
        #expect(cause["id"] as? String == lost["id"] as? String)
        #expect(!types(output.all).contains("exit"), "the boat lay at anchor: \(types(output.all))")
        let ack = try runGPSFence(["ack", "--state", state])
        #expect(ack.status == 0, "\(ack.stderr)")
        #expect(ack.stdout.contains("alarm acknowledged"), "\(ack.stdout)")
        #expect(output.wait { types($0).contains("alarm_acknowledged") }, "\(output.all)")
    }

    /// A `fix_lost` alarm answered, the run stopped while the fix is still lost, and started again
    /// with a usable fix: the alarm's condition has ended, so `alarm_cleared` and no alarm kept
    /// (kept, it would silence the next `fix_lost`). While it sounds, the console and `status` name
    /// the `ack` that answers this run (its `--state`), and `status` gives the time in local time.
    @Test func anAnsweredFixLostAlarmClearsWhenARestartedRunHasAFix() throws {
        let folder = temporaryDirectory()
        let state = folder.appendingPathComponent("state.sqlite").path
        func watch(minute: Int) throws -> (simulator: BackgroundGPSFence, run: BackgroundGPSFence, LineCollector) {
            let resting = try AnchorWatchTests.boat(
                folder, name: "rest\(minute).gpx", start: Self.anchorage, restSeconds: 8, dragSeconds: 0,
                minute: minute)
            let link = folder.appendingPathComponent("gps0").path
            let simulator = try BackgroundGPSFence([
                "simulate", resting, "--baud", "38400", "--rate", "2", "--link", link,
            ])
            _ = simulator.readFirstLine()
            let run = try BackgroundGPSFence([
                "run", "--device", link, "--baud", "38400", "--state", state, "--anchor", "30", "--alarm",
                "--stale", "3",
            ])
            return (simulator, run, LineCollector(run.output.fileHandleForReading))
        }
        let (simulator, run, output) = try watch(minute: 0)
        let answer = "press Enter or run 'gpsfence ack --state \(state)'"
        #expect(
            output.wait(timeout: 40) { $0.contains { $0.contains(" alarm ") && $0.contains(answer) } }, "\(output.all)")
        let sounding = try runGPSFence(["status", "--state", state, "--timezone", "Europe/Zagreb"])
        let line = try #require(
            sounding.stdout.split(separator: "\n").first { $0.contains("ALARM") }, "\(sounding.stdout)")
        #expect(line.contains("or run 'gpsfence ack --state \(state)'"), "\(line)")
        #expect(line.contains(/SOUNDING since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\+0[12]:00 \(fix_lost\)/), "\(line)")
        #expect(try runGPSFence(["ack", "--state", state]).status == 0)
        #expect(output.wait { $0.contains { $0.contains("alarm_acknowledged") } }, "\(output.all)")
        run.signal(SIGTERM)
        #expect(run.finish().status == 0)
        output.finish()
        _ = simulator.finish()
        let answered = try #require(jsonObject(try runGPSFence(["status", "--state", state, "--json"]).stdout))
        #expect((answered["alarm"] as? [String: Any])?["state"] as? String == "acknowledged", "\(answered)")

        let (again, restarted, restartedOutput) = try watch(minute: 5)
        #expect(
            restartedOutput.wait(timeout: 40) { $0.contains { $0.contains("alarm_cleared") } }, "\(restartedOutput.all)"
        )
        restarted.signal(SIGTERM)
        _ = restarted.finish()
        restartedOutput.finish()
        again.signal(SIGTERM)
        _ = again.finish()
        let cleared = try #require(jsonObject(try runGPSFence(["status", "--state", state, "--json"]).stdout))
        #expect(cleared["alarm"] == nil, "\(cleared)")
    }

    @Test func ackWithoutAnAlarmSaysSo() throws {
        let folder = temporaryDirectory()
        let missing = try runGPSFence(["ack", "--state", folder.appendingPathComponent("none.sqlite").path])
        #expect(missing.status == 2, "a missing state file is bad input, as in status and visits")
        #expect(missing.stderr.contains("no alarm is sounding"), "\(missing.stderr)")
        let replayed = try runGPSFence([
            "replay", packageRoot.appendingPathComponent("captures/bridge/capture.nmea").path, "--fences",
            packageRoot.appendingPathComponent("captures/bridge/fences.geojson").path, "--state",
            folder.appendingPathComponent("state.sqlite").path,
        ])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        let quiet = try runGPSFence(["ack", "--state", folder.appendingPathComponent("state.sqlite").path])
        #expect(quiet.status == 1)
        #expect(quiet.stderr.contains("no alarm is sounding"), "\(quiet.stderr)")
    }

    @Test func alarmOptionsAreChecked() throws {
        for (arguments, words) in [
            (["--alarm-on", "enter,teleport"], ["--alarm-on must be ", "enter, ", "not 'teleport'"]),
            (["--alarm-on", "alarm_cleared"], ["--alarm-on: 'alarm_cleared' is the alarm's own event"]),
            (["--alarm-repeat", "0.1"], ["--alarm-repeat must be 0.5 to 1000000000 seconds, not 0.1"]),
            (["--alarm-escalate", "5m"], ["--alarm-escalate goes with --on-escalate PROGRAM"]),
            (["--on-escalate", "/bin/true"], ["--on-escalate goes with --alarm-escalate DURATION"]),
        ] {
            let result = try runGPSFence(
                ["run", "--device", "/dev/null", "--fences", "captures/gym/fences.geojson"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            for word in words { #expect(result.stderr.contains(word), "\(arguments): \(result.stderr)") }
        }
    }

    /// The event log of the state file, as `report --json`-free readers see it: through sqlite3.
    static func stateEventsQuery(_ folder: URL) -> [String] {
        [folder.appendingPathComponent("state.sqlite").path, "SELECT json FROM event ORDER BY seq"]
    }
}

/// The event log of `folder/state.sqlite`, read by the sqlite3 program.
func stateEvents(_ folder: URL) throws -> [[String: Any]] {
    let result = try runProgram("/usr/bin/sqlite3", AlarmTests.stateEventsQuery(folder))
    return result.stdout.split(separator: "\n").compactMap { jsonObject(String($0)) }
}
