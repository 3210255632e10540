import Foundation
import Testing

/// The live reader with the real binary: `simulate` plays a 10 Hz receiver into a pseudo-terminal
/// that `run` reads. Far from every fence the reader sleeps through the cycles the engine foresees
/// quiet and reads them together; the drive still raises every event at the fence it passes.
@Suite(.serialized) struct QuietCyclesTests {
    static let start = (lat: 47.0, lon: 8.0)
    static let metre = 1 / 111_195.0

    /// How many times the thread named `name` in process `pid` has gone to sleep (its voluntary
    /// context switches: its wake-ups).
    static func sleeps(of name: String, in pid: Int32) -> Int? {
        let tasks = "/proc/\(pid)/task"
        for task in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
            guard let comm = try? String(contentsOfFile: "\(tasks)/\(task)/comm", encoding: .utf8),
                comm.trimmingCharacters(in: .whitespacesAndNewlines) == name,
                let status = try? String(contentsOfFile: "\(tasks)/\(task)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("voluntary_ctxt_switches:") })
            else { continue }
            return Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    @Test func farFromTheFencesTheReaderWakesOnceForSeveralCycles() throws {
        let folder = temporaryDirectory()
        // 12 km north at 50 m/s (240 s), through a 60 m circle 400 m along, then away from it: the
        // drive is long only so that a loaded machine still leaves a quiet window in it; the test
        // stops the run at the first quiet window.
        let route = folder.appendingPathComponent("route.geojson")
        try """
        {"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":\
        [[\(Self.start.lon),\(Self.start.lat)],[\(Self.start.lon),\(Self.start.lat + 12000 * Self.metre)]]}}
        """.write(to: route, atomically: true, encoding: .utf8)
        let fences = folder.appendingPathComponent("fences.geojson")
        try """
        {"type":"FeatureCollection","features":[{"type":"Feature","id":"gate","geometry":{"type":"Point",\
        "coordinates":[\(Self.start.lon),\(Self.start.lat + 400 * Self.metre)]},"properties":{"radius":60}}]}
        """.write(to: fences, atomically: true, encoding: .utf8)
        let link = folder.appendingPathComponent("gps0").path
        let simulator = try BackgroundGPSFence([
            "simulate", route.path, "--rate", "10", "--speed", "50", "--baud", "115200", "--link", link,
            "--wait-for-reader",
        ])
        _ = simulator.readFirstLine()
        let run = try BackgroundGPSFence([
            "run", "--device", link, "--baud", "115200", "--fences", fences.path, "--json",
        ])
        let output = LineCollector(run.output.fileHandleForReading)
        #expect(output.wait { types($0).contains("device_connected") }, "\(output.all)")
        #expect(output.wait(timeout: 60) { types($0).contains("exit") }, "\(output.all)")
        // Past the fence, windows of 2 s (20 cycles each), until one is quiet or the drive is
        // nearly over. On a loaded machine a late cycle makes the reader learn the pace again, a
        // second of reading as bytes come, and a machine busy for a while keeps it reading so:
        // the test waits for a window that the load left alone.
        let pid = run.process.processIdentifier
        var windows: [Int] = []
        var last = try #require(Self.sleeps(of: "gf-reader", in: pid))
        // Reading every cycle, the reader wakes 22-24 times in 2 s (docs/performance.md); sleeping
        // through five cycles at a time, with a check every sixteen, about 6.
        while windows.count < 100, (windows.min() ?? 99) > 12, run.process.isRunning {
            // A window's length is the measure itself, not a wait for a state.
            Thread.sleep(forTimeInterval: 2)
            let now = try #require(Self.sleeps(of: "gf-reader", in: pid))
            windows.append(now - last)
            last = now
        }
        #expect((windows.min() ?? 99) <= 12, "the reader's wake-ups in 2 s windows of 10 Hz: \(windows)")

        run.signal(SIGINT)
        let stopped = run.finish()
        output.finish()
        simulator.signal(SIGTERM)
        _ = simulator.finish()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        let events = output.all.compactMap { jsonObject($0) }.filter {
            ($0["fence"] as? [String: Any])?["id"] as? String == "gate"
        }
        #expect(events.map { $0["type"] as? String } == ["enter", "exit"], "\(events)")
    }
}
