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
        case integrity

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
                .error, .anchorWarning, .integrity:
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
                .alarmAcknowledged, .alarmCleared, .integrity:
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
                .error, .stationary, .moving, .anchorWarning, .alarm, .alarmAcknowledged, .alarmCleared, .integrity:
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
                .alarmCleared, .integrity:
                nil
            }
        }

        /// Whether people are shown where the receiver was: for the events about the receiver
        /// itself rather than about a fence (whose name says where).
        public var isAboutThePosition: Bool {
            switch self {
            case .heartbeat, .fixLost, .stationary, .moving, .integrity: true
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
                .deviceConnected, .heartbeat, .registered, .unregistered, .error, .stationary, .moving, .anchorWarning,
                .integrity:
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

    public var time: UTCTime
    /// Where the receiver was: at the fix, for the events a fix raises; at the last fix, for
    /// `fix_lost`; where the causing event was, for an `alarm`.
    public var location: Location?
    /// What the kind says, with exactly the fields it has.
    public var payload: Payload

    public var kind: Kind { payload.kind }

    public init(_ payload: Payload, time: UTCTime, location: Location? = nil) {
        self.payload = payload
        self.time = time
        self.location = location
    }

    /// Index of the fence (in its `FenceSet`, file order) the event is about, for the kinds that
    /// are about one fence.
    public var fence: Int? {
        switch payload {
        case .enter(let enter): enter.fence
        case .exit(let exit): exit.fence
        case .dwell(let dwell): dwell.fence
        case .visit(let visit): visit.fence
        case .cross(let fence): fence
        case .approach(let approach): approach.fence
        case .speeding(let speeding): speeding.fence
        case .anchorWarning(let warning): warning.anchor
        case .alarm(let alarm), .alarmCleared(let alarm), .alarmAcknowledged(let alarm, by: _): alarm.fence
        case .fixLost, .fixAcquired, .deviceLost, .deviceConnected, .heartbeat, .registered, .unregistered, .error,
            .stationary, .moving, .integrity:
            nil
        }
    }

    /// The restrictions of the event's fence the vehicle breaks (`too_low`): only an `approach` or
    /// an `enter` carries them.
    public var restrictions: BrokenRestrictions {
        switch payload {
        case .enter(let enter): enter.restrictions
        case .approach(let approach): approach.restrictions
        case .exit, .dwell, .visit, .cross, .speeding, .anchorWarning, .alarm, .alarmCleared, .alarmAcknowledged,
            .fixLost, .fixAcquired, .deviceLost, .deviceConnected, .heartbeat, .registered, .unregistered, .error,
            .stationary, .moving, .integrity:
            []
        }
    }

    /// The fence indices the event lists: those the receiver is inside (`heartbeat`), or those
    /// named (`registered`, `unregistered`).
    public var listedFences: [Int]? {
        switch payload {
        case .heartbeat(let inside): inside
        case .registered(let fences, _), .unregistered(let fences): fences
        case .enter, .exit, .dwell, .visit, .cross, .approach, .speeding, .anchorWarning, .alarm, .alarmCleared,
            .alarmAcknowledged, .fixLost, .fixAcquired, .deviceLost, .deviceConnected, .error, .stationary, .moving,
            .integrity:
            nil
        }
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
    /// The device produced valid data; `detail` says at what rate (or through which gpsd). `time`
    /// is on the run's clock; `wallTime`, when that is not the wall clock, when it really happened.
    public static func deviceConnected(_ device: String, detail: String?, at time: UTCTime, wallTime: UTCTime?)
        -> GeofenceEvent
    {
        GeofenceEvent(
            .deviceConnected(message: device + (detail.map { " " + $0 } ?? ""), wallTime: wallTime), time: time)
    }

    /// The connected device went away.
    public static func deviceLost(_ device: String, reason: String, at time: UTCTime, wallTime: UTCTime?)
        -> GeofenceEvent
    {
        GeofenceEvent(.deviceLost(message: "\(device): \(reason)", wallTime: wallTime), time: time)
    }

    /// A problem for people: a source that cannot be used, a hook that failed, a target down.
    public static func error(_ problem: Problem, at time: UTCTime, wallTime: UTCTime?) -> GeofenceEvent {
        GeofenceEvent(.error(problem: problem, wallTime: wallTime), time: time)
    }

    /// The boat passed `--anchor-warn`'s share of the anchor circle's radius (fence `anchor`).
    public static func anchorWarning(anchor: Int, distance: Double, at time: UTCTime, location: Location)
        -> GeofenceEvent
    {
        GeofenceEvent(.anchorWarning(AnchorWarning(anchor: anchor, distance: distance)), time: time, location: location)
    }

    /// The first usable fix of a run lies outside an anchor circle placed by `--anchor-at`: the
    /// boat has already left it, so the anchor's `exit` is due although no fix was inside.
    public static func outsideTheAnchor(anchor: Int, at time: UTCTime, location: Location) -> GeofenceEvent {
        GeofenceEvent(.exit(Exit(fence: anchor)), time: time, location: location)
    }

    /// The fences (indices into the set they were loaded in) that a reload removed.
    public static func unregistered(_ fences: [Int], at time: UTCTime) -> GeofenceEvent {
        GeofenceEvent(.unregistered(fences: fences), time: time)
    }
}
