import Foundation
import Testing
import Waiting

#if canImport(Glibc)
    import Glibc
#endif

/// A fence's exit `delay` over a restart (docs/fences.md, "delay"): `gpsfence run` killed with
/// SIGKILL while the count runs, and started again on the same state file, carries on with the
/// count; a count that broke off before the kill stays broken off. A mooring of 30 m at 47° N
/// 8° E with no hysteresis (the exit distance is the fix's accuracy, 4.5 m), a delay of 60 s, no
/// dwell; a fix a second from 10:00:00 (`FenceRulesTests.capture`), 5 m east (inside) or 40 m east
/// (beyond). The receivers are real pseudo-terminals, the runs the real binary; the receiver's
/// clock runs 25 times faster than the system's (the engine runs on fix time). A connection's
/// first fix leaves at its GGA, before the RMC that dates it (docs/nmea.md): undated, it decides
/// nothing, so each run is given one cycle before those that matter.
@Suite(.serialized) struct ExitDelayRestartTests {
    /// The time of 10:00:SS on the capture's day, as the state file keeps it (ms since 1970).
    static func milliseconds(_ second: Int) -> Int64 { 1_770_112_800_000 + Int64(second) * 1000 }

    struct Scenario {
        let fences: String
        let capture: String
        let state: String
        /// Each fix's two sentences (GGA, RMC), by second.
        let cycles: [[String]]
    }

    func scenario(beyond: (Int) -> Bool) throws -> Scenario {
        let folder = try FenceRulesTests.folder()
        let fences = try FenceRulesTests.fences(
            [("mooring", 0, 30, #","hysteresis":0,"delay":60,"dwell":100000"#)], in: folder)
        let steps = (0...130).map { FenceRulesTests.Step(second: $0, east: beyond($0) ? 40 : 5, speed: 0) }
        let capture = try FenceRulesTests.capture(steps, date: "030226", start: 36_000, in: folder)
        let lines = try String(contentsOfFile: capture, encoding: .utf8).split(separator: "\r\n").map(String.init)
        let cycles = stride(from: 0, to: lines.count, by: 2).map { Array(lines[$0..<min($0 + 2, lines.count)]) }
        return Scenario(
            fences: fences, capture: capture, state: folder.appendingPathComponent("state.sqlite").path, cycles: cycles)
    }

    typealias Started = (run: BackgroundGPSFence, output: LineCollector, pty: NMEAPseudoTerminal)

    /// The enter and exit of an uninterrupted replay of the scenario's fixes.
    func replayed(_ scenario: Scenario) throws -> [String] {
        let replay = try FenceRulesTests.events([
            "replay", scenario.capture, "--fences", scenario.fences, "--stationary", "0",
        ])
        return FenceRulesTests.summary(replay, types: ["enter", "exit"])
    }

    func killNine(_ started: Started) {
        started.run.signal(SIGKILL)
        _ = started.run.finish()
        started.output.finish()
    }

    /// A second run on the same state file fed the cycles from `second` on, until its exit: its
    /// enter and exit events and how it ended when stopped.
    func restart(_ scenario: Scenario, from second: Int) throws -> (events: [String], status: Int32, stderr: String) {
        let started = try start(scenario)
        write(scenario, second...130, to: started.pty)
        #expect(started.output.wait(timeout: 30) { types($0).contains("exit") }, "\(started.output.all)")
        started.run.signal(SIGTERM)
        let (status, stderr) = started.run.finish()
        started.output.finish()
        return (fenceEvents(started.output), status, stderr)
    }

    /// `run` on a fresh receiver, once it has said the receiver is connected (a text sentence
    /// without a position, written until then): from then on it reads every cycle written.
    func start(_ scenario: Scenario) throws -> Started {
        let pty = try NMEAPseudoTerminal()
        let run = try BackgroundGPSFence([
            "run", "--device", pty.path, "--baud", "38400", "--fences", scenario.fences, "--state", scenario.state,
            "--json", "--stationary", "0",
        ])
        let output = LineCollector(run.output.fileHandleForReading)
        let connected = waitUntil(timeout: 30, every: 0.05) {
            pty.write("$GPTXT,01,01,02,warm up*61\r\n")
            return types(output.all).contains("device_connected")
        }
        if !connected {
            run.signal(SIGKILL)
            let (_, stderr) = run.finish()
            throw HarnessError("the run never said the receiver was connected: \(output.all), \(stderr)")
        }
        return (run, output, pty)
    }

    func write(_ scenario: Scenario, _ seconds: ClosedRange<Int>, to pty: NMEAPseudoTerminal) {
        for second in seconds {
            for sentence in scenario.cycles[second] { pty.write(sentence + "\r\n") }
            usleep(40_000)
        }
    }

    /// The count as the state file keeps it: the ms time it began, "" for none.
    func savedCount(_ scenario: Scenario) -> String {
        sqlite(scenario.state, "SELECT exit_delay_since FROM fence_state WHERE fence_id = '\"mooring\"'")
    }

    /// `type@HH:MM:SS` of the run's enter and exit events.
    func fenceEvents(_ output: LineCollector) -> [String] {
        let events = output.all.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        return FenceRulesTests.summary(events, types: ["enter", "exit"])
    }

    /// Beyond from 10:00:20; the run is killed at 10:00:50, its count saved though no event was;
    /// the next run's exit comes at 10:01:20, the first fix 60 s after the first one beyond, as
    /// in an uninterrupted replay of the same fixes (a count begun again would say 10:01:51).
    @Test func aRunKilledWhileTheCountRunsCarriesOnWithIt() throws {
        let scenario = try scenario(beyond: { $0 >= 20 })
        #expect(try replayed(scenario) == ["enter@10:00:00", "exit@10:01:20"])

        let first = try start(scenario)
        write(scenario, 0...50, to: first.pty)
        let saved = waitUntil(timeout: 30) { savedCount(scenario) == String(Self.milliseconds(20)) }
        #expect(saved, "the count's start is in the state file: '\(savedCount(scenario))', \(first.output.all)")
        #expect(fenceEvents(first.output) == ["enter@10:00:01"])
        killNine(first)

        let second = try restart(scenario, from: 50)
        #expect(second.status == 0, "\(second.stderr)")
        // Inside still at the restart: no second enter.
        #expect(second.events == ["exit@10:01:20"])
    }

    /// Beyond from 10:00:20 to 10:00:29, back within from 10:00:30: the count broke off, and the
    /// state file says so before the kill at 10:00:50. Beyond again from 10:00:51 in the next run:
    /// the delay begins there, and the exit comes at 10:01:51, as in an uninterrupted replay.
    @Test func aCountThatBrokeOffBeforeTheKillBeginsAgain() throws {
        let scenario = try scenario(beyond: { (20...29).contains($0) || $0 >= 51 })
        #expect(try replayed(scenario) == ["enter@10:00:00", "exit@10:01:51"])

        let first = try start(scenario)
        write(scenario, 0...29, to: first.pty)
        #expect(waitUntil(timeout: 30) { savedCount(scenario) == String(Self.milliseconds(20)) }, "\(first.output.all)")
        write(scenario, 30...50, to: first.pty)
        #expect(waitUntil(timeout: 30) { savedCount(scenario) == "" }, "broken off: '\(savedCount(scenario))'")
        killNine(first)

        let second = try restart(scenario, from: 50)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.events == ["exit@10:01:51"])
    }
}
