import Foundation
import Testing

/// Home Assistant's "Odometer today" (docs/mqtt.md) counts the user's day: it starts again at the
/// local midnight of `--timezone` (or of the system's zone), not at midnight UTC.
@Suite(.serialized) struct HomeAssistantOdometerTests {
    /// 2026-01-14T23:00:00Z: midnight in Berlin (UTC+1 in winter), an hour before midnight UTC.
    static let berlinMidnight = 1_768_431_600
    static let utcMidnight = berlinMidnight + 3600

    /// A van in Berlin, one fix a second: 1000 m before the local midnight, 600 m after it, 400 m
    /// more before midnight UTC and 200 m after that, parked in between.
    static func capture(_ folder: URL) throws -> String {
        let local = berlinMidnight
        let utc = utcMidnight
        var east = 0.0
        var track: [(second: Int, east: Double)] = []
        for second in (local - 300)...(utc + 120) {
            let driving =
                (local - 300..<local - 250).contains(second) || (local + 60..<local + 90).contains(second)
                || (utc - 300..<utc - 280).contains(second) || (utc + 60..<utc + 70).contains(second)
            if driving { east += 20 }
            track.append((second, east))
        }
        let path = folder.appendingPathComponent("berlin.nmea")
        try walkCapture(track, lat: 52.52, lon: 13.405).write(to: path, atomically: true, encoding: .utf8)
        return path.path
    }

    /// The `odometer_today` values (km) the receiver topic carried during a replay of `capture`.
    static func odometer(
        _ broker: MosquittoBroker, _ capture: String, fences: String, node: String, extra: [String] = [],
        environment: [String: String]? = nil
    ) throws -> [Double] {
        let topic = "fleet/\(node)/homeassistant/receiver"
        let receiver = try broker.subscribe(topic)
        defer { receiver.stop() }
        let arguments =
            [
                "replay", capture, "--fences", fences, "--speed", "max", "--mqtt",
                "mqtt://127.0.0.1:\(broker.port)/fleet/\(node)", "--homeassistant", "--mqtt-location-interval", "10",
            ] + extra
        let result = try environment.map { try runGPSFence(arguments, environment: $0) } ?? runGPSFence(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        // Every reading is in once the subscriber has the one the broker kept.
        let kept = try #require(try broker.retained(topic)[topic], "no retained receiver state")
        #expect(
            receiver.lines.wait(timeout: 20) { _ in receiver.payloads(topic).last == kept },
            "\(receiver.payloads(topic).suffix(3)) against \(kept)")
        return receiver.payloads(topic).compactMap { jsonObject($0)?["odometer_today"] as? Double }
    }

    /// Where the readings drop (the odometer started a new day): the reading before each drop.
    static func drops(_ readings: [Double]) -> [Double] {
        zip(readings, readings.dropFirst()).filter { $0.1 < $0.0 }.map(\.0)
    }

    @Test func theOdometerSensorStartsAgainAtLocalMidnight() throws {
        let folder = temporaryDirectory()
        let capture = try Self.capture(folder)
        let fences = folder.appendingPathComponent("far.geojson")
        try
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"far","geometry":{"type":"Point","coordinates":[13.6,52.7]},"properties":{"radius":40}}]}"#
            .write(to: fences, atomically: true, encoding: .utf8)
        let broker = try MosquittoBroker()

        // Berlin's day, by the option (the process itself in UTC) and by the system's zone.
        for (node, extra, environment) in [
            ("by-option", ["--timezone", "Europe/Berlin"], nil),
            ("by-system", [], ["TZ": "Europe/Berlin"]),
        ] as [(String, [String], [String: String]?)] {
            let readings = try Self.odometer(
                broker, capture, fences: fences.path, node: node, extra: extra, environment: environment)
            let drops = Self.drops(readings)
            // One new day, at 23:00 UTC, after the 1000 m before it; not at midnight UTC.
            #expect(drops.count == 1, "\(node): \(readings)")
            #expect(abs((drops.first ?? 0) - 1.0) < 0.03, "\(node): \(readings)")
            // 600 m and 400 m after the local midnight, then 200 m past midnight UTC on the same day.
            #expect(abs((readings.last ?? 0) - 1.2) < 0.03, "\(node): \(readings)")
        }

        // In UTC the same drive is one day of 2000 m until midnight UTC, and 200 m after it.
        let utc = try Self.odometer(broker, capture, fences: fences.path, node: "utc", extra: ["--utc"])
        let drops = Self.drops(utc)
        #expect(drops.count == 1, "\(utc)")
        #expect(abs((drops.first ?? 0) - 2.0) < 0.03, "\(utc)")
        #expect(abs((utc.last ?? 0) - 0.2) < 0.03, "\(utc)")
    }
}
