import NMEA

/// One event of SPEC §6, as the engine produces it. Rendering to JSON needs the `FenceSet` the
/// fence index refers to (`json(fences:)`).
public struct GeofenceEvent: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case enter, exit, dwell, visit, cross, approach
        case fixLost = "fix_lost"
        case fixAcquired = "fix_acquired"
        case deviceLost = "device_lost"
        case deviceConnected = "device_connected"
        case heartbeat, registered, unregistered, error
        case stationary, moving

        /// Order inside one fix (SPEC §6): exit, visit, cross, enter, dwell, approach, then the
        /// motion events (SPEC §14: after the fence events), then the rest.
        var rank: Int {
            switch self {
            case .exit: 0
            case .visit: 1
            case .cross: 2
            case .enter: 3
            case .dwell: 4
            case .approach: 5
            case .stationary, .moving: 6
            default: 7
            }
        }

        /// The event types a fence's `notify` property can select.
        var fenceEventType: FenceEventType? { FenceEventType(rawValue: rawValue) }
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
    /// `enter` only: the first usable fix of the run was already inside.
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

    public init(kind: Kind, time: UTCTime, fence: Int? = nil, location: Location? = nil) {
        self.kind = kind
        self.time = time
        self.fence = fence
        self.location = location
    }
}
