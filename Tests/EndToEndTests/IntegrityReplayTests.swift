import Foundation
import SkyScenarios
import Testing

/// The integrity monitor through the built binary: written NMEA replayed, the `integrity` event
/// printed, the positions of a jammed or spoofed receiver kept out of the fences, and MQTT's
/// retained `PREFIX/integrity` with Home Assistant's enum sensor.
@Suite struct IntegrityReplayTests {
    /// A circle of `radius` m around the place the scenarios start from (47° N 8° E).
    static func depot(radius: Double, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("depot.geojson").path
        let text = """
            {"type":"FeatureCollection","features":[{"type":"Feature","id":"depot","geometry":{"type":"Point",\
            "coordinates":[8.0,47.0]},"properties":{"name":"Depot","radius":\(radius)}}]}
            """
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func capture(_ cycles: [WrittenSky.Cycle], in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("sky.nmea").path
        try WrittenSky.nmea(cycles).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func events(_ stdout: String) -> [[String: Any]] {
        stdout.split(separator: "\n").compactMap { jsonObject(String($0)) }
    }

    /// Seconds after 10:00:00 of an event's ISO time.
    static func second(_ event: [String: Any], _ key: String = "time") -> Double? {
        guard let text = event[key] as? String else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let date = formatter.date(from: text) else { return nil }
        return date.timeIntervalSince1970 - Double(WrittenSky.start) / 1000
    }

    /// A spoofer takes over a vehicle parked in its depot and pulls it away at 3 m/s: `spoofed`
    /// within 10 s, and no `exit` from the depot on the spoofed positions.
    @Test func aSpoofedVehicleDoesNotLeaveItsDepot() throws {
        let folder = try SyncCommandTests.folder()
        let capture = try Self.capture(WrittenSky.spoofer(takeover: 60, seconds: 180), in: folder)
        let depot = try Self.depot(radius: 100, in: folder)
        let result = try runGPSFence(["replay", capture, "--fences", depot, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let events = Self.events(result.stdout)
        let integrity = events.filter { $0["type"] as? String == "integrity" }
        let spoofed = try #require(integrity.first { $0["state"] as? String == "spoofed" }, "\(result.stdout)")
        #expect((Self.second(spoofed) ?? .infinity) - 60 <= 10, "\(spoofed)")
        let reasons = spoofed["reasons"] as? [String] ?? []
        #expect(reasons.contains("uniform_cn0") && reasons.contains("clock_jump"), "\(reasons)")
        #expect(Self.second(spoofed, "since") == Self.second(spoofed), "since: when the state began")
        #expect(!events.contains { $0["type"] as? String == "exit" }, "\(result.stdout)")
        #expect(events.contains { $0["type"] as? String == "enter" }, "it was inside before: \(result.stdout)")

        // The spoofed positions end 360 m east, far beyond the 100 m circle: only the monitor's
        // word keeps them out of the fence's decisions.
        let human = try runGPSFence(["replay", capture, "--fences", depot])
        #expect(human.stdout.contains("GPS position unreliable: spoofing suspected"), "\(human.stdout)")
    }

    /// The receiver's own word between the sentences of a capture (u-blox's UBX-NAV-STATUS saying
    /// "spoofing affirmed" after each cycle from 60 s on), while its signals look healthy:
    /// `spoofed` with the reason `receiver_flag`, within 10 s.
    @Test func theReceiversOwnSpoofingReportIsBelieved() throws {
        let folder = try SyncCommandTests.folder()
        var noise = WrittenSky.Noise(seed: 4)
        var bytes = Data()
        for cycle in WrittenSky.atRest(0..<120, noise: &noise) {
            bytes += Data(WrittenSky.nmea([cycle]).utf8)
            if cycle.time >= 60 { bytes += Self.navigationStatus(spoofingState: 3) }
        }
        let capture = folder.appendingPathComponent("flagged.ubx.nmea")
        try bytes.write(to: capture)
        let depot = try Self.depot(radius: 100, in: folder)
        let result = try runGPSFence(["replay", capture.path, "--fences", depot, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let integrity = Self.events(result.stdout).filter { $0["type"] as? String == "integrity" }
        let spoofed = try #require(integrity.first { $0["state"] as? String == "spoofed" }, "\(result.stdout)")
        #expect((spoofed["reasons"] as? [String] ?? []).contains("receiver_flag"), "\(spoofed)")
        let second = Self.second(spoofed) ?? .infinity
        #expect(second >= 60 && second - 60 <= 10, "\(spoofed)")
        #expect(!integrity.contains { ($0["state"] as? String) != "ok" && (Self.second($0) ?? 0) < 60 }, "\(integrity)")
    }

    /// A UBX frame of `messageClass`, `id` and `payload`, with its Fletcher checksum, written out
    /// byte by byte from u-blox's layout.
    static func ubxFrame(_ messageClass: UInt8, _ id: UInt8, _ payload: [UInt8]) -> Data {
        let body: [UInt8] = [messageClass, id, UInt8(payload.count), 0] + payload
        var a: UInt8 = 0
        var b: UInt8 = 0
        for byte in body {
            a &+= byte
            b &+= a
        }
        return Data([0xB5, 0x62] + body + [a, b])
    }

    /// UBX-NAV-STATUS (class 1, id 3): a valid 3D fix, `flags2.spoofDetState` = `spoofingState`.
    static func navigationStatus(spoofingState: UInt8) -> Data {
        ubxFrame(0x01, 0x03, [0, 0, 0, 0, 0x03, 0x0D, 0x00, spoofingState << 3, 0xA8, 0x61, 0, 0, 0, 0, 0, 0])
    }

    /// A jammer's onset: `jammed` within 10 s, while the receiver still has a fix; the human line
    /// says what it means; when the signals come back, `ok` is said.
    @Test func aJammerIsSaidAndItsEndToo() throws {
        let folder = try SyncCommandTests.folder()
        var cycles = WrittenSky.jammer(onset: 60, seconds: 100)
        var noise = WrittenSky.Noise(seed: 11)
        cycles += WrittenSky.atRest(100..<200, noise: &noise)
        let capture = try Self.capture(cycles, in: folder)
        let depot = try Self.depot(radius: 100, in: folder)
        let result = try runGPSFence(["replay", capture, "--fences", depot, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let integrity = Self.events(result.stdout).filter { $0["type"] as? String == "integrity" }
        let jammed = try #require(integrity.first { $0["state"] as? String == "jammed" }, "\(result.stdout)")
        #expect((Self.second(jammed) ?? .infinity) - 60 <= 10, "\(jammed)")
        #expect((jammed["reasons"] as? [String])?.contains("cn0_drop") == true, "\(jammed)")
        #expect(integrity.last?["state"] as? String == "ok", "\(integrity)")
        let human = try runGPSFence(["replay", capture, "--fences", depot])
        #expect(human.stdout.contains("GPS position unreliable: jamming suspected"), "\(human.stdout)")
        #expect(human.stdout.contains("GPS position trusted again"), "\(human.stdout)")
    }

    /// Four hours of ordinary urban driving written by scripts/integrity_captures.py (satellites
    /// rising and setting, blocked one at a time, C/N0 noisy, canyons lowering the low satellites
    /// across the street for seconds, underpasses and a tunnel, multipath throwing the position
    /// 20-120 m): never `jammed` nor `spoofed`. The benchmark (scripts/bench_integrity.py) replays
    /// whole days of it.
    @Test(arguments: [1, 2] as [UInt64]) func urbanDrivingIsNeverJammedNorSpoofed(seed: UInt64) throws {
        let folder = try SyncCommandTests.folder()
        let script = packageRoot.appendingPathComponent("scripts/integrity_captures.py").path
        let written = try runProgram(
            "/usr/bin/env", ["python3", script, "urban", "--hours", "4", "--seed", String(seed)])
        #expect(written.status == 0, "\(written.stderr)")
        let capture = folder.appendingPathComponent("urban.nmea")
        try written.stdout.write(to: capture, atomically: true, encoding: .utf8)
        let depot = try Self.depot(radius: 100, in: folder)
        let result = try runGPSFence(["replay", capture.path, "--fences", depot, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let integrity = Self.events(result.stdout).filter { $0["type"] as? String == "integrity" }
        let unreliable = integrity.filter { ["jammed", "spoofed"].contains($0["state"] as? String) }
        #expect(unreliable.isEmpty, "\(unreliable)")
    }

    /// One reason each, through the binary: a written step of the position, the altitude or the
    /// clock, a RAIM fault, poor geometry, a large ellipse: `degraded` with that reason, then `ok`.
    @Test func eachReasonIsDegradedThenOK() throws {
        let folder = try SyncCommandTests.folder()
        let depot = try Self.depot(radius: 100, in: folder)
        let cases: [(String, (inout [WrittenSky.Cycle]) -> Void)] = [
            ("position_jump", { $0[100].east = 800 }),
            ("altitude_jump", { $0[100].altitude = 2500 }),
            ("raim_fault", { $0[100].raimFailed = 7 }),
            ("high_dop", { $0[100].pdop = 18 }),
            ("large_error", { $0[100].ellipse = 240 }),
            ("clock_jump", { cycles in for index in 100..<cycles.count { cycles[index].time += 1.8 } }),
            (
                "uniform_cn0",
                { cycles in
                    for index in 100..<110 {
                        for satellite in cycles[index].satellites.indices {
                            cycles[index].satellites[satellite].cn0 = 50
                        }
                    }
                }
            ),
            (
                "satellites_lost",
                { cycles in
                    // Two thirds of the sky, not all of it: a whole sky gone at once at rest is
                    // a jam (IntegrityMonitorTests).
                    for index in 100..<120 {
                        for satellite in 0..<8 { cycles[index].satellites[satellite].cn0 = nil }
                    }
                }
            ),
        ]
        for (reason, change) in cases {
            var noise = WrittenSky.Noise(seed: 12)
            var cycles = WrittenSky.atRest(0..<200, noise: &noise)
            change(&cycles)
            let capture = try Self.capture(cycles, in: folder)
            let result = try runGPSFence(["replay", capture, "--fences", depot, "--json"])
            #expect(result.status == 0, "\(reason): \(result.stderr)")
            let integrity = Self.events(result.stdout).filter { $0["type"] as? String == "integrity" }
            #expect(integrity.first?["state"] as? String == "degraded", "\(reason): \(integrity)")
            #expect((integrity.first?["reasons"] as? [String])?.contains(reason) == true, "\(reason): \(integrity)")
            #expect(integrity.last?["state"] as? String == "ok", "\(reason): \(integrity)")
        }
    }

    /// `status` (and so `--watch` and the page's status JSON) shows the judgement in force at the
    /// top, from the state file the replay wrote.
    @Test func statusShowsTheJudgementAtTheTop() throws {
        let folder = try SyncCommandTests.folder()
        let capture = try Self.capture(WrittenSky.spoofer(takeover: 30, seconds: 60), in: folder)
        let depot = try Self.depot(radius: 100, in: folder)
        let state = folder.appendingPathComponent("state.sqlite").path
        let replay = try runGPSFence(["replay", capture, "--fences", depot, "--state", state])
        #expect(replay.status == 0, "\(replay.stderr)")
        let json = try runGPSFence(["status", "--state", state, "--json"])
        let status = try #require(jsonObject(json.stdout), "\(json.stdout)")
        let integrity = try #require(status["integrity"] as? [String: Any], "\(json.stdout)")
        #expect(integrity["state"] as? String == "spoofed")
        #expect((integrity["reasons"] as? [String])?.contains("uniform_cn0") == true, "\(integrity)")
        let text = try runGPSFence(["status", "--state", state, "--timezone", "UTC"])
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count > 2, "\(text.stdout)")
        #expect(
            lines.dropFirst().first?.contains("GPS position unreliable: spoofing suspected since") == true,
            "\(text.stdout)")
    }

    /// `PREFIX/integrity` is retained with the last state, and Home Assistant's discovery has the
    /// "GNSS integrity" enum sensor reading it.
    @Test func mqttRetainsTheStateAndHomeAssistantHasTheSensor() throws {
        let broker = try MosquittoBroker()
        let folder = try SyncCommandTests.folder()
        let capture = try Self.capture(WrittenSky.spoofer(takeover: 30, seconds: 60), in: folder)
        let depot = try Self.depot(radius: 100, in: folder)
        let result = try runGPSFence([
            "replay", capture, "--fences", depot, "--json", "--mqtt", "mqtt://127.0.0.1:\(broker.port)/fleet/van-7",
            "--homeassistant",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let retained = try broker.retained("#")
        let integrity = try #require(jsonObject(retained["fleet/van-7/integrity"]), "\(retained.keys.sorted())")
        #expect(integrity["state"] as? String == "spoofed", "\(integrity)")
        #expect((integrity["reasons"] as? [String])?.contains("uniform_cn0") == true, "\(integrity)")
        #expect(integrity["since"] is String, "\(integrity)")
        let config = try #require(
            jsonObject(retained["homeassistant/sensor/fleet_van-7/integrity/config"]), "\(retained.keys.sorted())")
        #expect(config["name"] as? String == "GNSS integrity")
        #expect(config["device_class"] as? String == "enum")
        #expect(config["options"] as? [String] == ["ok", "degraded", "jammed", "spoofed"])
        #expect(config["state_topic"] as? String == "fleet/van-7/integrity")
        #expect(config["value_template"] as? String == "{{ value_json.state }}")
    }
}
