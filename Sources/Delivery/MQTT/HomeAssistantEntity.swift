import Events
import Fences
import JSONOutput

/// Home Assistant's entity platforms that gpsfence's discovery uses.
enum HomeAssistantComponent: String, Sendable {
    case deviceTracker = "device_tracker"
    case sensor
    case binarySensor = "binary_sensor"
    case event
    case button
}

/// One entity's discovery config, less what every entity shares (`HomeAssistantDiscovery.config`).
struct HomeAssistantEntity {
    var component: HomeAssistantComponent
    /// The config topic's object id and the unique id's end: kept as they were, so a Home Assistant
    /// that knows the entity updates it instead of making a second one.
    var key: String
    /// The entity id's end after the device's part (`speed` in `sensor.van_speed`); nil: the
    /// device's part alone (the tracker is `device_tracker.van`).
    var idSuffix: String?
    /// Shown after the device's name; nil: the device's name alone.
    var name: String?
    var members: (inout JSONLine) -> Void
}

extension HomeAssistantDiscovery {
    /// The device's own entities: tracker, sensors, receiver and fix, events.
    func deviceEntities(prefix: String) -> [HomeAssistantEntity] {
        let receiver = Self.receiverTopic(prefix: prefix)
        // The receiver's health (satellites, fix quality, accuracy, connection) is diagnostic:
        // Home Assistant shows it apart from the sensors a dashboard is for.
        func measurement(
            _ key: String, _ name: String, field: String, unit: String?, deviceClass: String?,
            stateClass: String = "measurement", icon: String? = nil, diagnostic: Bool = false
        ) -> HomeAssistantEntity {
            HomeAssistantEntity(component: .sensor, key: key, idSuffix: HomeAssistantDiscovery.slug(name), name: name) {
                line in
                line.add("state_topic", receiver)
                line.add("value_template", "{{ value_json.\(field) }}")
                line.add("unit_of_measurement", unit)
                line.add("device_class", deviceClass)
                line.add("state_class", stateClass)
                if let icon { line.add("icon", icon) }
                if diagnostic { line.add("entity_category", "diagnostic") }
            }
        }
        // An enumeration has no unit and no state class: Home Assistant rejects either on `enum`.
        func enumeration(
            _ key: String, _ name: String, field: String, options: [String], icon: String?, diagnostic: Bool
        )
            -> HomeAssistantEntity
        {
            HomeAssistantEntity(component: .sensor, key: key, idSuffix: HomeAssistantDiscovery.slug(name), name: name) {
                line in
                line.add("state_topic", receiver)
                line.add("value_template", "{{ value_json.\(field) }}")
                line.add("device_class", "enum")
                line.addArray("options", strings: options)
                if let icon { line.add("icon", icon) }
                if diagnostic { line.add("entity_category", "diagnostic") }
            }
        }
        func binary(
            _ key: String, _ name: String, field: String, on: String, off: String, deviceClass: String?,
            icon: String? = nil, diagnostic: Bool = false
        ) -> HomeAssistantEntity {
            HomeAssistantEntity(
                component: .binarySensor, key: key, idSuffix: HomeAssistantDiscovery.slug(name), name: name
            ) { line in
                line.add("state_topic", receiver)
                line.add("value_template", "{{ value_json.\(field) }}")
                line.add("payload_on", on)
                line.add("payload_off", off)
                line.add("device_class", deviceClass)
                if let icon { line.add("icon", icon) }
                if diagnostic { line.add("entity_category", "diagnostic") }
            }
        }
        return [
            HomeAssistantEntity(component: .deviceTracker, key: "tracker", idSuffix: nil, name: nil) { line in
                line.add("json_attributes_topic", Self.trackerTopic(prefix: prefix))
                line.add("source_type", "gps")
            },
            measurement("speed", "Speed", field: "speed", unit: "km/h", deviceClass: "speed"),
            measurement(
                "satellites", "Satellites used", field: "satellites", unit: nil, deviceClass: nil,
                icon: "mdi:satellite-variant", diagnostic: true),
            enumeration(
                "fix_quality", "Fix quality", field: "fix_quality",
                options: HomeAssistantFixQuality.allCases.map(\.rawValue), icon: "mdi:crosshairs-gps", diagnostic: true),
            measurement(
                "accuracy", "Accuracy", field: "accuracy", unit: "m", deviceClass: "distance",
                icon: "mdi:map-marker-radius", diagnostic: true),
            measurement(
                "odometer_today", "Odometer today", field: "odometer_today", unit: "km", deviceClass: "distance",
                stateClass: "total_increasing", icon: "mdi:counter"),
            enumeration(
                "motion", "Motion", field: "motion", options: HomeAssistantMotion.allCases.map(\.rawValue),
                icon: "mdi:car-arrow-right", diagnostic: false),
            binary(
                "receiver", "Receiver", field: "receiver", on: "connected", off: "lost", deviceClass: "connectivity",
                icon: "mdi:usb-port", diagnostic: true),
            binary("fix", "Fix", field: "fix", on: "usable", off: "lost", deviceClass: nil, icon: "mdi:crosshairs-gps"),
            // Whether the position can be trusted: jamming and spoofing (docs/running.md).
            HomeAssistantEntity(
                component: .sensor, key: "integrity", idSuffix: "gnss_integrity", name: "GNSS integrity"
            ) { line in
                let topic = MQTTMessages.integrityTopic(prefix: prefix)
                line.add("state_topic", topic)
                line.add("value_template", "{{ value_json.state }}")
                line.add("json_attributes_topic", topic)
                line.add("device_class", "enum")
                line.addArray("options", strings: IntegrityState.allCases.map(\.rawValue))
                line.add("icon", "mdi:shield-alert-outline")
            },
            HomeAssistantEntity(component: .event, key: "event", idSuffix: "event", name: "Event") { line in
                line.add("state_topic", Self.eventTopic(prefix: prefix))
                line.addArray("event_types", strings: GeofenceEvent.Kind.allCases.map(\.rawValue))
            },
        ]
    }

    /// The anchor watch's sensors, while there is one: the distance from the boat to the anchor
    /// (m) and the bearing from the boat to it (degrees true), from the receiver topic.
    func anchorEntities(prefix: String) -> [HomeAssistantEntity] {
        let receiver = Self.receiverTopic(prefix: prefix)
        func sensor(
            _ key: String, _ name: String, field: String, unit: String, deviceClass: String?, stateClass: String?,
            icon: String
        ) -> HomeAssistantEntity {
            HomeAssistantEntity(component: .sensor, key: key, idSuffix: Self.slug(name), name: name) { line in
                line.add("state_topic", receiver)
                line.add("value_template", "{{ value_json.\(field) }}")
                line.add("unit_of_measurement", unit)
                line.add("device_class", deviceClass)
                if let stateClass { line.add("state_class", stateClass) }
                line.add("icon", icon)
            }
        }
        return [
            sensor(
                "anchor_distance", "Anchor distance", field: "anchor_distance", unit: "m", deviceClass: "distance",
                stateClass: "measurement", icon: "mdi:anchor"),
            // Home Assistant has no device class for a bearing, and no state class may be given: its
            // statistics would average 359° and 1° to 180°.
            sensor(
                "anchor_bearing", "Anchor bearing", field: "anchor_bearing", unit: "°", deviceClass: nil,
                stateClass: nil,
                icon: "mdi:compass-outline"),
            sensor(
                "anchor_max_distance", "Anchor max distance", field: "anchor_max_distance", unit: "m",
                deviceClass: "distance", stateClass: "measurement", icon: "mdi:arrow-expand-horizontal"),
        ]
    }

    /// The alarm of a run that keeps one (docs/running.md, "Alarms"): a `safety` binary sensor, on
    /// while the alarm sounds, with the retained `PREFIX/alarm` (its last event: the cause, the
    /// distance) as its attributes, and the button that answers it.
    func alarmEntities(prefix: String) -> [HomeAssistantEntity] {
        let alarm = MQTTMessages.alarmTopic(prefix: prefix)
        return [
            HomeAssistantEntity(component: .binarySensor, key: "alarm", idSuffix: "alarm", name: "Alarm") { line in
                line.add("state_topic", alarm)
                // Acknowledged is off too: the alarm is answered, nothing sounds.
                line.add("value_template", "{{ 'active' if value_json.state == 'active' else 'clear' }}")
                line.add("payload_on", "active")
                line.add("payload_off", "clear")
                line.add("json_attributes_topic", alarm)
                line.add("device_class", "safety")
            },
            HomeAssistantEntity(
                component: .button, key: "alarm_acknowledge", idSuffix: "acknowledge_alarm", name: "Acknowledge alarm"
            ) { line in
                line.add("command_topic", MQTTMessages.alarmCommandTopic(prefix: prefix))
                line.add("payload_press", "ack")
            },
        ]
    }

    /// A fence's occupancy sensor, whose state is the retained `PREFIX/fence/ID`. Its entity id
    /// comes from the fence id, its name from the fence's name: renaming a fence keeps the id.
    func fenceEntity(prefix: String, id: FenceID, name: String?) -> HomeAssistantEntity {
        let key = Self.fenceObjectID(id)
        return HomeAssistantEntity(
            component: .binarySensor, key: key, idSuffix: Self.slug(key), name: name ?? id.text
        ) { line in
            line.add("state_topic", MQTTMessages.fenceTopic(prefix: prefix, id: id))
            line.add("value_template", "{{ value_json.state }}")
            line.add("payload_on", "inside")
            line.add("payload_off", "outside")
            line.add("device_class", "occupancy")
        }
    }
}
