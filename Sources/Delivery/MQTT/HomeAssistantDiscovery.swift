import Events
import Fences
import JSONOutput

/// `--homeassistant`: the discovery configs of docs/mqtt.md ("Home Assistant"), as pure functions
/// of the configuration and the fence set. Every entity has a `unique_id` and the same device
/// block, and is available while `PREFIX/status` says `online`.
public struct HomeAssistantDiscovery: Sendable, Equatable {
    /// `--homeassistant-prefix` (default `homeassistant`).
    public var discoveryPrefix: String
    /// The MQTT prefix, sanitised (`fleet/van-7` is `fleet_van-7`).
    public var nodeID: String

    /// Home Assistant's birth and last will.
    public var statusTopic: String { discoveryPrefix + "/status" }

    /// Node and object ids must match `[a-zA-Z0-9_-]+`: any other character becomes `_`.
    public static func sanitised(_ text: String) -> String {
        let kept = String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    scalar.isASCII
                        && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_"
                            || scalar == "-")
                        ? scalar : "_"
                }))
        return kept.isEmpty ? "_" : kept
    }

    /// A fence's object id: `fence_` and its sanitised id, and when sanitising changed the id, a
    /// hash of it, so that `a/b` and `a_b` stay two entities.
    public static func fenceObjectID(_ id: FenceID) -> String {
        let text = id.text
        let clean = sanitised(text)
        guard clean != text else { return "fence_" + clean }
        var hash = FNV1a()
        hash.add(text)
        return "fence_" + clean + "_" + hash.hex.suffix(8)
    }

    /// The retained topic the device tracker's attributes are on.
    static func trackerTopic(prefix: String) -> String { prefix + "/homeassistant/tracker" }
    /// The retained topic of the receiver sensors.
    static func receiverTopic(prefix: String) -> String { prefix + "/homeassistant/receiver" }
    /// The event entity's topic (not retained).
    static func eventTopic(prefix: String) -> String { prefix + "/homeassistant/event" }

    func configTopic(_ component: String, _ objectID: String) -> String {
        "\(discoveryPrefix)/\(component)/\(nodeID)/\(objectID)/config"
    }

    /// One entity's discovery config.
    struct Entity {
        var component: String
        var objectID: String
        var name: String?
        var members: (inout JSONLine) -> Void
    }

    /// The device's own entities: tracker, sensors, receiver, events.
    func deviceEntities(prefix: String) -> [Entity] {
        let receiver = Self.receiverTopic(prefix: prefix)
        func sensor(
            _ objectID: String, _ name: String, field: String, unit: String?, deviceClass: String?, stateClass: String
        )
            -> Entity
        {
            Entity(component: "sensor", objectID: objectID, name: name) { line in
                line.add("state_topic", receiver)
                line.add("value_template", "{{ value_json.\(field) }}")
                line.add("unit_of_measurement", unit)
                line.add("device_class", deviceClass)
                line.add("state_class", stateClass)
            }
        }
        let eventTypes =
            "[" + GeofenceEvent.Kind.allCases.map { JSONLine.quoted($0.rawValue) }.joined(separator: ",") + "]"
        return [
            Entity(component: "device_tracker", objectID: "tracker", name: nil) { line in
                line.add("json_attributes_topic", Self.trackerTopic(prefix: prefix))
                line.add("source_type", "gps")
            },
            sensor("speed", "Speed", field: "speed", unit: "km/h", deviceClass: "speed", stateClass: "measurement"),
            sensor(
                "satellites", "Satellites used", field: "satellites", unit: nil, deviceClass: nil,
                stateClass: "measurement"),
            sensor(
                "fix_quality", "Fix quality", field: "quality", unit: nil, deviceClass: nil, stateClass: "measurement"),
            sensor(
                "accuracy", "Accuracy", field: "accuracy", unit: "m", deviceClass: "distance", stateClass: "measurement"
            ),
            sensor(
                "odometer_today", "Odometer today", field: "odometer_today", unit: "km", deviceClass: "distance",
                stateClass: "total_increasing"),
            Entity(component: "binary_sensor", objectID: "receiver", name: "Receiver") { line in
                line.add("state_topic", receiver)
                line.add("value_template", "{{ value_json.receiver }}")
                line.add("payload_on", "connected")
                line.add("payload_off", "lost")
                line.add("device_class", "connectivity")
            },
            Entity(component: "event", objectID: "event", name: "Event") { line in
                line.add("state_topic", Self.eventTopic(prefix: prefix))
                line.addRaw("event_types", json: eventTypes)
            },
        ]
    }

    /// A fence's occupancy sensor, whose state is the retained `PREFIX/fence/ID`.
    func fenceEntity(prefix: String, id: FenceID, name: String?) -> Entity {
        Entity(component: "binary_sensor", objectID: Self.fenceObjectID(id), name: name ?? id.text) { line in
            line.add("state_topic", MQTTMessages.fenceTopic(prefix: prefix, id: id))
            line.add("value_template", "{{ value_json.state }}")
            line.add("payload_on", "inside")
            line.add("payload_off", "outside")
            line.add("device_class", "occupancy")
        }
    }

    /// The config topic and payload of one entity.
    func config(_ entity: Entity, prefix: String, version: String) -> (topic: String, payload: String) {
        var line = JSONLine()
        if let name = entity.name { line.add("name", name) } else { line.addRaw("name", json: "null") }
        line.add("unique_id", "gpsfence_\(nodeID)_\(entity.objectID)")
        line.add("object_id", "gpsfence_\(nodeID)_\(entity.objectID)")
        entity.members(&line)
        var availability = JSONLine()
        availability.add("topic", MQTTMessages.statusTopic(prefix: prefix))
        availability.add("value_template", "{{ value_json.state }}")
        availability.add("payload_available", "online")
        availability.add("payload_not_available", "offline")
        line.addRaw("availability", json: "[" + availability.string + "]")
        var device = JSONLine()
        device.addRaw("identifiers", json: "[" + JSONLine.quoted("gpsfence_" + nodeID) + "]")
        device.add("name", "gpsfence " + prefix)
        device.add("model", "gpsfence")
        device.add("manufacturer", "gpsfence")
        device.add("sw_version", version.isEmpty ? nil : version)
        line.addRaw("device", json: device.string)
        return (configTopic(entity.component, entity.objectID), line.string)
    }

    /// Which fences get an occupancy sensor: every fence of a file with at most `everyFenceUpTo`
    /// of them, else those marked `"homeassistant": true` (never thousands of entities by default).
    static let everyFenceUpTo = 50

    static func occupancyFences(_ fences: FenceSet) -> [Int] {
        fences.count <= everyFenceUpTo ? Array(0..<fences.count) : FenceMark.homeAssistant.indices(in: fences)
    }
}
