import Events
import Fences

/// How the report shows each kind of event. Exhaustive switches: a new kind does not compile until
/// the report has decided its colour and whether the fence summary gives it a column.
extension GeofenceEvent.Kind {
    /// The fill of its map markers and table chips (docs/report.md).
    var reportColor: String {
        switch self {
        case .enter: "#2e7d32"
        case .exit: "#1565c0"
        case .dwell, .visit: "#6a1b9a"
        case .approach: "#ef6c00"
        case .cross: "#00838f"
        case .speeding: "#f9a825"
        case .fixLost, .error, .alarm, .integrity: "#c62828"
        case .anchorWarning: "#ef6c00"
        case .alarmAcknowledged, .alarmCleared: "#ad1457"
        case .fixAcquired: "#9e9d24"
        case .stationary, .moving: "#795548"
        // About the receiver or the run, not a place on the drive: the markers' neutral grey.
        case .deviceLost, .deviceConnected, .heartbeat, .registered, .unregistered: "#555"
        }
    }

    /// The page's CSS class for its markers, timeline ticks and chips.
    var reportClass: String { "ev-" + rawValue }

    /// Whether the fence summary counts it in a column of its own, headed by its type (docs/report.md,
    /// "fences"). Visits are counted too, in their own column beside the time inside; the other
    /// kinds are in the event table only.
    var hasFenceSummaryColumn: Bool {
        switch self {
        case .enter, .exit, .cross, .approach, .speeding: true
        case .dwell, .visit, .fixLost, .fixAcquired, .deviceLost, .deviceConnected, .heartbeat, .registered,
            .unregistered, .error, .stationary, .moving, .anchorWarning, .alarm, .alarmAcknowledged, .alarmCleared,
            .integrity:
            false
        }
    }
}
