import Fences

/// A road the recent fixes could be on (`RoadMatcher`), scored by their history (`RoadHistory`).
struct RoadHypothesis {
    var fence: Int
    var tags: RoadTags
    /// The receiver's error as this road explains the fixes (metres east and north).
    var error: SIMD2<Double>
    /// The fixes' average cost over the last tens of metres (metres).
    var cost: Double
    /// This fix's nearest segment on the road.
    var bearing: Double
    /// Whether this fix lies beyond an end of the road's line: the vehicle has left it, or has not
    /// reached it yet.
    var beyondEnd: Bool
    /// Whether this road is, or goes on from, one the road being driven was chosen among: a rival
    /// of that road while the fix is not beyond its end.
    var rival = false
}
