import Foundation
import Testing

/// The fence rules on the live path (docs/fences.md, "Rules"): a simulated receiver on a real
/// pseudo-terminal, `gpsfence run` reading it.
@Suite(.serialized) struct FenceRulesRunTests {
    /// The route of `RunCommandTests` (west to east through (47° N, 8° E), a fix every 20 m at
    /// 100 m/s) past three circles of 30 m on it: `low` (clearance 3 m, limit 50 m/s), `gone`
    /// (expired a minute before the drive starts at 10:15:00) and `later` (active only from 11:00,
    /// read in UTC with `--utc`: the fence has no `timezone`).
    /// With `--vehicle-height 4` and `--speeding-confirm 2`: `gone` is unregistered at the first
    /// fix and never entered, `later` says nothing; `low` is entered flagged too_low (fixes at
    /// -20, 0, 20 m are inside), speeding at the second fix inside (100 > 50 m/s), then left.
    @Test func expiryWindowsSpeedAndClearanceOnALiveRun() throws {
        let folder = temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let route = try RunCommandTests().writeFiles(folder).route
        let centre = RunCommandTests.centre
        func circle(_ id: String, _ rules: String) -> String {
            #"{"type":"Feature","id":"\#(id)","geometry":{"type":"Point","coordinates":[\#(centre.lon),\#(centre.lat)]},"#
                + #""properties":{"radius":30,\#(rules)}}"#
        }
        let fences = folder.appendingPathComponent("rules.geojson")
        try
            (#"{"type":"FeatureCollection","features":["#
            + [
                circle("low", #""clearance":3,"speed_limit":50"#),
                circle("gone", #""expires":"2026-02-03T10:14:00Z""#),
                circle("later", #""active":"11:00-12:00""#),
            ].joined(separator: ",") + "]}").write(to: fences, atomically: true, encoding: .utf8)
        let link = folder.appendingPathComponent("gps0").path
        let simulator = try RunCommandTests.simulatedPass(route: route, link: link, start: "2026-02-03T10:15:00Z")
        let run = try BackgroundGPSFence([
            "run", "--device", link, "--baud", "38400", "--fences", fences.path, "--state",
            folder.appendingPathComponent("state.sqlite").path, "--json", "--vehicle-height", "4",
            "--speeding-confirm", "2", "--utc",
        ])
        let output = LineCollector(run.output.fileHandleForReading)
        #expect(output.wait { types($0).contains("exit") }, "\(output.all)")
        _ = simulator.finish()
        run.signal(SIGINT)
        let stopped = run.finish()
        output.finish()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        let events = output.all.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        func fenceID(_ event: [String: Any]) -> String? { (event["fence"] as? [String: Any])?["id"] as? String }
        let summary = events.compactMap { event -> String? in
            guard let type = event["type"] as? String,
                ["enter", "exit", "speeding", "unregistered", "approach", "cross"].contains(type)
            else { return nil }
            return type + ":" + (fenceID(event) ?? (event["fences"] as? [String] ?? []).joined(separator: ","))
        }
        #expect(summary == ["unregistered:gone", "enter:low", "speeding:low", "exit:low"], "\(summary)")
        let enter = events.first { $0["type"] as? String == "enter" }
        #expect(enter?["too_low"] as? Bool == true)
        let speeding = events.first { $0["type"] as? String == "speeding" }
        #expect(speeding?["limit"] as? Double == 50)
    }
}
