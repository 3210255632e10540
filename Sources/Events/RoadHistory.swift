import Fences
import Platform

/// How the fixes of the last tens of metres score a road the vehicle may be on (`RoadMatcher`,
/// docs/events.md, "The road being driven").
///
/// A receiver's error drifts slowly (metres over tens of seconds) and is the same whichever road
/// it is measured from. So each road carries the error that explains the fixes on it (`error`,
/// metres east and north), and a fix costs a road a little for its distance from the line and
/// mostly for how far it lies from where that error puts it. A road only the error's lean brings
/// near (a ramp that leaves the street and runs beside it) is reached by a jump of the error where
/// it parts from the road before, while the road really driven keeps the error it had; a road the
/// vehicle really turns onto keeps its fixes where the error it inherits puts them.
struct RoadHistory {
    /// Metres over which a road's cost is averaged.
    static let averageMetres = 30.0
    /// Seconds over which a receiver's error drifts (a city street's: about 20).
    static let driftSeconds = 20.0
    /// What a metre from the line costs, against a metre from where the error puts the fix.
    static let distanceWeight = 0.5

    /// The share of a road's cost kept from before this fix, and the share of the way to this
    /// fix's offset its error moves.
    let keep: Double
    let follow: Double

    /// The history's step to a fix `metres` along and `seconds` after the one before.
    init(metres: Double, seconds: Double) {
        keep = exp(-max(metres, 0) / Self.averageMetres)
        follow = 1 - exp(-max(seconds, 0) / Self.driftSeconds)
    }

    /// The unit vector (east, north) to the left of a segment of `bearing` degrees.
    static func left(_ bearing: Double) -> SIMD2<Double> {
        let radians = bearing * Geodesy.degree
        return SIMD2(-cos(radians), sin(radians))
    }

    /// The cost of a fix `offset` metres left of a road's segment of `bearing`, for a road whose
    /// error was `error` (nil: a road with no history, whose error is where this fix lies), and
    /// the road's error after it. Without a history the distance is all a fix says.
    func fix(offset: Double, bearing: Double, error: SIMD2<Double>?) -> (cost: Double, error: SIMD2<Double>) {
        let across = Self.left(bearing)
        guard let error else { return (abs(offset), offset * across) }
        let miss = offset - (error * across).sum()
        return (Self.distanceWeight * abs(offset) + abs(miss), error + follow * miss * across)
    }

    /// A road's average cost after a fix that cost `cost`, from `before`.
    func average(_ before: Double, _ cost: Double) -> Double { keep * before + (1 - keep) * cost }
}
