import Events
import Fences
import JSONOutput

/// `--homeassistant`: the discovery configs of docs/mqtt.md ("Home Assistant"), as pure functions
/// of the configuration and the fence set. Every entity has a `unique_id`, an entity id of its own
/// choosing and the same device block, and is available while `PREFIX/status` says `online`.
public struct HomeAssistantDiscovery: Sendable, Equatable {
    /// `--homeassistant-prefix` (default `homeassistant`).
    public var discoveryPrefix: String
    /// The MQTT prefix, sanitised (`fleet/van-7` is `fleet_van-7`): the config topics' node and
    /// the unique ids, which Home Assistant's registry keys its entities by.
    public var nodeID: String
    /// `--homeassistant-name`: what Home Assistant calls the device and starts entity names with.
    public var deviceName: String
    /// The start of every entity id (`van_7` for `fleet/van-7`): from the MQTT prefix, never from
    /// the display name, so renaming the device keeps the ids automations use.
    public var entityPrefix: String

    /// - Parameter name: `--homeassistant-name`; nil: the last segment of `prefix`.
    public init(discoveryPrefix: String, prefix: String, name: String? = nil) {
        self.discoveryPrefix = discoveryPrefix
        nodeID = Self.sanitised(prefix)
        let device = Self.deviceSegment(prefix)
        deviceName = name ?? device
        entityPrefix = Self.slug(device)
    }

    /// Home Assistant's birth and last will.
    public var statusTopic: String { discoveryPrefix + "/status" }

    /// The device part of an MQTT prefix: its last non-empty level (`van` for `gpsfence/van`).
    static func deviceSegment(_ prefix: String) -> String {
        prefix.split(separator: "/").last.map(String.init) ?? prefix
    }

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

    /// An entity id's object part as Home Assistant writes it: lower-case ASCII letters, digits and
    /// single `_` (`Van-7` is `van_7`), so the id sent is the id Home Assistant keeps.
    public static func slug(_ text: String) -> String {
        var slug = ""
        for scalar in text.lowercased().unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty, !slug.hasSuffix("_") {
                slug += "_"
            }
        }
        while slug.hasSuffix("_") { slug.removeLast() }
        return slug.isEmpty ? "gpsfence" : slug
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

    /// The entity id an entity gets on every Home Assistant release: `sensor.van_speed`.
    func entityID(_ entity: HomeAssistantEntity) -> String {
        entity.component.rawValue + "." + objectPart(entity)
    }

    private func objectPart(_ entity: HomeAssistantEntity) -> String {
        entity.idSuffix.map { entityPrefix + "_" + $0 } ?? entityPrefix
    }

    /// The config topic and payload of one entity.
    func config(_ entity: HomeAssistantEntity, prefix: String, version: String) -> (topic: String, payload: String) {
        var line = JSONLine()
        if let name = entity.name { line.add("name", name) } else { line.addRaw("name", json: "null") }
        line.add("has_entity_name", true)
        line.add("unique_id", "gpsfence_\(nodeID)_\(entity.key)")
        // `default_entity_id` is what current releases read; releases before 2025.10 know only
        // `object_id` (without the domain), and current ones ignore it when both are there.
        line.add("default_entity_id", entityID(entity))
        line.add("object_id", objectPart(entity))
        entity.members(&line)
        var availability = JSONLine()
        availability.add("topic", MQTTMessages.statusTopic(prefix: prefix))
        availability.add("value_template", "{{ value_json.state }}")
        availability.add("payload_available", "online")
        availability.add("payload_not_available", "offline")
        line.addArray("availability", json: [availability.string])
        var device = JSONLine()
        device.addArray("identifiers", json: [JSONLine.quoted("gpsfence_" + nodeID)])
        device.add("name", deviceName)
        device.add("model", "gpsfence")
        device.add("manufacturer", "gpsfence")
        device.add("sw_version", version.isEmpty ? nil : version)
        line.addRaw("device", json: device.string)
        var origin = JSONLine()
        origin.add("name", "gpsfence")
        origin.add("sw_version", version.isEmpty ? nil : version)
        line.addRaw("origin", json: origin.string)
        return (configTopic(entity.component.rawValue, entity.key), line.string)
    }

    /// Which fences get an occupancy sensor: every fence of a file with at most `everyFenceUpTo`
    /// of them, else those marked `"homeassistant": true` (never thousands of entities by default).
    static let everyFenceUpTo = Limits.homeAssistantEveryFenceUpTo

    /// What to say when a fence set is too large for every fence to get a sensor, naming how to
    /// choose the ones that do; nil when every fence has one.
    static func unpublishedFences(total: Int, published: Int) -> BrokerProblem? {
        guard total > everyFenceUpTo else { return nil }
        return .homeAssistantSensors(fences: total, limit: everyFenceUpTo, marked: published)
    }

    static func occupancyFences(_ fences: FenceSet) -> [Int] {
        fences.count <= everyFenceUpTo ? Array(0..<fences.count) : FenceMark.homeAssistant.indices(in: fences)
    }
}
