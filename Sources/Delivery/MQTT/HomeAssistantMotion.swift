import Events
import Fences

/// The motion sensor's states, Home Assistant's `enum` sensor `options`: the last `stationary` or
/// `moving` event says which; unknown until the first.
public enum HomeAssistantMotion: String, CaseIterable, Sendable {
    case stationary
    case moving

    /// The state an event puts the sensor in; nil for the events that say nothing of motion.
    init?(_ kind: GeofenceEvent.Kind) {
        switch kind {
        case .stationary: self = .stationary
        case .moving: self = .moving
        case .enter, .exit, .dwell, .visit, .cross, .approach, .speeding, .fixLost, .fixAcquired, .heartbeat, .error,
            .registered, .unregistered, .deviceLost, .deviceConnected, .anchorWarning, .alarm, .alarmAcknowledged,
            .alarmCleared, .integrity:
            return nil
        }
    }
}
