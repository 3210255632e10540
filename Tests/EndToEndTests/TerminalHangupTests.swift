import Foundation
import Testing

/// SIGHUP means two things (docs/running.md, "Signals and reloads"): to a `run` started from a
/// terminal, that the terminal went away, so it stops and lets go of the receiver; to a service,
/// a reload of the fences. `Tests/Support/terminal_hangup.py` runs the real binary on a real
/// pseudo-terminal that is its controlling terminal (and closes it), or with none (setsid).
@Suite(.serialized) struct TerminalHangupTests {
    static let start = (lat: 47.0, lon: 8.0)

    /// `simulate` looping a short drive into a pseudo-terminal, and the `run` arguments to read it.
    static func drive(_ folder: URL) throws -> (simulator: BackgroundGPSFence, run: [String]) {
        let route = folder.appendingPathComponent("route.geojson")
        try """
        {"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":\
        [[\(start.lon),\(start.lat)],[\(start.lon),\(start.lat + 0.002)]]}}
        """.write(to: route, atomically: true, encoding: .utf8)
        let fences = folder.appendingPathComponent("fences.geojson")
        try """
        {"type":"FeatureCollection","features":[{"type":"Feature","id":"yard","geometry":{"type":"Point",\
        "coordinates":[\(start.lon),\(start.lat)]},"properties":{"radius":50}}]}
        """.write(to: fences, atomically: true, encoding: .utf8)
        let link = folder.appendingPathComponent("gps0").path
        let simulator = try BackgroundGPSFence([
            "simulate", route.path, "--rate", "1", "--speed", "10", "--baud", "9600", "--link", link, "--loop",
        ])
        _ = simulator.readFirstLine()
        let run = [
            gpsfenceBinary().path, "run", "--device", link, "--baud", "9600", "--fences", fences.path, "--state",
            folder.appendingPathComponent("state.sqlite").path, "--json",
        ]
        return (simulator, run)
    }

    static func hangup(_ mode: String, _ run: [String]) throws -> [String: Any] {
        let script = packageRoot.appendingPathComponent("Tests/Support/terminal_hangup.py").path
        let result = try runProgram("/usr/bin/env", ["python3", script, mode] + run)
        return try #require(jsonObject(result.stdout.split(separator: "\n").last.map(String.init)), "\(result)")
    }

    @Test func closingTheTerminalStopsTheRunCleanly() throws {
        let folder = temporaryDirectory()
        let (simulator, run) = try Self.drive(folder)
        defer { simulator.signal(SIGTERM) }
        let outcome = try Self.hangup("terminal", run)
        #expect(outcome["ready"] as? Bool == true, "\(outcome)")
        #expect(outcome["stopped"] as? Bool == true, "a run whose terminal went away kept running: \(outcome)")
        #expect(outcome["exit"] as? Int == 0, "\(outcome)")
        #expect((outcome["seconds"] as? Double ?? 99) < 10, "\(outcome)")
        // Its state file is free again: a second run on it is not refused as in use.
        let again = try runGPSFence([
            "replay", packageRoot.appendingPathComponent("captures/bridge/capture.nmea").path, "--fences",
            folder.appendingPathComponent("fences.geojson").path, "--state",
            folder.appendingPathComponent("state.sqlite").path,
        ])
        #expect(again.status == 0, "\(again.stderr)")
    }

    @Test func aServiceReloadsOnHangupAndStopsOnTerm() throws {
        let folder = temporaryDirectory()
        let (simulator, run) = try Self.drive(folder)
        defer { simulator.signal(SIGTERM) }
        let outcome = try Self.hangup("service", run)
        #expect(outcome["ready"] as? Bool == true, "\(outcome)")
        #expect(outcome["alive_after_hangup"] as? Bool == true, "a service stopped on SIGHUP: \(outcome)")
        let types = outcome["types"] as? [String] ?? []
        #expect(types.filter { $0 == "registered" }.count >= 2, "no reload after SIGHUP: \(types)")
        #expect(outcome["stopped"] as? Bool == true, "\(outcome)")
        #expect(outcome["exit"] as? Int == 0, "\(outcome)")
    }
}
