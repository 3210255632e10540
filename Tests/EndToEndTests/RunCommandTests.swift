import Foundation
import Platform
import Testing
import Waiting

/// Collects a pipe's lines on a background thread while the process runs.
final class LineCollector: @unchecked Sendable {
    private let lines = Locked<[String]>([])
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread { [self] in
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let end = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[pending.startIndex..<end], as: UTF8.self)
                    lines.withLock { $0.append(line) }
                    pending = Data(pending[(end + 1)...])
                }
            }
            done.signal()
        }.start()
    }

    var all: [String] { lines.withLock { $0 } }

    /// Until `condition` holds for the lines so far, at most `timeout` seconds (scaled for a slow
    /// machine, `testTimeScale`).
    func wait(timeout: Double = 30, until condition: ([String]) -> Bool) -> Bool {
        waitUntil(timeout: timeout) { condition(all) }
    }

    func finish() { _ = done.wait(timeout: .now() + scaled(10)) }
}

func types(_ lines: [String]) -> [String] {
    lines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["type"] as? String }
}

/// The whole live path on real pseudo-terminals with the real binary (docs/running.md, issue "live run"):
/// a simulated receiver -> `gpsfence run` -> a hook (a real child process) and a webhook (a real
/// HTTP server on 127.0.0.1); the receiver goes away and comes back.
@Suite(.serialized) struct RunCommandTests {
    static let centre = (lat: 47.0, lon: 8.0)

    func writeFiles(_ folder: URL) throws -> (fences: String, route: String) {
        let fences = folder.appendingPathComponent("fences.geojson")
        try """
        {"type":"FeatureCollection","features":[{"type":"Feature","id":"yard","geometry":{"type":"Point",
         "coordinates":[\(Self.centre.lon),\(Self.centre.lat)]},"properties":{"name":"Yard","radius":30}}]}
        """.write(to: fences, atomically: true, encoding: .utf8)
        // West to east through the fence, 400 m: at 100 m/s and 5 Hz a fix every 20 m.
        let degrees = 200 / (6_371_008.8 * .pi / 180 * cos(Self.centre.lat * .pi / 180))
        let route = folder.appendingPathComponent("route.geojson")
        try """
        {"type":"Feature","geometry":{"type":"LineString","coordinates":[[\(Self.centre.lon - degrees),\(Self.centre.lat)],[\(Self.centre.lon + degrees),\(Self.centre.lat)]]},"properties":{}}
        """.write(to: route, atomically: true, encoding: .utf8)
        return (fences.path, route.path)
    }

    /// One pass of `writeFiles`' route by `simulate` (38400 baud, 5 Hz, 100 m/s), its
    /// pseudo-terminal linked at `link` and its clock starting at `start`: returned once the
    /// terminal exists. The pass waits for its reader: the 4 s route would otherwise be half over
    /// before a `run` started after it on a loaded machine has opened the terminal.
    static func simulatedPass(route: String, link: String, start: String) throws -> BackgroundGPSFence {
        let simulator = try BackgroundGPSFence([
            "simulate", route, "--baud", "38400", "--rate", "5", "--speed", "100", "--link", link, "--start", start,
            "--wait-for-reader",
        ])
        _ = simulator.readFirstLine()
        return simulator
    }

    /// `simulate --wait-for-reader` holds the route until a reader opens the terminal: a `record`
    /// started 3 s after it (a reader that comes late: the time is the case) still gets the pass's
    /// first fix, 10:15:00, where without it the first 3 s of the 4 s pass would be gone.
    @Test func aSimulatorWaitingForItsReaderIsHeardFromItsFirstFix() throws {
        let folder = temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let route = try writeFiles(folder).route
        let link = folder.appendingPathComponent("gps0").path
        let simulator = try Self.simulatedPass(route: route, link: link, start: "2026-02-03T10:15:00Z")
        Thread.sleep(forTimeInterval: 3)
        let capture = folder.appendingPathComponent("pass.nmea").path
        let recorded = try runGPSFence([
            "record", "--device", link, "--baud", "38400", "--output", capture, "--duration", "8",
        ])
        simulator.signal(SIGTERM)
        _ = simulator.finish()
        // The pass ends, the simulator hangs up, and `record` says what it got.
        #expect(recorded.stderr.contains("recorded"), "\(recorded.stderr)")
        let sentences = try String(contentsOfFile: capture, encoding: .utf8).split(separator: "\r\n")
        let firstRMC = sentences.first { $0.hasPrefix("$GPRMC,") }?.split(separator: ",")
        #expect(firstRMC.map { $0[1].hasPrefix("101500") } == true, "\(sentences.prefix(6))")
    }

    /// A stop while the receiver sends ends `run` at once: the engine thread, asleep for up to 2 s
    /// while the reader takes the fixes, is rung by the reader's next turn.
    @Test func aStopWhileTheReceiverSendsIsPrompt() throws {
        let folder = temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (fences, route) = try writeFiles(folder)
        let link = folder.appendingPathComponent("gps0").path
        let simulator = try BackgroundGPSFence([
            "simulate", route, "--baud", "38400", "--rate", "10", "--speed", "1", "--loop", "--link", link,
        ])
        _ = simulator.readFirstLine()
        let run = try BackgroundGPSFence([
            "run", "--device", link, "--baud", "38400", "--fences", fences, "--state",
            folder.appendingPathComponent("state.sqlite").path, "--json",
        ])
        let output = LineCollector(run.output.fileHandleForReading)
        #expect(output.wait { types($0).contains("device_connected") }, "\(output.all)")
        // A second and a half of reading, so that the stop finds the engine in its long sleep:
        // the time of the case, not a wait for a state.
        Thread.sleep(forTimeInterval: 1.5)
        let asked = Date()
        run.signal(SIGINT)
        let stopped = run.finish()
        let took = Date().timeIntervalSince(asked)
        output.finish()
        simulator.signal(SIGTERM)
        _ = simulator.finish()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(took < 1.0, "run took \(took) s to stop")
    }

    /// The track is written once a minute unless `--track-write-interval` says otherwise: the run
    /// notes the interval for `status`, and between writes the fixes wait in memory (the loss
    /// window of a power cut, docs/running.md).
    @Test func theTrackIsWrittenOnceAMinuteUnlessToldOtherwise() throws {
        for (extra, noted) in [([String](), "60000"), (["--track-write-interval", "1"], "1000")] {
            let folder = temporaryDirectory()
            let (fences, route) = try writeFiles(folder)
            let link = folder.appendingPathComponent("gps0").path
            let state = folder.appendingPathComponent("state.sqlite").path
            let simulator = try BackgroundGPSFence([
                "simulate", route, "--baud", "38400", "--rate", "10", "--speed", "1", "--loop", "--link", link,
            ])
            _ = simulator.readFirstLine()
            let run = try BackgroundGPSFence(
                ["run", "--device", link, "--baud", "38400", "--fences", fences, "--state", state, "--json"] + extra)
            let output = LineCollector(run.output.fileHandleForReading)
            #expect(output.wait { types($0).contains("device_connected") }, "\(output.all)")
            func onFile() -> [String] {
                sqlite(state, "SELECT count(*) FROM track; SELECT write_interval FROM receiver")
                    .split(separator: "\n").map(String.init)
            }
            // Until the first fix's row is on file (and, written every second, a second row).
            #expect(waitUntil(every: 0.2) { (Int(onFile().first ?? "") ?? 0) >= (extra.isEmpty ? 1 : 2) })
            // Nothing more: no second row within 4 s when the track is written once a minute.
            if extra.isEmpty { Thread.sleep(forTimeInterval: 4) }
            let written = onFile()
            run.signal(SIGINT)
            let stopped = run.finish()
            output.finish()
            simulator.signal(SIGTERM)
            _ = simulator.finish()
            #expect(stopped.status == 0, "\(stopped.stderr)")
            #expect(written.last == noted, "\(extra): \(written)")
            let rows = Int(written.first ?? "") ?? -1
            if extra.isEmpty {
                #expect(rows == 1, "only the first fix's row is on file before a minute has passed: \(written)")
            } else {
                #expect(rows >= 2, "a row a second, written every second: \(written)")
            }
            // Stopping writes what waited: a row a second of fix time (after the 4 s without a
            // write, at least two more; written every second, at least what was on file).
            let afterStop = Int(sqlite(state, "SELECT count(*) FROM track")) ?? 0
            #expect(afterStop >= (extra.isEmpty ? 3 : rows), "\(extra): \(afterStop) rows after the stop, \(written)")
        }
    }

    @Test func simulatorToRunToHookAndWebhookAcrossAnUnplug() throws {
        let folder = temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (fences, route) = try writeFiles(folder)
        let link = folder.appendingPathComponent("gps0").path
        let hookLog = folder.appendingPathComponent("hook.log").path
        let hook = folder.appendingPathComponent("hook.sh")
        try "#!/bin/sh\necho \"$GPSFENCE_EVENT $GPSFENCE_FENCE_ID\" >> '\(hookLog)'\n".write(
            to: hook, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hook.path)

        let webhookLog = folder.appendingPathComponent("webhook.jsonl")
        let server = try BackgroundProcess([
            "python3", packageRoot.appendingPathComponent("Tests/Support/webhook_server.py").path, webhookLog.path,
        ])
        let port = server.readFirstLine()
        #expect(Int(port) != nil)

        func simulator(start: String) throws -> BackgroundGPSFence {
            try Self.simulatedPass(route: route, link: link, start: start)
        }

        let first = try simulator(start: "2026-02-03T10:15:00Z")
        let run = try BackgroundGPSFence([
            "run", "--device", link, "--baud", "38400", "--fences", fences, "--state",
            folder.appendingPathComponent("state.sqlite").path,
            "--json", "--exec", hook.path, "--webhook", "http://127.0.0.1:\(port)/events", "--stale", "1",
        ])
        let output = LineCollector(run.output.fileHandleForReading)
        #expect(output.wait { types($0).contains("exit") }, "first pass: \(output.all)")
        let firstPass = first.finish()
        #expect(firstPass.status == 0, "\(firstPass.stderr)")
        #expect(output.wait { types($0).contains("device_lost") }, "unplug: \(output.all)")
        // A second of silence from the receiver (--stale 1): the fix is lost, on the wall clock.
        #expect(output.wait { types($0).contains("fix_lost") }, "silence: \(output.all)")

        // The receiver comes back at the same path, later.
        let second = try simulator(start: "2026-02-03T10:20:00Z")
        #expect(output.wait { types($0).filter { $0 == "exit" }.count == 2 }, "second pass: \(output.all)")
        _ = second.finish()

        run.signal(SIGINT)
        let stopped = run.finish()
        output.finish()
        #expect(stopped.status == 0, "\(stopped.stderr)")

        let events = types(output.all)
        let fenceEvents = events.filter { ["enter", "exit"].contains($0) }
        #expect(fenceEvents == ["enter", "exit", "enter", "exit"])
        #expect(events.first == "registered")
        #expect(events.filter { $0 == "device_connected" }.count == 2)
        #expect(events.filter { $0 == "device_lost" }.count >= 1)
        #expect(events.filter { $0 == "fix_acquired" }.count == 1, "the second pass acquires the fix again")
        let lostIndex = try #require(events.firstIndex(of: "device_lost"))
        #expect(events[..<lostIndex].filter { $0 == "exit" }.count == 1, "lost after the first pass")

        // The hook ran once per event, with the fence id in its environment.
        #expect(
            output.wait(timeout: 5) { _ in
                ((try? String(contentsOfFile: hookLog, encoding: .utf8)) ?? "").split(separator: "\n").count
                    == events.count
            })
        let hookLines = try String(contentsOfFile: hookLog, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(hookLines.filter { $0 == "enter yard" }.count == 2)
        #expect(Set(hookLines.map { String($0.split(separator: " ")[0]) }) == Set(events))

        // The webhook received every event, in order, by id.
        let ids = output.all.compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["id"] as? String
        }
        let received = ((try? String(contentsOf: webhookLog, encoding: .utf8)) ?? "").split(separator: "\n").compactMap
        {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["id"] as? String
        }
        #expect(received == ids)
        server.kill()
    }
}

/// Any background process (the webhook server).
final class BackgroundProcess {
    let process = Process()
    let output = Pipe()

    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = output
        try process.run()
    }

    func readFirstLine() -> String { firstLineOf(output) }

    func kill() {
        if process.isRunning {
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit { kill() }
}

@Suite(.serialized) struct RunReloadAndCrashTests {
    /// Three fences of 300 m and a simulated receiver going back and forth through them, looped,
    /// at 10 Hz (an event every second or so), on a pseudo-terminal linked at `gps0` in `folder`.
    static func loopedPassThroughThreeFences(in folder: URL) throws -> (
        fences: URL, link: String, simulator: BackgroundGPSFence
    ) {
        let fences = folder.appendingPathComponent("fences.geojson")
        try RunReloadAndCrashTests().fenceFile(["a", "b", "c"], radius: 300).write(
            to: fences, atomically: true, encoding: .utf8)
        let route = folder.appendingPathComponent("route.geojson")
        try
            #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[7.99,47.0],[8.03,47.0],[7.99,47.0]]},"properties":{}}"#
            .write(to: route, atomically: true, encoding: .utf8)
        let link = folder.appendingPathComponent("gps0").path
        let simulator = try BackgroundGPSFence([
            "simulate", route.path, "--baud", "115200", "--rate", "10", "--speed", "200", "--loop", "--link", link,
            "--start", "2026-02-03T10:15:00Z",
        ])
        _ = simulator.readFirstLine()
        return (fences, link, simulator)
    }

    func fenceFile(_ ids: [String], radius: Double = 30) -> String {
        let features = ids.enumerated().map { index, id in
            """
            {"type":"Feature","id":"\(id)","geometry":{"type":"Point","coordinates":[\(8.0 + Double(index) * 0.01),47.0]},"properties":{"radius":\(radius)}}
            """
        }
        return #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"
    }

    /// SIGHUP and an edited fence file reload the fences; a broken file keeps the old ones.
    @Test func reloadOnSignalAndOnEdit() throws {
        let folder = temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fences = folder.appendingPathComponent("fences.geojson")
        try fenceFile(["a", "b"]).write(to: fences, atomically: true, encoding: .utf8)
        // A receiver that never comes: the run still loads, reloads and reports.
        let run = try BackgroundGPSFence([
            "run", "--device", folder.appendingPathComponent("no-such-gps").path, "--baud", "9600", "--fences",
            fences.path,
            "--state", folder.appendingPathComponent("state.sqlite").path, "--json",
        ])
        let output = LineCollector(run.output.fileHandleForReading)
        #expect(output.wait { types($0).contains("registered") })

        try fenceFile(["b", "c"]).write(to: fences, atomically: true, encoding: .utf8)
        #expect(output.wait { types($0).contains("unregistered") }, "edit: \(output.all)")

        try "{ not json".write(to: fences, atomically: true, encoding: .utf8)
        run.signal(SIGHUP)
        #expect(
            output.wait { $0.contains { $0.contains("reload failed, keeping the 2 fences loaded") } },
            "bad file: \(output.all)")

        run.signal(SIGTERM)
        let stopped = run.finish()
        output.finish()
        #expect(stopped.status == 0)
        let lines = output.all.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let unregistered = lines.first { $0["type"] as? String == "unregistered" }
        #expect(unregistered?["fences"] as? [String] == ["a"])
        let registrations = lines.filter { $0["type"] as? String == "registered" }.map {
            $0["fences"] as? [String] ?? []
        }
        // `fenceFile` places fences by position in the list: "b" moved to where "a" was, so it arrived
        // again (reshaped), with the new "c".
        #expect(registrations == [["a", "b"], ["b", "c"]], "a reload registers what arrived")
        #expect(
            lines.contains { ($0["message"] as? String)?.contains("no-such-gps") == true },
            "the missing device is reported")
    }

    /// docs/running.md: `run` killed with SIGKILL at arbitrary moments and restarted, many times, on one
    /// state file: no printed event is missing from the log, and no fence is entered twice
    /// without an exit in between.
    @Test func killNineNeverLosesAPrintedEventNorDuplicatesAnEnter() throws {
        let folder = temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (fences, link, simulator) = try Self.loopedPassThroughThreeFences(in: folder)
        let state = folder.appendingPathComponent("state.sqlite").path
        var printed: [String] = []
        var generator = SystemRandomNumberGenerator()
        // At least 8 runs, each killed at a random time, and more until the runs have printed two
        // enters (the drive reaches a fence every 4 s; a busy machine spends more of each run
        // starting it), within a deadline.
        let deadline = Date().addingTimeInterval(scaled(120))
        var runs = 0
        while runs < 8 || (types(printed).filter { $0 == "enter" }.count < 2 && Date() < deadline) {
            runs += 1
            let run = try BackgroundGPSFence([
                "run", "--device", link, "--baud", "115200", "--fences", fences.path, "--state", state, "--json",
            ])
            let output = LineCollector(run.output.fileHandleForReading)
            // A random point of the run (its start included), not a wait for a state.
            usleep(UInt32.random(in: 600_000...1_600_000, using: &generator))
            run.signal(SIGKILL)
            _ = run.finish()
            output.finish()
            printed += output.all
        }
        simulator.signal(SIGINT)
        _ = simulator.finish()

        let printedEvents = printed.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(printedEvents.filter { $0["type"] as? String == "enter" }.count >= 2, "the runs saw fences")
        // Every printed event is in the log.
        let log = try runGPSFence(["visits", "--state", state, "--json"])  // opens and migrates: the file is sound
        #expect(log.status == 0)
        let logged = try eventLog(state)
        for event in printedEvents {
            #expect(logged.contains(event["id"] as? String ?? "?"), "printed but not logged: \(event)")
        }
        // No enter twice for a fence without an exit in between, across all the restarts.
        var inside = Set<String>()
        for event in printedEvents {
            guard let fence = (event["fence"] as? [String: Any])?["id"] as? String else { continue }
            switch event["type"] as? String {
            case "enter":
                #expect(!inside.contains(fence), "second enter for \(fence): \(event)")
                inside.insert(fence)
            case "exit": inside.remove(fence)
            default: break
            }
        }
    }

    /// The event ids in the state file, read with the sqlite3 command-line shell.
    func eventLog(_ state: String) throws -> Set<String> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", state, "SELECT id FROM event"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Set(String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init))
    }
}
