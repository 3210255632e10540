import Fences
import Presentation

/// The event semantics of docs/events.md with their defaults; the command line sets them (`--dwell`,
/// `--hysteresis`, ...) and a fence's own properties override the per-fence ones.
/// docs/events.md gives the reasoning behind each default.
public struct EventSettings: Sendable, Equatable {
    /// Seconds inside before `dwell` (per fence: `dwell`).
    public var dwell = 60.0
    /// Metres outside the boundary before an exit counts (per fence: `hysteresis`).
    public var hysteresis = 10.0
    /// Consecutive usable fixes beyond the exit distance that confirm an exit.
    public var exitConfirm = 2
    /// A fix is usable when its accuracy estimate is within this many metres.
    public var maxAccuracy = 100.0
    /// Metres per second no vehicle exceeds: a fix that would take more (and more than twice the
    /// receiver's own speed) is a glitch, not used (`FixPlausibility`).
    public var maxSpeed = 100.0
    /// The exit distance also grows with the fix's own accuracy estimate, up to this cap.
    public var accuracyCap = 50.0
    /// Seconds without a usable fix before `fix_lost`.
    public var stale = 10.0
    /// Whether a fence that contains the first usable fix gets an `enter` (with `initial: true`).
    public var initial = true
    /// Look-ahead metres for `approach`, for fences without their own `approach`; nil: none.
    public var approach: Double?
    /// The kinds of fence `approach` warns of (`--approach-kinds`): hazards unless asked.
    public var approachKinds = ApproachKinds.hazards
    /// Seconds between `heartbeat` events; nil: none.
    public var heartbeat: Double?
    /// Below this speed (m/s) the track is noise: no `approach` is raised or re-armed.
    public var minimumApproachSpeed = 1.0
    /// Seconds slow and still before `stationary` (docs/report.md); nil or 0: no motion events.
    public var stationary: Double? = 120
    /// Below this speed (m/s) the receiver counts as still.
    public var stationarySpeed = 0.5
    /// Metres the receiver may wander while still (and must leave, plus its accuracy, to be moving).
    public var stationaryRadius = 25.0
    /// Consecutive usable fixes above a fence's `speed_limit` before `speeding`.
    public var speedingConfirm = 3
    /// The vehicle's measures (`--vehicle-height`, `--vehicle-weight`, ..., `--hgv`): `approach`
    /// and `enter` of fences whose restrictions it breaks are flagged (`too_low`, `too_heavy`,
    /// ...); none given, nothing flagged.
    public var vehicle = VehicleProfile()
    /// The user's zone (`--timezone`, `TZ`, `/etc/localtime`): the times of a fence's conditional
    /// limits are read in it when the fence has no `timezone` of its own.
    public var localZone = ZoneOffsets.utc

    public init() {}

    /// Checks the values a user can set; nil when they make sense, else what is wrong (naming the
    /// option). Upper bounds too (`Limits`): `--dwell 1e300` or `inf` must be a message, not an
    /// overflow trap when the engine turns seconds into milliseconds.
    public var problem: Limits.RangeProblem? {
        // A list rather than one chain of `??`: Swift 6.2 (the arm64 package's compiler) gives up
        // type-checking that chain.
        let problems: [Limits.RangeProblem?] = [
            Limits.checkSeconds("--dwell", dwell, allowsZero: true),
            Limits.checkMetres("--hysteresis", hysteresis, allowsZero: true),
            Limits.check("--exit-confirm", exitConfirm, 1...Limits.maxExitConfirm),
            Limits.checkMetres("--max-accuracy", maxAccuracy),
            Limits.check("--max-speed", maxSpeed, .aboveZero, max: Limits.maxSpeed, unit: "m/s"),
            Limits.checkMetres("accuracy cap", accuracyCap, allowsZero: true),
            Limits.checkSeconds("--stale", stale),
            approach.flatMap { Limits.checkMetres("--approach", $0) },
            heartbeat.flatMap { Limits.checkSeconds("--heartbeat", $0) },
            Limits.check("minimum approach speed", minimumApproachSpeed, .zero, max: 1e9, unit: "m/s"),
            stationary.flatMap { Limits.checkSeconds("--stationary", $0, allowsZero: true) },
            Limits.check("--speeding-confirm", speedingConfirm, 1...Limits.maxExitConfirm),
            vehicle.height.flatMap { Limits.checkMetres("--vehicle-height", $0) },
            vehicle.width.flatMap { Limits.checkMetres("--vehicle-width", $0) },
            vehicle.length.flatMap { Limits.checkMetres("--vehicle-length", $0) },
            vehicle.weight.flatMap {
                Limits.check("--vehicle-weight", $0 / 1000, .aboveZero, max: Limits.maxTonnes, unit: "tonnes")
            },
            vehicle.axleLoad.flatMap {
                Limits.check("--vehicle-axle-load", $0 / 1000, .aboveZero, max: Limits.maxTonnes, unit: "tonnes")
            },
        ]
        return problems.lazy.compactMap { $0 }.first
    }
}
