import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `gpsfence decode --device` (docs/formats.md): a live receiver's fixes streamed as they come,
/// from a real pseudo-terminal fed by `gpsfence simulate`, and through a real gpsd reading it.
@Suite(.serialized) struct LiveDecodeTests {
    /// A 20 m line at 47° N 8° E, played over and over.
    func simulator() throws -> (BackgroundGPSFence, String) {
        let folder = temporaryDirectory()
        let route = folder.appendingPathComponent("route.geojson")
        try """
        {"type":"Feature","geometry":{"type":"LineString","coordinates":[[7.99987,47.0],[8.00013,47.0]]},"properties":{}}
        """.write(to: route, atomically: true, encoding: .utf8)
        let simulator = try BackgroundGPSFence([
            "simulate", route.path, "--baud", "9600", "--rate", "2", "--speed", "2", "--loop",
        ])
        return (simulator, simulator.readFirstLine())
    }

    func fixes(_ lines: [String]) -> [[String: Any]] {
        lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    func isOnTheRoute(_ fix: [String: Any]) -> Bool {
        guard let lat = fix["lat"] as? Double, let lon = fix["lon"] as? Double else { return false }
        return abs(lat - 47.0) < 0.0001 && abs(lon - 8.0) < 0.0003
    }

    @Test func streamsFixesFromAPseudoTerminalAsTheyCome() throws {
        let (simulator, pty) = try simulator()
        defer {
            simulator.signal(SIGINT)
            _ = simulator.finish()
        }
        #expect(pty.hasPrefix("/dev/pts/"))
        let decode = try BackgroundGPSFence(["decode", "--device", pty, "--baud", "9600"])
        let output = LineCollector(decode.output.fileHandleForReading)
        // Two fixes while the command still runs: each line is written when its fix is made,
        // not held until the end.
        #expect(output.wait { fixes($0).count >= 2 }, "\(output.all)")
        #expect(decode.process.isRunning)
        decode.signal(SIGINT)
        let (status, stderr) = decode.finish()
        #expect(status == 0, "\(stderr)")
        #expect(stderr.contains("reading \(pty) at 9600 baud"), "\(stderr)")
        let seen = fixes(output.all)
        #expect(seen.count >= 2 && seen.allSatisfy(isOnTheRoute), "\(output.all)")
        #expect(seen.allSatisfy { ($0["mode"] as? Int ?? 0) >= 2 }, "\(output.all)")

        let counted = try runGPSFence(["decode", "--device", pty, "--baud", "9600", "--count", "3"])
        #expect(counted.status == 0, "\(counted.stderr)")
        let three = fixes(counted.stdout.split(separator: "\n").map(String.init))
        #expect(three.count == 3 && three.allSatisfy(isOnTheRoute), "\(counted.stdout)")
        // One line per fix: no time twice (the first fix may lack the date, read mid-stream).
        let times = three.compactMap { $0["time"] as? String }
        #expect(times.count >= 2 && Set(times).count == times.count, "\(times)")
    }

    @Test func streamsFixesThroughARealGpsd() throws {
        let (simulator, pty) = try simulator()
        defer {
            simulator.signal(SIGINT)
            _ = simulator.finish()
        }
        let port = try freeLoopbackPort()
        let gpsd = try GpsdDaemon(port: port, device: pty)
        defer { gpsd.kill() }
        let counted = try runGPSFence(["decode", "--device", "gpsd://127.0.0.1:\(port)", "--count", "3"])
        #expect(counted.status == 0, "\(counted.stderr)")
        let three = fixes(counted.stdout.split(separator: "\n").map(String.init))
        #expect(three.count == 3 && three.allSatisfy(isOnTheRoute), "\(counted.stdout)")
    }

    @Test func refusesACaptureAsTheDeviceAndFilesWithADevice() throws {
        let capture = "captures/gpsd-sample/ublox-neo-m9n-nmea.log"
        let file = try runGPSFence(["decode", "--device", capture])
        #expect(file.status == 2)
        #expect(file.stderr.contains("gpsfence decode \(capture)"), "\(file.stderr)")
        let both = try runGPSFence(["decode", capture, "--device", "/dev/null"])
        #expect(
            both.status == 2 && both.stderr.contains("capture files and --device exclude each other"), "\(both.stderr)")
        let typo = try runGPSFence(["decode", "--device", "gpsd:/"])
        #expect(typo.status == 2, "\(typo.stderr)")
    }
}
