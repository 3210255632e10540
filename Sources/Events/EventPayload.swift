import Fences
import NMEA

extension GeofenceEvent {
    /// What an event says, one case per kind (docs/events.md), each with exactly the fields of its
    /// kind: a new kind or field stops the build at every encoder, printer and sink that must
    /// handle it. Fences are indices into the `FenceSet` the event refers to.
    public enum Payload: Sendable, Equatable {
        case enter(Enter)
        case exit(Exit)
        case dwell(Dwell)
        case visit(Visit)
        case cross(fence: Int)
        case approach(Approach)
        case speeding(Speeding)
        case fixLost
        case fixAcquired
        /// What happened, for people. The events no fix causes carry, besides, the wall clock when
        /// `time` is a replay's clock rather than when they really happened (docs/events.md).
        case deviceLost(message: String, wallTime: UTCTime?)
        case deviceConnected(message: String, wallTime: UTCTime?)
        /// The fences the receiver is inside.
        case heartbeat(inside: [Int])
        /// After a new fence set, `message` says where it came from.
        case registered(fences: [Int], message: String?)
        case unregistered(fences: [Int])
        case error(problem: Problem, wallTime: UTCTime?)
        case stationary
        case moving
        case anchorWarning(AnchorWarning)
        case alarm(Alarm)
        case alarmAcknowledged(Alarm, by: AlarmAcknowledger)
        case alarmCleared(Alarm)
        /// The integrity monitor's judgement changed.
        case integrity(Integrity)

        public var kind: Kind {
            switch self {
            case .enter: .enter
            case .exit: .exit
            case .dwell: .dwell
            case .visit: .visit
            case .cross: .cross
            case .approach: .approach
            case .speeding: .speeding
            case .fixLost: .fixLost
            case .fixAcquired: .fixAcquired
            case .deviceLost: .deviceLost
            case .deviceConnected: .deviceConnected
            case .heartbeat: .heartbeat
            case .registered: .registered
            case .unregistered: .unregistered
            case .error: .error
            case .stationary: .stationary
            case .moving: .moving
            case .anchorWarning: .anchorWarning
            case .alarm: .alarm
            case .alarmAcknowledged: .alarmAcknowledged
            case .alarmCleared: .alarmCleared
            case .integrity: .integrity
            }
        }
    }

    public struct Enter: Sendable, Equatable {
        public var fence: Int
        /// The receiver was already inside when the fence began to be watched: at the run's first
        /// usable fix, when its window opened, or when a new fence set brought it (then with a
        /// `reason`).
        public var initial: Bool
        /// The fence's restrictions the vehicle breaks (`too_low`: its clearance is below
        /// `--vehicle-height`).
        public var restrictions: BrokenRestrictions
        /// Why the receiver came inside without moving in (a new fence set added or reshaped the
        /// fence over it); nil for an enter by moving in.
        public var reason: TransitionReason?

        public init(
            fence: Int, initial: Bool, restrictions: BrokenRestrictions = [], reason: TransitionReason? = nil
        ) {
            self.fence = fence
            self.initial = initial
            self.restrictions = restrictions
            self.reason = reason
        }
    }

    public struct Exit: Sendable, Equatable {
        public var fence: Int
        /// Why the receiver left without moving (the fence expired, or a new fence set removed or
        /// reshaped it); nil for an exit by moving out.
        public var reason: TransitionReason?

        public init(fence: Int, reason: TransitionReason? = nil) {
            self.fence = fence
            self.reason = reason
        }
    }

    public struct Dwell: Sendable, Equatable {
        public var fence: Int
        /// When the stay began, and its length so far in seconds.
        public var enterTime: UTCTime
        public var duration: Double

        public init(fence: Int, enterTime: UTCTime, duration: Double) {
            self.fence = fence
            self.enterTime = enterTime
            self.duration = duration
        }
    }

    public struct Visit: Sendable, Equatable {
        public var fence: Int
        /// When the stay began and ended, and its length in seconds.
        public var enterTime: UTCTime
        public var exitTime: UTCTime
        public var duration: Double

        public init(fence: Int, enterTime: UTCTime, exitTime: UTCTime, duration: Double) {
            self.fence = fence
            self.enterTime = enterTime
            self.exitTime = exitTime
            self.duration = duration
        }
    }

    public struct Approach: Sendable, Equatable {
        public var fence: Int
        /// Metres along the track to the fence, and seconds to get there.
        public var distance: Double
        public var eta: Double
        /// The fence's restrictions the vehicle breaks, as for `Enter`.
        public var restrictions: BrokenRestrictions

        public init(fence: Int, distance: Double, eta: Double, restrictions: BrokenRestrictions = []) {
            self.fence = fence
            self.distance = distance
            self.eta = eta
            self.restrictions = restrictions
        }
    }

    public struct Speeding: Sendable, Equatable {
        public var fence: Int
        /// The fix's speed and the fence's limit, in m/s.
        public var speed: Double
        public var limit: Double

        public init(fence: Int, speed: Double, limit: Double) {
            self.fence = fence
            self.speed = speed
            self.limit = limit
        }
    }

    /// The boat passed `--anchor-warn`'s share of the anchor circle's radius.
    public struct AnchorWarning: Sendable, Equatable {
        /// The anchor circle's fence.
        public var anchor: Int
        /// The boat's distance from the anchor, in metres.
        public var distance: Double

        public init(anchor: Int, distance: Double) {
            self.anchor = anchor
            self.distance = distance
        }
    }

    /// What the alarm's events say: the event that raised it, and where it stands after this one.
    public struct Alarm: Sendable, Equatable {
        /// The causing event's fence, while the fence set still has it.
        public var fence: Int?
        public var cause: AlarmCause
        public var status: AlarmStatus
        /// A dragging anchor's alarm: the boat's distance from the anchor, in metres.
        public var anchorDistance: Double?

        public init(fence: Int?, cause: AlarmCause, status: AlarmStatus, anchorDistance: Double? = nil) {
            self.fence = fence
            self.cause = cause
            self.status = status
            self.anchorDistance = anchorDistance
        }
    }

    /// How far the position can be trusted now, why, and since when (docs/events.md).
    public struct Integrity: Sendable, Equatable {
        public var state: IntegrityState
        public var reasons: IntegrityReasons
        /// When this state began, by the receiver's clock.
        public var since: UTCTime

        public init(state: IntegrityState, reasons: IntegrityReasons, since: UTCTime) {
            self.state = state
            self.reasons = reasons
            self.since = since
        }
    }
}
