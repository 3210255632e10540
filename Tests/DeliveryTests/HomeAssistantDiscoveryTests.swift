import Foundation
import NMEA
import Testing

@testable import Delivery
@testable import Events
@testable import Fences

/// The discovery configs `--homeassistant` publishes, read back as JSON: the entity ids every
/// Home Assistant release gives them, their names and types.
@Suite struct HomeAssistantDiscoveryTests {
    static let discovery = HomeAssistantDiscovery(discoveryPrefix: "homeassistant", prefix: "gpsfence/van-7")

    /// Every device config by its config topic's object id.
    static func configs(_ discovery: HomeAssistantDiscovery = discovery) -> [String: [String: Any]] {
        var all: [String: [String: Any]] = [:]
        for entity in discovery.deviceEntities(prefix: "gpsfence/van-7") {
            let config = discovery.config(entity, prefix: "gpsfence/van-7", version: "1.2.3")
            all[entity.key] = try? JSONSerialization.jsonObject(with: Data(config.payload.utf8)) as? [String: Any]
        }
        return all
    }

    @Test func entityIDsComeFromThePrefixsLastLevelWithTheDomainAndWithoutIt() throws {
        let configs = Self.configs()
        let expected = [
            "tracker": "device_tracker.van_7", "speed": "sensor.van_7_speed",
            "satellites": "sensor.van_7_satellites_used", "fix_quality": "sensor.van_7_fix_quality",
            "accuracy": "sensor.van_7_accuracy", "odometer_today": "sensor.van_7_odometer_today",
            "motion": "sensor.van_7_motion", "receiver": "binary_sensor.van_7_receiver",
            "fix": "binary_sensor.van_7_fix", "event": "event.van_7_event",
            "integrity": "sensor.van_7_gnss_integrity",
        ]
        #expect(Set(configs.keys) == Set(expected.keys))
        for (key, id) in expected {
            let config = try #require(configs[key], "\(key)")
            #expect(config["default_entity_id"] as? String == id, "\(key)")
            #expect(config["object_id"] as? String == String(id.split(separator: ".")[1]), "\(key): older releases")
            #expect(config["has_entity_name"] as? Bool == true, "\(key)")
            // The unique ids stay what they were: Home Assistant's registry keys entities by them.
            #expect(config["unique_id"] as? String == "gpsfence_gpsfence_van-7_\(key)", "\(key)")
            #expect(!id.contains("gpsfence"), "no doubled prefix: \(id)")
        }
    }

    @Test func theDeviceIsNamedOnceAndTheEntitiesForWhatTheyAre() throws {
        let configs = Self.configs()
        let device = try #require(configs["speed"]?["device"] as? [String: Any])
        #expect(device["name"] as? String == "van-7")
        #expect(configs["speed"]?["name"] as? String == "Speed")
        #expect(configs["satellites"]?["name"] as? String == "Satellites used")
        #expect(configs["tracker"]?["name"] is NSNull, "the tracker is the device itself")
        let origin = try #require(configs["speed"]?["origin"] as? [String: Any])
        #expect(origin["name"] as? String == "gpsfence" && origin["sw_version"] as? String == "1.2.3")

        let named = HomeAssistantDiscovery(discoveryPrefix: "homeassistant", prefix: "gpsfence/van-7", name: "Blue van")
        let renamed = Self.configs(named)
        #expect((renamed["speed"]?["device"] as? [String: Any])?["name"] as? String == "Blue van")
        #expect(renamed["speed"]?["default_entity_id"] as? String == "sensor.van_7_speed", "ids keep to the prefix")
    }

    @Test func enumerationsAreEnumSensorsWithTheirOptionsAndUnitsAreHomeAssistants() throws {
        let configs = Self.configs()
        for (key, options) in [
            ("fix_quality", HomeAssistantFixQuality.allCases.map(\.rawValue)),
            ("motion", ["stationary", "moving"]),
        ] {
            let config = try #require(configs[key])
            #expect(config["device_class"] as? String == "enum", "\(key)")
            #expect(config["options"] as? [String] == options, "\(key)")
            #expect(config["state_class"] == nil && config["unit_of_measurement"] == nil, "\(key)")
        }
        #expect(HomeAssistantFixQuality(gga: 4) == .rtkFixed && HomeAssistantFixQuality(gga: 10) == nil)
        #expect(configs["speed"]?["unit_of_measurement"] as? String == "km/h")
        #expect(configs["accuracy"]?["unit_of_measurement"] as? String == "m")
        #expect(configs["odometer_today"]?["unit_of_measurement"] as? String == "km")
        let fix = try #require(configs["fix"])
        #expect(fix["payload_on"] as? String == "usable" && fix["payload_off"] as? String == "lost")
    }

    @Test func aFenceIsNamedForItsNameAndIdentifiedByItsID() throws {
        let discovery = Self.discovery
        for (id, expected) in [
            ("gym", "binary_sensor.van_7_fence_gym"), ("Dock-A", "binary_sensor.van_7_fence_dock_a"),
        ] {
            let entity = discovery.fenceEntity(prefix: "gpsfence/van-7", id: .string(id), name: "Renamed \(id)")
            let config = try #require(
                try JSONSerialization.jsonObject(
                    with: Data(discovery.config(entity, prefix: "gpsfence/van-7", version: "").payload.utf8))
                    as? [String: Any])
            #expect(config["default_entity_id"] as? String == expected)
            #expect(config["name"] as? String == "Renamed \(id)")
        }
        // An id that sanitising changes keeps its hash, so `a/b` and `a_b` stay two entities.
        let slashed = discovery.entityID(discovery.fenceEntity(prefix: "p", id: .string("a/b"), name: nil))
        let plain = discovery.entityID(discovery.fenceEntity(prefix: "p", id: .string("a_b"), name: nil))
        #expect(slashed != plain && slashed.hasPrefix("binary_sensor.van_7_fence_a_b_"), "\(slashed)")
    }

    /// With an anchor watch: the distance (m) and the bearing from the boat to the anchor, worked
    /// out by hand for a boat 100 m due south of the anchor (so the anchor bears 0°, north).
    @Test func anchorSensorsCarryTheDistanceAndTheBearingFromTheBoatToTheAnchor() throws {
        let entities = Self.discovery.anchorEntities(prefix: "gpsfence/van-7")
        #expect(
            entities.map(Self.discovery.entityID) == [
                "sensor.van_7_anchor_distance", "sensor.van_7_anchor_bearing", "sensor.van_7_anchor_max_distance",
            ])
        let distance = try #require(
            try JSONSerialization.jsonObject(
                with: Data(Self.discovery.config(entities[0], prefix: "gpsfence/van-7", version: "").payload.utf8))
                as? [String: Any])
        #expect(distance["unit_of_measurement"] as? String == "m" && distance["device_class"] as? String == "distance")
        let anchor = CircleShape(lat: 43.5, lon: 16.4, radius: 40)
        let boat = Fix(
            time: nil, timeOfDay: TimeOfDay(milliseconds: 0), latitude: 43.5 - 100 / 111_194.93, longitude: 16.4,
            mode: .threeD)
        let receiver = try #require(
            try JSONSerialization.jsonObject(
                with: Data(
                    MQTTMessages.homeAssistantReceiver(
                        boat, connected: true, fixUsable: true, motion: nil, odometerToday: 0, anchor: anchor,
                        anchorMaxDistance: 123.456
                    ).utf8)) as? [String: Any])
        #expect(abs((receiver["anchor_distance"] as? Double ?? 0) - 100) < 0.05, "\(receiver)")
        #expect((receiver["anchor_bearing"] as? NSNumber)?.doubleValue == 0, "\(receiver)")
        #expect(receiver["anchor_max_distance"] as? Double == 123.46, "\(receiver)")
        let without = MQTTMessages.homeAssistantReceiver(
            boat, connected: true, fixUsable: true, motion: nil, odometerToday: 0)
        #expect(!without.contains("anchor"), "no anchor watch, no anchor fields")
    }

    @Test func slugsAreWhatHomeAssistantKeeps() {
        #expect(HomeAssistantDiscovery.slug("Van-7") == "van_7")
        #expect(HomeAssistantDiscovery.slug("--a  b--") == "a_b")
        #expect(HomeAssistantDiscovery.slug("åäö") == "gpsfence")
        #expect(HomeAssistantDiscovery.deviceSegment("gpsfence/van/") == "van")
    }
}
