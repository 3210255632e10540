import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A vehicle of the fleet tests: `simulate` drives a looping road past a row of fences into a real
/// `gpsfence run --json` with a state file of its own (so a client id of its own), publishing to
/// MQTT. The road goes east 1 km and back at 100 m/s, 5 fixes a second, past 8 circles of 25 m
/// 100 m apart: 32 events (an enter and an exit each way) every 20 s.
final class FleetVehicle {
    /// The simulated line's speed. A simulator paces its bytes at the line's speed, waking every
    /// 2 ms while a cycle is on the line: at 38400 baud fifty simulators took 1.1 of the machine's
    /// two cores (debug build) and starved the cluster, whose consumer then delivered next to
    /// nothing; at 460800 the fleet (simulators and runs) takes about half a core.
    static let baud = "460800"

    let name: String
    let simulator: BackgroundGPSFence
    let run: BackgroundGPSFence
    let output: LineCollector
    /// Its standard error, line by line: where it says a broker is reachable again.
    let notices: LineCollector

    static let centre = (lat: 47.0, lon: 8.0)

    /// The row of fences as a GeoJSON FeatureCollection; `extra` adds one more circle at the row's
    /// west end, with that id.
    static func fences(extra: String? = nil) -> String {
        let metre = 1 / (6_371_008.8 * .pi / 180 * cos(centre.lat * .pi / 180))
        var features = (0..<8).map { index in
            circle("f\(index)", lon: centre.lon + Double(index * 100 - 350) * metre)
        }
        if let extra { features.append(circle(extra, lon: centre.lon - 450 * metre)) }
        return #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"
    }

    private static func circle(_ id: String, lon: Double) -> String {
        #"{"type":"Feature","id":"\#(id)","geometry":{"type":"Point","coordinates":[\#(lon),\#(centre.lat)]},"properties":{"radius":25}}"#
    }

    /// The road, written once into `folder`.
    static func road(_ folder: URL) throws -> String {
        let metre = 1 / (6_371_008.8 * .pi / 180 * cos(centre.lat * .pi / 180))
        let west = centre.lon - 500 * metre
        let east = centre.lon + 500 * metre
        let road = folder.appendingPathComponent("road.geojson")
        try """
        {"type":"Feature","geometry":{"type":"LineString","coordinates":[[\(west),\(centre.lat)],[\(east),\(centre.lat)],[\(west),\(centre.lat)]]},"properties":{}}
        """.write(to: road, atomically: true, encoding: .utf8)
        return road.path
    }

    /// - Parameters:
    ///   - fences: a fence file's path or an `mqtt://` URL.
    ///   - start: the simulator's first fix time; vehicles given different ones have different
    ///     event ids.
    init(name: String, folder: URL, road: String, fences: String, mqtt: String, start: String, extra: [String] = [])
        throws
    {
        self.name = name
        let own = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: own, withIntermediateDirectories: true)
        let link = own.appendingPathComponent("gps0").path
        simulator = try BackgroundGPSFence([
            "simulate", road, "--baud", Self.baud, "--rate", "5", "--speed", "100", "--loop", "--link", link,
            "--start", start,
        ])
        _ = simulator.readFirstLine()
        run = try BackgroundGPSFence(
            [
                "run", "--device", link, "--baud", Self.baud, "--fences", fences, "--state",
                own.appendingPathComponent("state.sqlite").path, "--json", "--mqtt", mqtt,
            ] + extra)
        output = LineCollector(run.output.fileHandleForReading)
        notices = LineCollector(run.errors.fileHandleForReading)
    }

    /// The ids of the events it printed, in order (each is committed to its outbox before it is
    /// printed).
    var printed: [String] { eventIDs(output.all) }

    /// The messages of its `error` events.
    var errors: [String] {
        output.all.compactMap(jsonObject).filter { $0["type"] as? String == "error" }.compactMap {
            $0["message"] as? String
        }
    }

    /// Stops the receiver (SIGINT); the run goes on without fixes.
    func stopReceiver() {
        guard simulator.process.isRunning else { return }
        simulator.signal(SIGINT)
        _ = simulator.finish()
    }

    /// Stops the receiver, then the run (SIGINT), and returns the run's standard error.
    func stop() -> String {
        stopReceiver()
        run.signal(SIGINT)
        _ = run.finish()
        output.finish()
        notices.finish()
        return notices.all.joined(separator: "\n")
    }
}
