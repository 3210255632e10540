import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A real Home Assistant (`RealHomeAssistant`; the oldest supported release here, the current one
/// through `CurrentHomeAssistantTests`) beside a real mosquitto, fed by the real binary with
/// `--homeassistant` and `--owntracks` (docs/mqtt.md, "Tested with Home Assistant"): what a new
/// user sees, with no configuration on Home Assistant's side beyond the broker.
@Suite(.serialized) struct RealHomeAssistantTests {
    let release: HomeAssistantRelease

    init() { release = .oldest }
    init(_ release: HomeAssistantRelease) { self.release = release }

    /// The device's name: the MQTT prefix's last level.
    static let device = "van-7"
    /// The entity ids every release gives the device's own entities (the replay's fences add theirs).
    static let deviceEntityIDs: Set<String> = [
        "device_tracker.van_7", "sensor.van_7_speed", "sensor.van_7_satellites_used", "sensor.van_7_fix_quality",
        "sensor.van_7_accuracy", "sensor.van_7_odometer_today", "sensor.van_7_motion", "binary_sensor.van_7_receiver",
        "binary_sensor.van_7_fix", "event.van_7_event", "sensor.van_7_gnss_integrity",
    ]
    /// What a log line or a repair issue about gpsfence's entities would name.
    static let ourWords = ["van_7", "van-7", "fleet_van-7", "fleet/van-7", "gpsfence"]
    /// Home, far from every route: Home Assistant's `home` zone never claims the receiver.
    static let farHome = (latitude: 40.80, longitude: -73.90)

    static let gymCapture = packageRoot.appendingPathComponent("captures/gym/capture.nmea")
    static let gym = (latitude: 40.741895, longitude: -73.989308)

    /// gpsfence's entities in `states`: those on its device.
    static func ours(_ states: [String: RealHomeAssistant.Entity]) -> [RealHomeAssistant.Entity] {
        states.values.filter { $0.device == device }
    }

    static func entity(_ states: [String: RealHomeAssistant.Entity], _ domain: String, suffix: String)
        -> RealHomeAssistant.Entity?
    {
        ours(states).first { $0.id.hasPrefix(domain + ".") && $0.id.hasSuffix(suffix) }
    }

    /// A circle fence as a GeoJSON feature.
    static func circle(
        _ id: String, _ name: String, latitude: Double, longitude: Double, radius: Double,
        extra: String = ""
    ) -> String {
        """
        {"type":"Feature","id":"\(id)","geometry":{"type":"Point","coordinates":[\(longitude),\(latitude)]},\
        "properties":{"name":"\(name)","radius":\(radius)\(extra)}}
        """
    }

    static func fenceFile(_ features: [String], in folder: URL) throws -> String {
        let url = folder.appendingPathComponent("fences.geojson")
        try (#"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}").write(
            to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// Whether `entity` is at one of `fixes` (to the 7 decimals the capture has).
    static func isAt(_ entity: RealHomeAssistant.Entity?, oneOf fixes: [CaptureFixes.Fix]) -> Bool {
        guard let latitude = entity?.latitude, let longitude = entity?.longitude else { return false }
        return fixes.contains { abs($0.latitude - latitude) < 1e-8 && abs($0.longitude - longitude) < 1e-8 }
    }

    /// A replay of the gym walk with `--homeassistant`: the device and every entity appear by
    /// discovery alone; the tracker is at a fix of the last 5 s, in the Home Assistant zone it is
    /// in; the fence sensors are on and off as the fences; the event entity's last `event_type`
    /// is the last event's type; speed and satellites are there.
    @Test func aReplayShowsTheDeviceWithTheRightStates() throws {
        let folder = temporaryDirectory()
        let fixes = try CaptureFixes(Self.gymCapture)
        let end = try #require(fixes.fixes.last)
        // The walk ends about 67 m west of the gym: a zone and a fence there, the gym's fence left.
        let fences = try Self.fenceFile(
            [
                Self.circle(
                    "gym", "Iron Temple gym", latitude: Self.gym.latitude, longitude: Self.gym.longitude, radius: 40),
                Self.circle("corner", "Corner", latitude: end.latitude, longitude: end.longitude, radius: 20),
            ], in: folder)
        let broker = try MosquittoBroker()
        let homeAssistant = try RealHomeAssistant(
            release, broker: broker, home: Self.farHome,
            zones: [.init(name: "Street corner", latitude: end.latitude, longitude: end.longitude, radius: 30)])
        let replay = [
            "replay", Self.gymCapture.path, "--fences", fences, "--json", "--speed", "max",
            "--mqtt", "mqtt://127.0.0.1:\(broker.port)/fleet/van-7", "--homeassistant",
        ]
        // Home Assistant makes the entities from discovery, and subscribes to their topics, in its
        // own time; a replay at full speed can be over before that (then it shows only the retained
        // end states). So a first replay announces the device; the second one is the one watched.
        let announcing = try runGPSFence(replay)
        #expect(announcing.status == 0, "\(announcing.stderr)")
        // One device: tracker, seven sensors, receiver, fix, event, and a sensor per fence (2 of them),
        // with the same ids on every release.
        let expectedIDs = Self.deviceEntityIDs.union([
            "binary_sensor.van_7_fence_gym", "binary_sensor.van_7_fence_corner",
        ])
        let announced = homeAssistant.wait { states in
            let ours = Self.ours(states)
            return Set(ours.map(\.id)) == expectedIDs && ours.allSatisfy { $0.state == "unavailable" }
        }
        #expect(announced, "\(release): \(Self.ours(homeAssistant.states()).map { "\($0.id)=\($0.state)" }.sorted())")
        let names = Dictionary(
            uniqueKeysWithValues: Self.ours(homeAssistant.states()).map {
                ($0.id, $0.attributes["friendly_name"] as? String)
            })
        #expect(names["sensor.van_7_speed"] == "van-7 Speed", "\(names)")
        #expect(names["sensor.van_7_satellites_used"] == "van-7 Satellites used", "\(names)")
        #expect(names["device_tracker.van_7"] == "van-7", "\(names)")
        #expect(names["binary_sensor.van_7_fence_gym"] == "van-7 Iron Temple gym", "\(names)")
        let before = homeAssistant.changes().count
        let result = try runGPSFence(replay)
        #expect(result.status == 0, "\(result.stderr)")
        let lastType = try #require(types(result.stdout.split(separator: "\n").map(String.init)).last)

        // A replay ends with a clean stop, which says `offline`: every entity then goes
        // unavailable. What Home Assistant showed at the end of the replay is each entity's last
        // state before that (the state changes since the second replay began, in order).
        func watched() -> [RealHomeAssistant.Entity] {
            homeAssistant.changes().dropFirst(before).filter { $0.device == Self.device }
        }
        let ended = homeAssistant.wait { _ in
            let tracker = watched().filter { $0.id == "device_tracker.van_7" }.map(\.state)
            return tracker.contains { $0 != "unavailable" } && tracker.last == "unavailable"
        }
        #expect(ended, "\(watched().map { "\($0.id)=\($0.state)" })")
        let changes = watched()
        func shown(_ domain: String, _ suffix: String) -> RealHomeAssistant.Entity? {
            changes.last { $0.id.hasPrefix(domain + ".") && $0.id.hasSuffix(suffix) && $0.state != "unavailable" }
        }

        let tracker = try #require(shown("device_tracker", "van_7"), "\(changes.map(\.id))")
        #expect(Self.isAt(tracker, oneOf: fixes.last(5)), "\(tracker.attributes)")
        #expect(tracker.state == "Street corner", "Home Assistant's own zone from the position")
        #expect(tracker.attributes["source_type"] as? String == "gps")
        #expect((tracker.attributes["gps_accuracy"] as? Double ?? 0) > 0, "\(tracker.attributes)")
        #expect(shown("binary_sensor", "_fence_gym")?.state == "off")
        #expect(shown("binary_sensor", "_fence_corner")?.state == "on")
        // The gym's sensor was on during the visit and off after it.
        let gym = changes.filter { $0.id.hasSuffix("_fence_gym") }.map(\.state)
        #expect(gym.drop { $0 != "on" }.contains("off"), "\(gym)")
        let speed = try #require(shown("sensor", "_speed"))
        #expect(Double(speed.state) != nil && speed.attributes["unit_of_measurement"] as? String == "km/h")
        #expect(shown("sensor", "_satellites_used").flatMap { Double($0.state) } == 8, "the capture's GGA says 8")
        #expect(shown("binary_sensor", "_receiver")?.state == "on")
        #expect(shown("binary_sensor", "_fix")?.state == "on")
        let quality = shown("sensor", "_fix_quality")
        #expect(quality?.state == "gps", "the capture's GGA quality is 1")
        // An enumeration: no unit, no state class (the options are in the entity registry).
        #expect(quality?.attributes["device_class"] as? String == "enum", "\(String(describing: quality?.attributes))")
        #expect(quality?.attributes["unit_of_measurement"] == nil && quality?.attributes["state_class"] == nil)
        #expect(shown("event", "_event")?.attributes["event_type"] as? String == lastType)
        for suffix in ["_accuracy", "_odometer_today"] {
            #expect(shown("sensor", suffix).flatMap { Double($0.state) } != nil, "\(suffix)")
        }
        // Nothing for the user to fix: no warning about gpsfence's entities, no repair issue.
        #expect(homeAssistant.complaints(about: Self.ourWords) == [], "\(release)")
        homeAssistant.stop()
        #expect(homeAssistant.repairs(about: Self.ourWords) == [], "\(release)")
    }

    /// A live run (`simulate` into `run`): the fence sensor follows the pass in and out, the
    /// tracker ends where the route does; `kill -9` makes every entity unavailable (the last will).
    @Test func aKilledRunMakesTheEntitiesUnavailable() throws {
        let folder = temporaryDirectory()
        let (fences, route) = try RunCommandTests().writeFiles(folder)
        let link = folder.appendingPathComponent("gps0").path
        let broker = try MosquittoBroker()
        let homeAssistant = try RealHomeAssistant(release, broker: broker, home: Self.farHome, zones: [])
        let simulator = try RunCommandTests.simulatedPass(route: route, link: link, start: "2026-02-03T10:15:00Z")
        defer { _ = simulator.finish() }
        let run = try BackgroundGPSFence([
            "run", "--device", link, "--baud", "38400", "--fences", fences, "--state",
            folder.appendingPathComponent("state.sqlite").path, "--json", "--mqtt-location-interval", "0",
            "--mqtt", "mqtt://127.0.0.1:\(broker.port)/fleet/van-7", "--homeassistant",
        ])
        defer { _ = run.finish(timeout: 1) }
        let output = LineCollector(run.output.fileHandleForReading)
        #expect(output.wait { types($0).contains("exit") }, "\(output.all)")
        // The route's east end, 200 m east of the yard.
        let east =
            RunCommandTests.centre.lon + 200 / (6_371_008.8 * .pi / 180 * cos(RunCommandTests.centre.lat * .pi / 180))
        let followed = homeAssistant.wait { states in
            guard let tracker = Self.entity(states, "device_tracker", suffix: "van_7"),
                let longitude = tracker.longitude
            else { return false }
            return abs(longitude - east) < 0.0003
                && Self.entity(states, "binary_sensor", suffix: "_fence_yard")?.state == "off"
        }
        #expect(followed, "\(Self.ours(homeAssistant.states()).map { "\($0.id)=\($0.state) \($0.attributes)" })")
        let yard = homeAssistant.changes().filter { $0.id.hasSuffix("_fence_yard") }.map(\.state)
        #expect(yard.drop { $0 != "on" }.contains("off"), "in, then out: \(yard)")
        #expect(Self.entity(homeAssistant.states(), "device_tracker", suffix: "van_7")?.state == "not_home")
        let available = Self.ours(homeAssistant.states())
        #expect(available.count == 12 && available.allSatisfy { $0.state != "unavailable" }, "\(available.map(\.id))")

        run.signal(SIGKILL)
        let gone = homeAssistant.wait(timeout: 60) { states in
            let ours = Self.ours(states)
            return ours.count == 12 && ours.allSatisfy { $0.state == "unavailable" }
        }
        #expect(gone, "\(Self.ours(homeAssistant.states()).map { "\($0.id)=\($0.state)" })")
    }

    /// `run --alarm` on a boat that drags its anchor: Home Assistant shows the alarm as an `on`
    /// safety sensor with its cause, and pressing its "Acknowledge alarm" button answers it in
    /// the run (docs/running.md, "Alarms").
    @Test func theAlarmIsOnAndItsButtonAnswersIt() throws {
        let folder = temporaryDirectory()
        let broker = try MosquittoBroker()
        let homeAssistant = try RealHomeAssistant(release, broker: broker, home: Self.farHome, zones: [])
        let (simulator, arguments) = try AlarmTests.boat(
            folder, extra: ["--mqtt", "mqtt://127.0.0.1:\(broker.port)/fleet/van-7", "--homeassistant"])
        defer { simulator.signal(SIGTERM) }
        let run = try BackgroundGPSFence(Array(arguments.dropFirst()))
        defer {
            run.signal(SIGTERM)
            _ = run.finish()
        }
        let output = LineCollector(run.output.fileHandleForReading)
        let sounding = homeAssistant.wait(timeout: 90) { states in
            states["binary_sensor.van_7_alarm"]?.state == "on"
        }
        let states = homeAssistant.states()
        #expect(sounding, "\(Self.ours(states).map { "\($0.id)=\($0.state)" }) \(output.all)")
        let alarm = try #require(states["binary_sensor.van_7_alarm"])
        #expect(alarm.attributes["device_class"] as? String == "safety")
        #expect(alarm.attributes["friendly_name"] as? String == "van-7 Alarm", "\(alarm.attributes)")
        #expect((alarm.attributes["cause"] as? [String: Any])?["type"] as? String == "exit", "\(alarm.attributes)")
        let button = try #require(states["button.van_7_acknowledge_alarm"], "\(Self.ours(states).map(\.id))")
        #expect(button.device == Self.device)
        #expect(button.attributes["friendly_name"] as? String == "van-7 Acknowledge alarm")
        #expect(output.all.filter { $0.contains("alarm_acknowledged") }.isEmpty)

        try homeAssistant.press("button.van_7_acknowledge_alarm")
        #expect(
            output.wait { lines in lines.contains { $0.contains(#""type":"alarm_acknowledged""#) } }, "\(output.all)")
        let answered = output.all.compactMap { jsonObject($0) }.first { $0["type"] as? String == "alarm_acknowledged" }
        #expect(answered?["by"] as? String == "mqtt", "\(String(describing: answered))")
        let off = homeAssistant.wait(timeout: 30) { $0["binary_sensor.van_7_alarm"]?.state == "off" }
        #expect(off, "\(String(describing: homeAssistant.states()["binary_sensor.van_7_alarm"]))")
        #expect(
            homeAssistant.complaints(about: Self.ourWords).isEmpty, "\(homeAssistant.complaints(about: Self.ourWords))")
    }

    /// Home Assistant restarts while gpsfence runs, and the broker lost the retained configs
    /// meanwhile: Home Assistant's `online` makes gpsfence publish them again, and every entity
    /// comes back, available, with its state.
    @Test func aRestartedHomeAssistantGetsTheEntitiesBack() throws {
        let folder = temporaryDirectory()
        let (fences, route) = try RunCommandTests().writeFiles(folder)
        let link = folder.appendingPathComponent("gps0").path
        let broker = try MosquittoBroker()
        let homeAssistant = try RealHomeAssistant(release, broker: broker, home: Self.farHome, zones: [])
        let simulator = try BackgroundGPSFence([
            "simulate", route, "--baud", "38400", "--rate", "1", "--loop", "--link", link,
        ])
        _ = simulator.readFirstLine()
        defer {
            simulator.signal(SIGTERM)
            _ = simulator.finish()
        }
        let run = try BackgroundGPSFence([
            "run", "--device", link, "--baud", "38400", "--fences", fences, "--state",
            folder.appendingPathComponent("state.sqlite").path, "--mqtt-location-interval", "0",
            "--mqtt", "mqtt://127.0.0.1:\(broker.port)/fleet/van-7", "--homeassistant",
        ])
        defer {
            run.signal(SIGTERM)
            _ = run.finish()
        }
        func allThere(_ states: [String: RealHomeAssistant.Entity]) -> Bool {
            let ours = Self.ours(states)
            // The event entity has no state before an event; the motion sensor none before the
            // first stop or start.
            return ours.count == 12
                && ours.allSatisfy {
                    $0.state != "unavailable"
                        && ($0.state != "unknown" || $0.id.hasPrefix("event.") || $0.id == "sensor.van_7_motion")
                }
        }
        #expect(
            homeAssistant.wait(until: allThere), "\(Self.ours(homeAssistant.states()).map { "\($0.id)=\($0.state)" })")

        homeAssistant.stop()
        // A broker that lost its retained messages: the configs are gone.
        let configs = try broker.retained("homeassistant/+/fleet_van-7/+/config")
        #expect(configs.count == 12, "\(configs.keys.sorted())")
        for topic in configs.keys {
            try runTool(
                "/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", String(broker.port), "-t", topic, "-r", "-n"])
        }
        #expect(try broker.retained("homeassistant/+/fleet_van-7/+/config").isEmpty)
        try homeAssistant.start()
        #expect(
            homeAssistant.wait(until: allThere), "\(Self.ours(homeAssistant.states()).map { "\($0.id)=\($0.state)" })")
        #expect(try broker.retained("homeassistant/+/fleet_van-7/+/config").count == 12, "retained again")
    }

    /// Home Assistant's OwnTracks integration follows the receiver into a fence marked
    /// `"owntracks": true` that is no Home Assistant zone and out of it: its tracker ends at the
    /// last location, on 5 runs out of 5 (the order of transitions and locations is fixed, not
    /// made rarer: docs/mqtt.md, "OwnTracks order").
    @Test func theOwnTracksTrackerFollowsTheReceiverOutOfARegion() throws {
        let folder = temporaryDirectory()
        let fixes = try CaptureFixes(Self.gymCapture)
        let fences = try Self.fenceFile(
            [
                Self.circle(
                    "gym", "Iron Temple gym", latitude: Self.gym.latitude, longitude: Self.gym.longitude, radius: 40,
                    extra: #","owntracks":true"#)
            ], in: folder)
        let broker = try MosquittoBroker()
        let homeAssistant = try RealHomeAssistant(release, broker: broker, home: Self.farHome, zones: [])
        var followed = 0
        for run in 1...5 {
            let result = try runGPSFence([
                "replay", Self.gymCapture.path, "--fences", fences, "--json", "--speed", "max",
                "--mqtt", "mqtt://127.0.0.1:\(broker.port)/fleet/run\(run)", "--owntracks", "gpsfence/run\(run)",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(types(result.stdout.split(separator: "\n").map(String.init)).contains("exit"))
            let id = "device_tracker.gpsfence_run\(run)"
            let atTheEnd = homeAssistant.wait(timeout: 60) { Self.isAt($0[id], oneOf: fixes.last(5)) }
            let tracker = homeAssistant.states()[id]
            #expect(
                atTheEnd, "run \(run): \(String(describing: tracker?.state)) \(String(describing: tracker?.attributes))"
            )
            // It did see the region: entered once and left once per run (its log says so).
            let saw = homeAssistant.wait(timeout: 10) { _ in
                Self.count("Enter region Iron Temple gym", in: homeAssistant.log) == run
                    && Self.count("Exit to GPS", in: homeAssistant.log) == run
            }
            #expect(saw, "run \(run)")
            if atTheEnd { followed += 1 }
        }
        #expect(followed == 5)
    }

    static func count(_ text: String, in log: String) -> Int { log.components(separatedBy: text).count - 1 }
}
