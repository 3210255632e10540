import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The integrity state as a fleet operator and a Home Assistant user see it, live: `gpsfence
/// simulate --jam` (or `--spoof`) on a pseudo-terminal, `gpsfence run --mqtt ... --homeassistant`
/// reading it, a real mosquitto, and the real Home Assistant (`RealHomeAssistant`; the oldest
/// supported release here, the current one through `CurrentHomeAssistantTests`) following the
/// "GNSS integrity" sensor by discovery alone.
@Suite(.serialized) struct IntegrityHomeAssistantTests {
    let release: HomeAssistantRelease

    init() { release = .oldest }
    init(_ release: HomeAssistantRelease) { self.release = release }

    /// The simulated receivers' clock starts here; the jammer and the spoofer are counted from it.
    static let start = "2026-02-03T10:15:00Z"
    static let startSeconds = 1_770_113_700.0

    /// A vehicle parked for `seconds` at 42.2806 N, 83.7519 W: a GPX of two timed points.
    static func parkedRoute(seconds: Int, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent("parked.gpx")
        let point = #"lat="42.2806" lon="-83.7519""#
        let end = String(format: "2026-02-03T10:%02d:%02dZ", 15 + seconds / 60, seconds % 60)
        let text =
            #"<?xml version="1.0"?><gpx version="1.1" creator="test"><trk><trkseg>"#
            + #"<trkpt \#(point)><time>\#(start)</time></trkpt>"#
            + #"<trkpt \#(point)><time>\#(end)</time></trkpt>"#
            + "</trkseg></trk></gpx>\n"
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// Seconds after `start` of an ISO time.
    static func second(_ text: Any?) -> Double? {
        guard let text = text as? String else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let date = formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text) else { return nil }
        return date.timeIntervalSince1970 - startSeconds
    }

    /// `simulate ROUTE EXTRA` on a pseudo-terminal linked in `folder`, and `run` on it publishing
    /// to `broker` under `fleet/DEVICE` with Home Assistant's discovery.
    static func vehicle(
        _ device: String, route: String, _ extra: [String], broker: MosquittoBroker, in folder: URL
    ) throws -> (simulator: BackgroundGPSFence, run: BackgroundGPSFence) {
        let link = folder.appendingPathComponent("gps-\(device)").path
        let simulator = try BackgroundGPSFence(
            ["simulate", route, "--baud", "38400", "--rate", "1", "--link", link, "--start", start] + extra)
        _ = simulator.readFirstLine()
        let fences = folder.appendingPathComponent("none.geojson").path
        try #"{"type":"FeatureCollection","features":[]}"#.write(toFile: fences, atomically: true, encoding: .utf8)
        let run = try BackgroundGPSFence([
            "run", "--device", link, "--baud", "38400", "--fences", fences, "--state",
            folder.appendingPathComponent("\(device).sqlite").path, "--json", "--mqtt-location-interval", "0",
            "--mqtt", "mqtt://127.0.0.1:\(broker.port)/fleet/\(device)", "--homeassistant",
        ])
        return (simulator, run)
    }

    /// The states of the retained `PREFIX/integrity` messages a subscriber received, in order.
    static func states(_ subscriber: Subscriber, _ topic: String) -> [(state: String, since: Double?)] {
        subscriber.payloads(topic).compactMap { jsonObject($0) }.compactMap { payload in
            (payload["state"] as? String).map { ($0, second(payload["since"])) }
        }
    }

    /// A jammer from 20 s for 15 s on van-7, a spoofer from 20 s on van-8, both parked and watched
    /// at once: MQTT carries `jammed` (within 10 s of the onset, by the receiver's clock) then `ok`
    /// for van-7, and `spoofed` (within 10 s of the takeover) for van-8, each retained; Home
    /// Assistant's "GNSS integrity" sensors go through the same states.
    @Test func mqttAndHomeAssistantFollowTheJammerAndTheSpoofer() throws {
        let folder = temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let broker = try MosquittoBroker()
        let homeAssistant = try RealHomeAssistant(
            release, broker: broker, home: RealHomeAssistantTests.farHome, zones: [])
        let subscriber = try broker.subscribe("fleet/+/integrity")
        let route = try Self.parkedRoute(seconds: 150, in: folder)
        let jammed = try Self.vehicle("van-7", route: route, ["--jam", "20+15"], broker: broker, in: folder)
        let spoofed = try Self.vehicle("van-8", route: route, ["--spoof", "20"], broker: broker, in: folder)
        defer {
            for process in [jammed.run, spoofed.run, jammed.simulator, spoofed.simulator] {
                process.signal(SIGTERM)
                _ = process.finish()
            }
        }
        let jamTopic = "fleet/van-7/integrity"
        let spoofTopic = "fleet/van-8/integrity"
        let told = subscriber.lines.wait(timeout: 150) { _ in
            let jam = Self.states(subscriber, jamTopic).map(\.state)
            return jam.drop { $0 != "jammed" }.contains("ok")
                && Self.states(subscriber, spoofTopic).contains { $0.state == "spoofed" }
        }
        #expect(told, "\(subscriber.lines.all)")

        let jam = Self.states(subscriber, jamTopic)
        let jamOnset = try #require(jam.first { $0.state == "jammed" }, "\(jam)")
        #expect((jamOnset.since ?? .infinity) - 20 <= 10, "jammed since \(String(describing: jamOnset.since)) s")
        #expect((jamOnset.since ?? 0) >= 20, "not before the jammer: \(jam)")
        #expect(!jam.contains { $0.state == "spoofed" }, "\(jam)")
        let spoof = Self.states(subscriber, spoofTopic)
        let takeover = try #require(spoof.first { $0.state == "spoofed" }, "\(spoof)")
        #expect((takeover.since ?? .infinity) - 20 <= 10, "spoofed since \(String(describing: takeover.since)) s")
        #expect((takeover.since ?? 0) >= 20, "not before the spoofer: \(spoof)")
        #expect(!spoof.contains { $0.state == "jammed" }, "\(spoof)")

        // Retained: a subscriber arriving now is told the state in force.
        let retained = try broker.retained("fleet/+/integrity")
        #expect(jsonObject(retained[jamTopic])?["state"] as? String == "ok", "\(retained)")
        #expect(jsonObject(retained[spoofTopic])?["state"] as? String == "spoofed", "\(retained)")

        // Home Assistant, by discovery alone: the sensors end in the same states, having been
        // `jammed` on the way.
        let sensors = homeAssistant.wait(timeout: 60) { states in
            states["sensor.van_7_gnss_integrity"]?.state == "ok"
                && states["sensor.van_8_gnss_integrity"]?.state == "spoofed"
        }
        let shown = homeAssistant.states().filter { $0.key.hasSuffix("gnss_integrity") }.mapValues(\.state)
        #expect(sensors, "\(shown)")
        let jamSensor = homeAssistant.changes().filter { $0.id == "sensor.van_7_gnss_integrity" }.map(\.state)
        #expect(jamSensor.drop { $0 != "jammed" }.contains("ok"), "jammed, then ok: \(jamSensor)")
        let spoofSensor = homeAssistant.changes().filter { $0.id == "sensor.van_8_gnss_integrity" }.map(\.state)
        #expect(!spoofSensor.contains("jammed"), "\(spoofSensor)")
        let sensor = try #require(homeAssistant.states()["sensor.van_8_gnss_integrity"])
        #expect(sensor.attributes["friendly_name"] as? String == "van-8 GNSS integrity", "\(sensor.attributes)")
        #expect(
            homeAssistant.complaints(about: ["van_7", "van-7", "van_8", "van-8", "gpsfence"]).isEmpty,
            "\(homeAssistant.complaints(about: ["van_7", "van-7", "van_8", "van-8", "gpsfence"]))")
    }
}
