import Presentation

/// The rules a fence's properties can carry besides its shape (docs/fences.md, "Rules"): when it
/// counts (`active`, `timezone`), until when it exists (`expires`), how long it is left before that
/// is told (`delay`), how fast one may go inside it
/// (`speed_limit`, one way along a road `speed_limit_forward` and `speed_limit_backward`,
/// `maxspeed:hgv` and its one-way forms), and which vehicles may pass it (`clearance`, `maxwidth`,
/// `maxlength`, `maxweight`, `maxaxleload`, `hgv`), some of them at some times only
/// (`maxspeed:conditional` and its one-way forms, `maxspeed:hgv:conditional`,
/// `maxweight:conditional`). Each is defined once (`FenceRuleKind`); the
/// event engine applies them on fix time.
public struct FenceRules: Sendable, Equatable {
    /// From when the fence is gone.
    public var expires: ExpiryTime?
    /// When the fence counts; nil: always.
    public var active: ActiveSchedule?
    /// Seconds beyond the exit distance, on every usable fix, before `exit`; nil: at once.
    public var exitDelay: Double?
    /// Metres per second.
    public var speedLimit: Double?
    /// Metres per second driving along a road's line in the order of its vertices, and against
    /// it, where that way has its own limit (`speed_limit_forward`, `speed_limit_backward`); nil:
    /// `speedLimit` holds that way.
    public var forwardSpeedLimit: Double?
    public var backwardSpeedLimit: Double?
    /// Metres per second, for heavy goods vehicles (`maxspeed:hgv`, with `--hgv`), and one way
    /// along a road (`maxspeed:hgv:forward`, `maxspeed:hgv:backward`; nil: `hgvSpeedLimit` holds
    /// that way).
    public var hgvSpeedLimit: Double?
    public var hgvForwardSpeedLimit: Double?
    public var hgvBackwardSpeedLimit: Double?
    /// Metres of headroom under the fence's obstacle.
    public var clearance: Double?
    /// Metres: the widest and the longest vehicle allowed.
    public var maxWidth: Double?
    public var maxLength: Double?
    /// Kilograms: the heaviest vehicle, and the heaviest axle, allowed.
    public var maxWeight: Double?
    public var maxAxleLoad: Double?
    /// Whether heavy goods vehicles may drive here (`hgv`).
    public var hgv: HGVAccess?
    /// Limits that hold at some times only (`maxspeed:conditional`, ...): `inForce` applies them.
    public var conditional: ConditionalLimitTable?

    public init() {}
}

/// Opening hours in the fence's local time: its `timezone`, else the user's zone (`--timezone`,
/// `TZ`, `/etc/localtime`: the zone of the console's times, `EventSettings.localZone`). The one
/// reading of a fence's times, for `active` and the conditional limits alike.
public struct ActiveSchedule: Sendable, Equatable {
    public let hours: OpeningHours
    /// The fence's `timezone`; nil: the user's zone, given with each question.
    public let zone: ZoneOffsets?

    public init(hours: OpeningHours, zone: ZoneOffsets?) {
        self.hours = hours
        self.zone = zone
    }

    /// Whether the hours hold at `milliseconds` since the epoch (UTC), read in the fence's zone,
    /// else in `localZone`.
    public func isActive(atMilliseconds milliseconds: Int64, localZone: ZoneOffsets) -> Bool {
        let zone = zone ?? localZone
        let utcSeconds = milliseconds.floorDivided(by: 1000)
        let local = utcSeconds + Int64(zone.offset(atSeconds: utcSeconds))
        let days = local.floorDivided(by: 86_400)
        // 1970-01-01 was a Thursday (weekday 3, Monday being 0).
        let weekday = Int((days + 3).floorModulo(7))
        let minute = Int32((local - days * 86_400) / 60)
        return hours.isOpen(weekday: weekday, minute: minute)
    }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor < 0) ? quotient - 1 : quotient
    }

    fileprivate func floorModulo(_ divisor: Int64) -> Int64 {
        let remainder = self % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}
