import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `--homeassistant` (docs/mqtt.md, "Home Assistant") against a real mosquitto: the retained
/// discovery configs and the state topics they point at, as a client that connects later sees them.
@Suite(.serialized) struct HomeAssistantTests {
    static let node = "fleet_van-7"

    static func configs(_ broker: MosquittoBroker, prefix: String = "homeassistant") throws -> [String: [String: Any]] {
        try broker.retained("\(prefix)/#").compactMapValues { jsonObject($0) }
    }

    /// The receiver's health is diagnostic (Home Assistant shows it apart), every sensor has an
    /// icon; a fence file larger than discovery publishes is said on the console, naming the
    /// property that gives a fence its sensor.
    @Test func diagnosticEntitiesIconsAndTooManyFences() throws {
        let broker = try MosquittoBroker()
        let folder = temporaryDirectory()
        var features: [String] = []
        for index in 0..<51 {
            let marked = index == 3 ? #","homeassistant":true"# : ""
            features.append(
                #"{"type":"Feature","id":"f\#(index)","geometry":{"type":"Point","coordinates":[\#(10 + Double(index) * 0.01),50]},"properties":{"radius":20\#(marked)}}"#
            )
        }
        let fences = folder.appendingPathComponent("many.geojson")
        try (#"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}").write(
            to: fences, atomically: true, encoding: .utf8)
        let state = folder.appendingPathComponent("state.sqlite").path
        let result = try runGPSFence([
            "replay", "captures/gym/capture.nmea", "--fences", fences.path, "--speed", "max",
            "--mqtt", "mqtt://127.0.0.1:\(broker.port)/fleet/van-7", "--homeassistant", "--state", state,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains(
                #"Home Assistant: 51 fences, more than the 50 that get a sensor each without asking; 1 have one: give a fence the property "homeassistant": true"#
            ), "\(result.stdout)")
        let configs = try Self.configs(broker)
        for object in ["sensor/satellites", "sensor/fix_quality", "sensor/accuracy", "binary_sensor/receiver"] {
            let levels = object.split(separator: "/")
            let entity = try #require(
                configs["homeassistant/\(levels[0])/\(Self.node)/\(levels[1])/config"], "\(object)")
            #expect(entity["entity_category"] as? String == "diagnostic", "\(object): \(entity)")
            #expect((entity["icon"] as? String)?.hasPrefix("mdi:") == true, "\(object): \(entity)")
        }
        for object in ["sensor/speed", "sensor/odometer_today", "binary_sensor/fix"] {
            let levels = object.split(separator: "/")
            let entity = try #require(
                configs["homeassistant/\(levels[0])/\(Self.node)/\(levels[1])/config"], "\(object)")
            #expect(entity["entity_category"] == nil, "\(object): \(entity)")
        }
        // `status` says it too, with the property to set.
        let status = try runGPSFence(["status", "--state", state])
        #expect(
            status.stdout.contains(
                #"  home assistant 51 fences, more than the 50 that get a sensor each with --homeassistant; give a fence the property "homeassistant": true"#
            ), "\(status.stdout)")
        let fenceSensors = configs.keys.filter { $0.contains("/fence_") }
        #expect(fenceSensors == ["homeassistant/binary_sensor/\(Self.node)/fence_f3/config"], "\(fenceSensors)")
    }

    @Test func replayLeavesConfigsAndStatesForHomeAssistant() throws {
        let broker = try MosquittoBroker()
        let events = try broker.subscribe("fleet/van-7/homeassistant/event")
        let result = try runGPSFence([
            "replay", "captures/gym/capture.nmea", "--fences", "captures/gym/fences.geojson", "--json", "--speed",
            "max",
            "--mqtt", "mqtt://127.0.0.1:\(broker.port)/fleet/van-7", "--homeassistant",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let printed = result.stdout.split(separator: "\n").map(String.init)
        let configs = try Self.configs(broker)
        let base = "homeassistant"
        let tracker = try #require(configs["\(base)/device_tracker/\(Self.node)/tracker/config"], "\(configs.keys)")
        #expect(tracker["json_attributes_topic"] as? String == "fleet/van-7/homeassistant/tracker")
        #expect(tracker["state_topic"] == nil && tracker["value_template"] == nil, "HA works out the zone itself")
        #expect(tracker["source_type"] as? String == "gps")

        let expectedObjects = [
            "device_tracker/\(Self.node)/tracker", "sensor/\(Self.node)/speed", "sensor/\(Self.node)/satellites",
            "sensor/\(Self.node)/fix_quality", "sensor/\(Self.node)/accuracy", "sensor/\(Self.node)/odometer_today",
            "sensor/\(Self.node)/motion", "binary_sensor/\(Self.node)/receiver", "binary_sensor/\(Self.node)/fix",
            "sensor/\(Self.node)/integrity", "event/\(Self.node)/event", "binary_sensor/\(Self.node)/fence_gym",
        ]
        #expect(Set(configs.keys) == Set(expectedObjects.map { "\(base)/\($0)/config" }), "\(configs.keys.sorted())")
        var uniqueIDs = Set<String>()
        for (topic, config) in configs {
            let levels = topic.split(separator: "/")
            let uniqueID = try #require(config["unique_id"] as? String, "\(topic)")
            uniqueIDs.insert(uniqueID)
            let device = try #require(config["device"] as? [String: Any], "\(topic)")
            #expect(device["name"] as? String == "van-7", "\(topic)")
            #expect((config["default_entity_id"] as? String)?.hasPrefix("\(levels[1]).van_7") == true, "\(topic)")
            #expect((config["origin"] as? [String: Any])?["name"] as? String == "gpsfence", "\(topic)")
            #expect((device["identifiers"] as? [String])?.isEmpty == false, "\(topic)")
            let availability = try #require((config["availability"] as? [[String: Any]])?.first, "\(topic)")
            #expect(availability["topic"] as? String == "fleet/van-7/status")
            #expect((availability["value_template"] as? String)?.contains("value_json.state") == true)
            #expect(levels.count == 5)
            for level in levels[2...3] {
                #expect(
                    level.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") },
                    "\(topic)")
            }
        }
        #expect(uniqueIDs.count == configs.count, "one unique_id per entity")

        // The event entity: every event gpsfence printed is among its types, and was fired in order.
        let event = try #require(configs["\(base)/event/\(Self.node)/event/config"])
        let eventTypes = try #require(event["event_types"] as? [String])
        for type in ["enter", "exit", "dwell", "visit", "approach", "registered", "fix_lost", "error"] {
            #expect(eventTypes.contains(type), "\(type)")
        }
        #expect(Set(types(printed)).isSubset(of: Set(eventTypes)))
        #expect(
            events.lines.wait(timeout: 5) { _ in
                events.payloads("fleet/van-7/homeassistant/event").count == printed.count
            })
        let fired = events.payloads("fleet/van-7/homeassistant/event").compactMap(jsonObject)
        #expect(fired.map { $0["event_type"] as? String } == types(printed))
        #expect(fired.first?["id"] as? String == eventIDs(printed).first, "the event's own fields as attributes")
        let retained = try broker.retained("fleet/van-7/#")
        #expect(retained["fleet/van-7/homeassistant/event"] == nil, "events are not retained")

        // The states the configs point at.
        let fence = try #require(configs["\(base)/binary_sensor/\(Self.node)/fence_gym/config"])
        #expect(fence["state_topic"] as? String == "fleet/van-7/fence/gym")
        #expect(fence["device_class"] as? String == "occupancy")
        #expect(jsonObject(retained["fleet/van-7/fence/gym"])?["state"] as? String == "outside")
        let attributes = try #require(jsonObject(retained["fleet/van-7/homeassistant/tracker"]))
        let location = try #require(jsonObject(retained["fleet/van-7/location"]))
        for key in ["latitude", "longitude", "gps_accuracy", "speed", "course"] {
            #expect(attributes[key] is Double || attributes[key] is Int, "\(key) in \(attributes)")
        }
        #expect(attributes["latitude"] as? Double == location["lat"] as? Double)
        // Full precision: the gym route's longitudes have 7 decimals (-73.9897739 at the enter).
        let enterLocation = try #require(jsonObject(printed[1])?["location"] as? [String: Any])
        #expect(String(describing: enterLocation["lon"]!).count > "-73.990".count)
        let receiver = try #require(jsonObject(retained["fleet/van-7/homeassistant/receiver"]))
        #expect(receiver["receiver"] as? String == "connected")
        #expect((receiver["satellites"] as? Int ?? 0) > 0)
        #expect(receiver["quality"] is Int && receiver["accuracy"] is Double && receiver["speed"] != nil)
        #expect(receiver["fix_quality"] as? String == "gps" && receiver["fix"] as? String == "usable", "\(receiver)")
        #expect((receiver["odometer_today"] as? Double ?? 0) > 0.03, "\(receiver)")
        #expect(tracker["unique_id"] as? String != fence["unique_id"] as? String)
    }

    /// The fix sensor: on from the first usable fix, off at `fix_lost`, on again at `fix_acquired`
    /// (the capture loses its fix for 30 s inside a fence); the motion sensor's field is there.
    @Test func theFixSensorGoesOffAtFixLostAndBackOn() throws {
        let broker = try MosquittoBroker()
        let topic = "fleet/van-7/homeassistant/receiver"
        let receiver = try broker.subscribe(topic)
        let result = try runGPSFence([
            "replay", "captures/fix-lost/capture.nmea", "--fences", "captures/fix-lost/fences.geojson", "--json",
            "--speed", "max", "--mqtt", "mqtt://127.0.0.1:\(broker.port)/fleet/van-7", "--homeassistant",
            "--mqtt-location-interval", "0",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(types(result.stdout.split(separator: "\n").map(String.init)).contains("fix_lost"))
        func shown() -> [String] {
            let states = receiver.payloads(topic).compactMap(jsonObject).compactMap { $0["fix"] as? String }
            return states.enumerated().filter { $0.offset == 0 || states[$0.offset - 1] != $0.element }.map(\.element)
        }
        #expect(receiver.lines.wait(timeout: 10) { _ in shown() == ["usable", "lost", "usable"] }, "\(shown())")
        #expect(receiver.payloads(topic).compactMap(jsonObject).allSatisfy { $0.keys.contains("motion") })
    }

    /// More than 50 fences: only those marked `"homeassistant": true` get a sensor; a prefix with
    /// a `/` is sanitised for the node id; `--homeassistant-prefix` moves the configs.
    @Test func manyFencesOnlyTheMarkedOnesAndAnotherPrefix() throws {
        var features: [[String: Any]] = []
        for k in 0..<60 {
            var properties: [String: Any] = ["radius": 30.0]
            if k == 7 { properties["homeassistant"] = true }
            if k == 8 { properties["homeassistant"] = "yes" }
            features.append([
                "type": "Feature", "id": "f/\(k)", "properties": properties,
                "geometry": ["type": "Point", "coordinates": [-73.989308 + Double(k) * 0.01, 40.741895]],
            ])
        }
        let path = temporaryDirectory().appendingPathComponent("many.geojson")
        try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": features]).write(to: path)
        let broker = try MosquittoBroker()
        let result = try runGPSFence([
            "replay", "captures/gym/capture.nmea", "--fences", path.path, "--speed", "max",
            "--mqtt", "mqtt://127.0.0.1:\(broker.port)/fleet/van-7", "--homeassistant", "--homeassistant-prefix", "ha",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let configs = try Self.configs(broker, prefix: "ha")
        let fenceConfigs = configs.filter { $0.key.contains("/fence_") }
        #expect(fenceConfigs.count == 1, "\(fenceConfigs.keys)")
        let only = try #require(fenceConfigs.first)
        #expect(only.key.hasPrefix("ha/binary_sensor/\(Self.node)/fence_f_7_"), "sanitised, with a hash")
        #expect(only.value["state_topic"] as? String == "fleet/van-7/fence/f%2F7")
        #expect(try Self.configs(broker).isEmpty, "nothing under the default prefix")
    }

    /// A running gpsfence publishes its configs again when Home Assistant says it is back online
    /// (its birth message), so a Home Assistant that lost its retained view recovers.
    @Test func configsComeBackWhenHomeAssistantSaysOnline() throws {
        let broker = try MosquittoBroker()
        let run = try BackgroundGPSFence([
            "replay", "captures/gym/capture.nmea", "--fences", "captures/gym/fences.geojson", "--speed", "20",
            "--mqtt", "mqtt://127.0.0.1:\(broker.port)/fleet/van-7", "--homeassistant",
        ])
        defer { _ = run.finish(timeout: 1) }
        let topic = "homeassistant/sensor/\(Self.node)/speed/config"
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline, try broker.retained(topic, seconds: 1)[topic] == nil {}
        #expect(try broker.retained(topic, seconds: 1)[topic] != nil)
        // Clear it, as a broker that lost its retained messages would have.
        try runTool("/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", String(broker.port), "-t", topic, "-r", "-n"])
        #expect(try broker.retained(topic, seconds: 1)[topic] == nil)
        let watcher = try broker.subscribe("homeassistant/#")
        try broker.publish("homeassistant/status", "online")
        #expect(watcher.lines.wait(timeout: 10) { $0.contains { $0.hasPrefix(topic + " ") } })
        #expect(try broker.retained(topic, seconds: 1)[topic] != nil, "retained again")
        run.signal(SIGKILL)
    }

    /// A reload that drops a fence clears its config (an empty retained message), so Home
    /// Assistant removes the entity; a new fence gets one.
    @Test func aFenceThatLeavesTheFileHasItsConfigCleared() throws {
        let folder = temporaryDirectory()
        let fences = folder.appendingPathComponent("fences.geojson")
        try RunReloadAndCrashTests().fenceFile(["a", "b"]).write(to: fences, atomically: true, encoding: .utf8)
        let broker = try MosquittoBroker()
        let run = try BackgroundGPSFence([
            "run", "--device", folder.appendingPathComponent("no-such-gps").path, "--baud", "9600", "--fences",
            fences.path, "--state", folder.appendingPathComponent("state.sqlite").path, "--json",
            "--mqtt", "mqtt://127.0.0.1:\(broker.port)/fleet/van-7", "--homeassistant",
        ])
        let output = LineCollector(run.output.fileHandleForReading)
        let base = "homeassistant/binary_sensor/\(Self.node)"
        func fenceConfigs() throws -> Set<String> {
            Set(try Self.configs(broker).keys.filter { $0.hasPrefix(base + "/fence_") })
        }
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline, try fenceConfigs().count < 2 {}
        #expect(try fenceConfigs() == ["\(base)/fence_a/config", "\(base)/fence_b/config"])

        try RunReloadAndCrashTests().fenceFile(["b", "c"]).write(to: fences, atomically: true, encoding: .utf8)
        #expect(output.wait { types($0).contains("unregistered") }, "\(output.all)")
        let later = Date().addingTimeInterval(15)
        while Date() < later, try fenceConfigs().contains("\(base)/fence_a/config") {}
        #expect(try fenceConfigs() == ["\(base)/fence_b/config", "\(base)/fence_c/config"])
        run.signal(SIGTERM)
        #expect(run.finish().status == 0)
    }

    /// Fences removed from the file while gpsfence was stopped: the next start clears their
    /// discovery configs and fence states (empty retained messages), and leaves the others alone.
    @Test func fencesRemovedWhileStoppedAreClearedAtTheNextStart() throws {
        let folder = temporaryDirectory()
        let fences = folder.appendingPathComponent("fences.geojson")
        let broker = try MosquittoBroker()
        func start() throws -> BackgroundGPSFence {
            try BackgroundGPSFence([
                "run", "--device", folder.appendingPathComponent("no-such-gps").path, "--baud", "9600", "--fences",
                fences.path, "--state", folder.appendingPathComponent("state.sqlite").path,
                "--mqtt", "mqtt://127.0.0.1:\(broker.port)/fleet/van-7", "--homeassistant",
            ])
        }
        let base = "homeassistant/binary_sensor/\(Self.node)"
        func fenceConfigs() throws -> Set<String> {
            Set(try Self.configs(broker).keys.filter { $0.hasPrefix(base + "/fence_") })
        }
        func fenceStates() throws -> Set<String> { Set(try broker.retained("fleet/van-7/fence/+").keys) }
        func waitFor(_ configs: Set<String>, _ states: Set<String>) throws -> Bool {
            let deadline = Date().addingTimeInterval(15)
            while Date() < deadline {
                if try fenceConfigs() == configs, try fenceStates() == states { return true }
            }
            return false
        }

        try RunReloadAndCrashTests().fenceFile(["a", "b"]).write(to: fences, atomically: true, encoding: .utf8)
        let first = try start()
        #expect(
            try waitFor(
                ["\(base)/fence_a/config", "\(base)/fence_b/config"], ["fleet/van-7/fence/a", "fleet/van-7/fence/b"]))
        first.signal(SIGTERM)
        #expect(first.finish().status == 0)

        // While it is stopped, a is removed and c added.
        try RunReloadAndCrashTests().fenceFile(["b", "c"]).write(to: fences, atomically: true, encoding: .utf8)
        let watcher = try broker.subscribe("#")
        let second = try start()
        let cleared = try waitFor(
            ["\(base)/fence_b/config", "\(base)/fence_c/config"], ["fleet/van-7/fence/b", "fleet/van-7/fence/c"])
        let left = (try fenceConfigs().sorted(), try fenceStates().sorted())
        #expect(cleared, "\(left)")
        // b stayed: its config was published again, never emptied (Home Assistant keeps the entity).
        let bConfigs = watcher.payloads("\(base)/fence_b/config")
        #expect(!bConfigs.isEmpty && bConfigs.allSatisfy { $0.hasPrefix("{") }, "\(bConfigs)")
        second.signal(SIGTERM)
        #expect(second.finish().status == 0)
    }

    /// Events made before the first connection (a replay whose broker comes up late) still fire
    /// the event entity, in order, once connected.
    @Test func eventsBeforeTheFirstConnectionStillFire() throws {
        let broker = try MosquittoBroker()
        let id = "ha-events-\(getpid())"
        // A persistent session, so what is published while this subscriber is away is kept for it.
        try broker.subscribe("fleet/van-7/homeassistant/event", persistentID: id).stop()
        broker.stop()
        let run = try BackgroundGPSFence([
            "replay", "captures/gym/capture.nmea", "--fences", "captures/gym/fences.geojson", "--json", "--speed",
            "max",
            "--mqtt", "mqtt://127.0.0.1:\(broker.port)/fleet/van-7", "--homeassistant", "--drain-timeout", "30",
        ])
        let output = LineCollector(run.output.fileHandleForReading)
        // The broker comes up 3 s late, a time of the case: the replay (--speed max) makes its
        // events well within it, but says them only at its end (its output to a pipe is buffered),
        // so no state of it can be waited for here.
        sleep(3)
        try broker.start()
        #expect(run.finish().status == 0)
        output.finish()
        let printed = output.all.filter { jsonObject($0)?["type"] as? String != "error" }
        let subscriber = try broker.subscribe("fleet/van-7/homeassistant/event", persistentID: id)
        #expect(
            subscriber.lines.wait(timeout: 10) { _ in
                subscriber.payloads("fleet/van-7/homeassistant/event").count >= printed.count
            })
        let fired = subscriber.payloads("fleet/van-7/homeassistant/event").compactMap(jsonObject).filter {
            $0["event_type"] as? String != "error"
        }
        #expect(fired.map { $0["event_type"] as? String } == types(printed))
    }
}
