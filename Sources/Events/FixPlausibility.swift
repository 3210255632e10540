import Fences
import NMEA

/// Receiver glitches are not believed (docs/running.md, "Receiver glitches"). A usable fix is
/// measured against the last one believed: a jump that would take a speed far above both the
/// receiver's own reported speed and `maxSpeed` is a glitch (multipath, a receiver's first fixes
/// after a restart, a replayed route starting over), and the fix is ignored. One such fix is
/// held: when the next fix agrees with it rather than with the last believed one, the receiver
/// really is at the new place (a tunnel's end, a restart) and the run goes on from there, without
/// the way between the two places, which nobody drove.
///
/// Every input path (a serial receiver, gpsd, a capture) reaches the engine through the one engine
/// loop, which asks this filter first, so `run` and `replay` judge alike.
public struct FixPlausibility: Sendable {
    public enum Verdict: Sendable, Equatable {
        /// The way from the last believed fix to this one is a drive: use it as usual.
        case believed
        /// A jump no vehicle makes: not used at all (no event, no odometer, no track point).
        case ignored
        /// This fix agrees with the ignored one just before it: use it, as the start of a new
        /// stretch (no crossing and no odometer from the last believed fix).
        case jumped
    }

    /// Metres per second no vehicle of this run exceeds (`--max-speed`).
    public let maxSpeed: Double
    /// Fixes with a worse accuracy estimate are not usable: the engine ignores them anyway, and
    /// they are not judged.
    public let maxAccuracy: Double
    /// Fixes not used since the start: each ignored one, whether or not a jump followed it.
    public private(set) var ignoredCount = 0

    private var lastBelieved: Fix?
    /// The last fix ignored, when it was the one just before: a candidate new place.
    private var held: Fix?

    /// Metres of the way between two fixes that are never taken for speed: position noise over a
    /// short interval, besides the two fixes' own accuracy estimates.
    static let slack = 50.0
    /// "Far above" the receiver's own speed: more than this many times it.
    static let reportedSpeedFactor = 2.0

    public init(maxSpeed: Double, maxAccuracy: Double) {
        self.maxSpeed = maxSpeed
        self.maxAccuracy = maxAccuracy
    }

    /// Judges the next fix of the receiver, in order. Fixes without a time or with a poor accuracy
    /// estimate are `believed`: they only move the engine's clock.
    public mutating func judge(_ fix: Fix) -> Verdict {
        guard fix.time != nil, (fix.accuracy ?? 0) <= maxAccuracy else { return .believed }
        guard let last = lastBelieved else {
            lastBelieved = fix
            return .believed
        }
        let candidate = held
        held = nil
        if isDrivable(from: last, to: fix) {
            lastBelieved = fix
            return .believed
        }
        if let candidate, isDrivable(from: candidate, to: fix) {
            lastBelieved = fix
            return .jumped
        }
        held = fix
        ignoredCount += 1
        return .ignored
    }

    /// Whether a vehicle gets from `from` to `to` in the fix time between them: within the larger
    /// of `maxSpeed` and twice the receiver's reported speed, plus the slack of position noise.
    func isDrivable(from: Fix, to: Fix) -> Bool {
        guard let start = from.time, let end = to.time else { return true }
        return Self.isDrivable(
            metres: Geodesy.haversine(lat1: from.latitude, lon1: from.longitude, lat2: to.latitude, lon2: to.longitude),
            milliseconds: end.millisecondsSinceEpoch - start.millisecondsSinceEpoch,
            reportedSpeed: max(from.speed ?? 0, to.speed ?? 0),
            accuracies: (from.accuracy ?? 0) + (to.accuracy ?? 0), maxSpeed: maxSpeed)
    }

    /// The rule itself, for two positions `metres` apart in `milliseconds` of fix time (the field
    /// report applies it to the kept track, to break its line at a jump).
    public static func isDrivable(
        metres: Double, milliseconds: Int64, reportedSpeed: Double, accuracies: Double, maxSpeed: Double
    ) -> Bool {
        let seconds = max(0, Double(milliseconds) / 1000)
        let speed = max(maxSpeed, reportedSpeedFactor * reportedSpeed)
        return metres <= speed * seconds + slack + accuracies
    }
}
