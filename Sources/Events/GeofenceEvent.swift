import Fences
import NMEA

/// One event of docs/events.md, as the engine produces it. Rendering to JSON needs the `FenceSet` the
/// fence index refers to (`json(fences:)`).
public struct GeofenceEvent: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case enter, exit, dwell, visit, cross, approach, speeding
        case fixLost = "fix_lost"
        case fixAcquired = "fix_acquired"
        case deviceLost = "device_lost"
        case deviceConnected = "device_connected"
        case heartbeat, registered, unregistered, error
        case stationary, moving
        case anchorWarning = "anchor_warning"
        case alarm
        case alarmAcknowledged = "alarm_acknowledged"
        case alarmCleared = "alarm_cleared"

        /// Order inside one fix (docs/events.md): exit, visit, cross, enter, dwell, approach, speeding,
        /// then the motion events (docs/report.md: after the fence events), then the rest.
        var rank: Int {
            switch self {
            case .exit: 0
            case .visit: 1
            case .cross: 2
            case .enter: 3
            case .dwell: 4
            case .approach: 5
            case .speeding: 6
            case .stationary, .moving: 7
            case .fixLost, .fixAcquired, .deviceLost, .deviceConnected, .heartbeat, .registered, .unregistered,
                .error, .anchorWarning:
                8
            case .alarm, .alarmAcknowledged, .alarmCleared: 9
            }
        }

        /// Enter and exit: the events that change whether the receiver is inside a fence (and that
        /// OwnTracks calls transitions).
        public var isTransition: Bool {
            switch self {
            case .enter, .exit: true
            case .dwell, .visit, .cross, .approach, .speeding, .fixLost, .fixAcquired, .deviceLost, .deviceConnected,
                .heartbeat, .registered, .unregistered, .error, .stationary, .moving, .anchorWarning, .alarm,
                .alarmAcknowledged, .alarmCleared:
                false
            }
        }

        /// The event types a fence's `notify` property can select.
        var fenceEventType: FenceEventType? {
            switch self {
            case .enter: .enter
            case .exit: .exit
            case .dwell: .dwell
            case .visit: .visit
            case .cross: .cross
            case .approach: .approach
            case .speeding: .speeding
            case .fixLost, .fixAcquired, .deviceLost, .deviceConnected, .heartbeat, .registered, .unregistered,
                .error, .stationary, .moving, .anchorWarning, .alarm, .alarmAcknowledged, .alarmCleared:
                nil
            }
        }

        /// What the event's list of fence ids (`fences`) means, and the key it is written under:
        /// the fences the receiver is inside (`heartbeat`), or the fences named (`registered`,
        /// `unregistered`). Nil for kinds without a list.
        public var fenceListKey: String? {
            switch self {
            case .heartbeat: "inside"
            case .registered, .unregistered: "fences"
            case .enter, .exit, .dwell, .visit, .cross, .approach, .speeding, .fixLost, .fixAcquired, .deviceLost,
                .deviceConnected, .error, .stationary, .moving, .anchorWarning, .alarm, .alarmAcknowledged,
                .alarmCleared:
                nil
            }
        }

        /// Whether people are shown where the receiver was: for the events about the receiver
        /// itself rather than about a fence (whose name says where).
        public var isAboutThePosition: Bool {
            switch self {
            case .heartbeat, .fixLost, .stationary, .moving: true
            case .enter, .exit, .dwell, .visit, .cross, .approach, .speeding, .fixAcquired, .deviceLost,
                .deviceConnected, .registered, .unregistered, .error, .anchorWarning, .alarm, .alarmAcknowledged,
                .alarmCleared:
                false
            }
        }

        /// What the kind is to the alarm (docs/running.md, "Alarms"): one of its own events, or
        /// (`none`) an event that may raise or end one.
        public var alarmRole: AlarmRole {
            switch self {
            case .alarm: .raised
            case .alarmAcknowledged: .acknowledged
            case .alarmCleared: .cleared
            case .enter, .exit, .dwell, .visit, .cross, .approach, .speeding, .fixLost, .fixAcquired, .deviceLost,
                .deviceConnected, .heartbeat, .registered, .unregistered, .error, .stationary, .moving, .anchorWarning:
                .none
            }
        }
    }

    /// The alarm's own events, by what they say.
    public enum AlarmRole: Sendable {
        case raised, acknowledged, cleared, none
    }

    /// Where the receiver was.
    public struct Location: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
        public var accuracy: Double?
        public var speed: Double?
        public var track: Double?

        public init(
            latitude: Double, longitude: Double, accuracy: Double? = nil, speed: Double? = nil, track: Double? = nil
        ) {
            self.latitude = latitude
            self.longitude = longitude
            self.accuracy = accuracy
            self.speed = speed
            self.track = track
        }

        public init(_ fix: Fix) {
            self.init(
                latitude: fix.latitude, longitude: fix.longitude, accuracy: fix.accuracy, speed: fix.speed,
                track: fix.track)
        }
    }

    public var kind: Kind
    public var time: UTCTime
    /// Index of the fence in its `FenceSet` (file order), for fence events.
    public var fence: Int?
    public var location: Location?
    /// `enter` only: the receiver was already inside when the fence began to be watched: at the
    /// run's first usable fix, when its window opened, or when a new fence set brought it (then
    /// with a `reason`).
    public var initial: Bool?
    /// `approach`: metres along the track to the fence, and seconds to get there.
    public var distance: Double?
    public var eta: Double?
    /// `visit` (and `dwell`): when the stay began and ended, and its length in seconds.
    public var enterTime: UTCTime?
    public var exitTime: UTCTime?
    public var duration: Double?
    /// `registered`, `unregistered`, `heartbeat`: fence indices (file order).
    public var fences: [Int]?
    /// `error`, `device_lost`, `device_connected`: what happened, for people.
    public var message: String?
    /// `exit`: why the receiver left without moving (the fence expired, or a new fence set
    /// removed or reshaped it: docs/events.md); nil for an exit by moving out. `enter`: why it
    /// came inside without moving in (a new fence set added or reshaped the fence over it).
    public var reason: TransitionReason?
    /// `speeding`: the fix's speed and the fence's limit, in m/s.
    public var speed: Double?
    public var limit: Double?
    /// `approach` and `enter` of a fence whose clearance is below `--vehicle-height`.
    public var tooLow: Bool?
    /// The alarm's events: the event that raised it, and where the alarm stands after this one.
    public var cause: AlarmCause?
    public var alarmStatus: AlarmStatus?
    /// `alarm_acknowledged`: who answered.
    public var acknowledgedBy: AlarmAcknowledger?
    /// A dragging anchor's alarm: the boat's distance from the anchor, in metres.
    public var anchorDistance: Double?

    public init(kind: Kind, time: UTCTime, fence: Int? = nil, location: Location? = nil) {
        self.kind = kind
        self.time = time
        self.fence = fence
        self.location = location
    }
}

/// Why an `exit` or an `enter` happened without the receiver moving out or in (docs/events.md).
public enum TransitionReason: String, Sendable, Equatable {
    /// The fence's `expires` time passed while the receiver was inside.
    case expired
    /// A new fence set (a reload, the broker, an OwnTracks command) no longer has the fence.
    case removed
    /// A new fence set reshaped the fence away from the receiver (`exit`), or over it (`enter`).
    case changed
    /// `enter` only: a new fence set (a reload, the broker, the anchor drop, an OwnTracks command)
    /// brought a fence the receiver is already inside of.
    case added
}

// The events that do not come from a fix: the engine loop raises them (a device came or went, a
// problem to report, fences gone on reload), but they are built here, beside the fix events, so
// that every event's fields are set in this module.
extension GeofenceEvent {
    /// The device produced valid data; `detail` says at what rate (or through which gpsd).
    public static func deviceConnected(_ device: String, detail: String?, at time: UTCTime) -> GeofenceEvent {
        var event = GeofenceEvent(kind: .deviceConnected, time: time)
        event.message = device + (detail.map { " " + $0 } ?? "")
        return event
    }

    /// The connected device went away.
    public static func deviceLost(_ device: String, reason: String, at time: UTCTime) -> GeofenceEvent {
        var event = GeofenceEvent(kind: .deviceLost, time: time)
        event.message = "\(device): \(reason)"
        return event
    }

    /// A problem for people: a source that cannot be used, a hook that failed, a target down.
    public static func error(_ message: String, at time: UTCTime) -> GeofenceEvent {
        var event = GeofenceEvent(kind: .error, time: time)
        event.message = message
        return event
    }

    /// The boat passed `--anchor-warn`'s share of the anchor circle's radius (fence `anchor`).
    public static func anchorWarning(anchor: Int, distance: Double, at time: UTCTime, location: Location)
        -> GeofenceEvent
    {
        var event = GeofenceEvent(kind: .anchorWarning, time: time, fence: anchor, location: location)
        event.anchorDistance = distance
        return event
    }

    /// The fences (indices into the set they were loaded in) that a reload removed.
    public static func unregistered(_ fences: [Int], at time: UTCTime) -> GeofenceEvent {
        var event = GeofenceEvent(kind: .unregistered, time: time)
        event.fences = fences
        return event
    }
}
