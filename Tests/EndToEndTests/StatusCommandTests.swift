import Foundation
import Testing
import Waiting

/// `gpsfence status` (docs/report.md) against a live `run` fed by `gpsfence simulate` on a real
/// pseudo-terminal, then after the run stopped.
@Suite(.serialized) struct StatusCommandTests {
    /// A yard and a depot 0.01° (758 m) east of it, and a 20 m route in the middle of the yard (to play over
    /// and over at walking pace), written into `folder`; with the path of a state file there.
    static func yardAndRoute(in folder: URL) throws -> (fences: URL, route: URL, state: String) {
        let fences = folder.appendingPathComponent("fences.geojson")
        try """
        {"type":"FeatureCollection","features":[
         {"type":"Feature","id":"yard","geometry":{"type":"Point","coordinates":[8.0,47.0]},"properties":{"name":"Yard","radius":50}},
         {"type":"Feature","id":"depot","geometry":{"type":"Point","coordinates":[8.01,47.0]},"properties":{"name":"Depot","radius":50}}]}
        """.write(to: fences, atomically: true, encoding: .utf8)
        let route = folder.appendingPathComponent("route.geojson")
        try """
        {"type":"Feature","geometry":{"type":"LineString","coordinates":[[7.99987,47.0],[8.00013,47.0]]},"properties":{}}
        """.write(to: route, atomically: true, encoding: .utf8)
        return (fences, route, folder.appendingPathComponent("state.sqlite").path)
    }

    @Test func statusShowsTheFenceALiveRunIsInside() throws {
        let folder = temporaryDirectory()
        let (fences, route, state) = try Self.yardAndRoute(in: folder)

        let simulator = try BackgroundGPSFence([
            "simulate", route.path, "--baud", "9600", "--rate", "2", "--speed", "2", "--loop",
        ])
        let pty = simulator.readFirstLine()
        #expect(pty.hasPrefix("/dev/pts/"))
        let run = try BackgroundGPSFence(
            ["run", "--device", pty, "--baud", "9600", "--fences", fences.path, "--state", state, "--json"],
            environment: ["XDG_STATE_HOME": folder.path])
        let output = LineCollector(run.output.fileHandleForReading)
        #expect(output.wait { types($0).contains("enter") }, "\(output.all)")
        // The track is written about once a second: wait for a last fix in the file.
        var live: [String: Any] = [:]
        try waitUntil(timeout: 20, every: 0.3) {
            let status = try runGPSFence(["status", "--state", state, "--json"])
            #expect(status.status == 0, "\(status.stderr)")
            live = (try? JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]) ?? [:]
            return live["last_fix"] != nil
        }
        #expect(live["running"] as? Bool == true)
        #expect(live["inside"] as? [String] == ["yard"])
        #expect(live["device"] as? String == pty)
        #expect((live["detail"] as? String)?.contains("9600") == true)
        let cards = live["fences"] as? [[String: Any]] ?? []
        #expect(cards.first?["id"] as? String == "yard" && cards.first?["inside"] as? Bool == true)
        // The depot is 0.01° east: 758 m from the yard's centre, 708 m from its edge; the receiver
        // is within 10 m of the centre, so 698 to 718 m from the depot's edge.
        let depot = cards.first { $0["id"] as? String == "depot" }
        #expect(
            (depot?["distance"] as? Double).map { (690...720).contains($0) } == true, "\(String(describing: depot))")
        let lastFix = live["last_fix"] as? [String: Any]
        #expect((lastFix?["age"] as? Double).map { $0 < 10 } == true)

        let text = try runGPSFence(["status", "--state", state])
        #expect(text.stdout.contains("monitoring"))
        #expect(text.stdout.contains("Yard [yard]"))
        #expect(text.stdout.contains("INSIDE since"))
        #expect(text.stdout.contains(pty + " at 9600 baud"))

        run.signal(SIGINT)
        #expect(run.finish().status == 0)
        output.finish()
        simulator.signal(SIGTERM)
        _ = simulator.finish(timeout: 10)

        let after = try runGPSFence(["status", "--state", state, "--json"])
        let stopped = try #require(JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [String: Any])
        #expect(stopped["running"] as? Bool == false)
        #expect(stopped["stopped_at"] is String)
        #expect(stopped["inside"] as? [String] == ["yard"], "the saved state: still inside when it stopped")
        let afterText = try runGPSFence(["status", "--state", state])
        #expect(afterText.stdout.contains("stopped at"))
        #expect(afterText.stdout.contains("the last fix this state file saw"))
    }

    @Test func missingStateFileIsExitStatusTwo() throws {
        let result = try runGPSFence(["status", "--state", "/nonexistent/state.sqlite"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/nonexistent/state.sqlite"))
    }
}
