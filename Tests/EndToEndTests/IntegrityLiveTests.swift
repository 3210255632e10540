import Foundation
import SkyScenarios
import Testing
import Waiting

/// The integrity monitor on a live receiver: written NMEA played in real time on a
/// pseudo-terminal to `gpsfence run` with an anchor watch. A jammer's onset is said within 10 s,
/// and the watch, blind now, raises the alarm with cause `integrity` (without `--alarm`).
@Suite struct IntegrityLiveTests {
    @Test func aJammedAnchorWatchRaisesTheAlarm() throws {
        let folder = temporaryDirectory()
        let capture = folder.appendingPathComponent("jam.nmea").path
        try WrittenSky.nmea(WrittenSky.jammer(onset: 20, seconds: 45)).write(
            toFile: capture, atomically: true, encoding: .utf8)
        let fences = folder.appendingPathComponent("fences.geojson").path
        try #"{"type":"FeatureCollection","features":[]}"#.write(toFile: fences, atomically: true, encoding: .utf8)
        let link = folder.appendingPathComponent("gps0").path
        let receiver = Process()
        receiver.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        receiver.arguments = [
            "python3", packageRoot.appendingPathComponent("Tests/Support/nmea_pty.py").path, link, capture,
        ]
        let said = Pipe()
        receiver.standardOutput = said
        try receiver.run()
        defer {
            receiver.terminate()
            receiver.waitUntilExit()
        }
        #expect(firstLineOf(said) == "ready")
        let run = try BackgroundGPSFence([
            "run", "--device", link, "--baud", "38400", "--fences", fences, "--state",
            folder.appendingPathComponent("state.sqlite").path, "--json", "--anchor", "30", "--anchor-at", "47.0,8.0",
        ])
        func alarm(_ events: [[String: Any]]) -> [String: Any]? {
            events.first { ($0["type"] as? String) == "alarm" }
        }
        let raised = waitUntil(timeout: 120, every: 0.5) { (try? alarm(stateEvents(folder))) != nil }
        run.signal(SIGTERM)
        _ = run.finish()
        let events = try stateEvents(folder)
        #expect(raised, "\(events.compactMap { $0["type"] as? String })")
        let jammed = try #require(
            events.first { ($0["type"] as? String) == "integrity" && ($0["state"] as? String) == "jammed" },
            "\(events.compactMap { $0["type"] as? String })")
        let onset = WrittenSky.start + 20_000
        let seconds = (IntegrityReplayTests.second(jammed) ?? .infinity) - Double(onset - WrittenSky.start) / 1000
        #expect(seconds <= 10, "\(jammed)")
        let cause = try #require(alarm(events)?["cause"] as? [String: Any])
        #expect(cause["type"] as? String == "integrity")
        #expect(cause["id"] as? String == jammed["id"] as? String)
        #expect(!events.contains { ($0["type"] as? String) == "exit" }, "no drag is made of a jammed position")
    }
}
