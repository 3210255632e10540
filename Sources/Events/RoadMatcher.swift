import Fences
import NMEA

/// Which road the receiver is driving, among the road corridors near each usable fix (docs/events.md,
/// "The road being driven"). A road is a candidate when the fix lies within its footprint (the
/// corridor) widened by the fix's accuracy (up to the accuracy cap) and `margin`. Of those:
/// - heading: with a usable course (`minimumCourseSpeed` and a track), a road whose nearest segment
///   runs more than `maxTurn` degrees off the course is not the road (either way on a two-way road,
///   the tagged way on a one-way road);
/// - layer: while the road matched before is a candidate, a road at another height (`bridge`,
///   `tunnel`, `layer`, `level`) that does not join it (at a shared OSM node, or a shared vertex
///   between roads drawn by hand) is not the road: a street over a tunnel does not lead into it;
/// - underground: a road in a tunnel, where no receiver has a fix, is reached only along a road
///   that leads in: it is a candidate when it is the road matched before, joins it, or the fix is
///   within `portalMetres` of a portal, an end of its line where no other tunnel goes on (reached
///   from a road not in the file). A street over the middle of a tunnel is never taken for it, the first fix included;
///   at a portal the nearest wins, as a truck that comes from a ramp not in the file must be
///   warned;
/// - a node's piece: a piece of road around an OSM node that carries the node's restriction
///   (`at_node`), on the road matched before (which passes through that node), counts as that
///   road itself (`stayMetres` nearer), so the vehicle on the road is on the piece while on it;
/// - the nearest in metres wins, counting the turn against the course as up to `turnMetres`, and
///   the road matched before as `stayMetres` nearer (not once the fix is beyond the end of its
///   line: the vehicle has left it), a road joined to it as `joinMetres` nearer, and, while it is
///   a candidate, a road that does not join it as `detachedMetres` farther: a vehicle gets from
///   one road to another at a junction, not across the gap beside it.
/// Without a usable course the road matched before holds while it is a candidate.
///
/// The way the road is driven along its line (`travel`) is the course against its nearest
/// segment's bearing, or a one-way road's own way; without a course it holds while the road does.
final class RoadMatcher {
    /// The road being driven (a fence index), nil when no road is.
    private(set) var road: Int?
    private(set) var roadTags = RoadTags()
    /// Which way `road` is driven along its line: nil when not known (a two-way road matched
    /// without a course).
    private(set) var travel: TravelDirection?

    static let margin = 5.0
    static let maxTurn = 45.0
    /// Metres per second below which a receiver's course is noise (a walk's pace, 7.2 km/h).
    static let minimumCourseSpeed = 2.0
    static let turnMetres = 5.0
    static let stayMetres = 3.0
    static let joinMetres = 1.0
    static let detachedMetres = 5.0
    static let portalMetres = 20.0
    /// Fences whose road tags are kept before the list starts over.
    static let cacheLimit = 4096

    private let fences: FenceSet
    private let near = FenceHits()
    private let joinedAtEnd = FenceHits()
    private enum Known {
        case road(RoadTags)
        case notRoad
    }
    private var known: [Int32: Known] = [:]
    /// The positions of the matched road's vertices, sorted, for `joinsRoad`.
    private var roadVertices: [SIMD2<Double>] = []

    init(fences: FenceSet) {
        self.fences = fences
        known.reserveCapacity(64)
    }

    /// The road tags of `fence`, nil when it is no road.
    func tags(_ fence: Int) -> RoadTags? {
        if let entry = known[Int32(fence)] {
            switch entry {
            case .road(let tags): return tags
            case .notRoad: return nil
            }
        }
        if known.count >= Self.cacheLimit { known.removeAll(keepingCapacity: true) }
        let tags = fences.road(fence)
        known[Int32(fence)] = tags.map(Known.road) ?? .notRoad
        return tags
    }

    func isRoad(_ fence: Int) -> Bool { tags(fence) != nil }

    /// Matches a usable fix.
    func match(_ fix: Fix, accuracyCap: Double) {
        guard fences.hasCorridors else { return }
        let widen = min(fix.accuracy ?? 0, accuracyCap) + Self.margin
        fences.corridors(nearLat: fix.latitude, lon: fix.longitude, margin: widen, into: near)
        let course = (fix.speed ?? 0) >= Self.minimumCourseSpeed ? fix.track : nil
        let held = road.map { road in near.indices.contains(Int32(road)) } ?? false
        if course == nil, held { return }
        var best: (fence: Int, tags: RoadTags, cost: Double, bearing: Double)?
        for stored in near.indices {
            let fence = Int(stored)
            guard let tags = tags(fence) else { continue }
            let position = fences.roadPosition(fence, lat: fix.latitude, lon: fix.longitude)
            var cost = position.distance
            if let course {
                let turn = Self.turn(course, position.bearing, tags.direction)
                if turn > Self.maxTurn { continue }
                cost += turn / Self.maxTurn * Self.turnMetres
            }
            if tags.underground, fence != road, road == nil || !joinsRoad(fence, tags),
                portalDistance(fence, fix) > Self.portalMetres
            {
                continue
            }
            if fence == road {
                if !position.beyondEnd { cost -= Self.stayMetres }
            } else if held {
                let joined = joinsRoad(fence, tags)
                if !joined && !tags.sameHeight(as: roadTags) { continue }
                cost += joined ? -Self.joinMetres : Self.detachedMetres
                if let node = tags.atNode, roadTags.sharedNodes?.vertex(ofNode: node) != nil {
                    cost -= Self.stayMetres
                }
            }
            if best.map({ cost < $0.cost }) ?? true { best = (fence, tags, cost, position.bearing) }
        }
        guard let best else {
            road = nil
            travel = nil
            return
        }
        if best.fence != road {
            road = best.fence
            roadTags = best.tags
            noteVertices(of: best.fence)
        }
        travel = Self.travel(course, best.bearing, best.tags.direction)
    }

    /// The way a road whose segment has `bearing` is driven on `course`: a one-way road's own, else
    /// along the line when the course is within 90 degrees of it; nil without a course.
    static func travel(_ course: Double?, _ bearing: Double, _ direction: RoadDirection) -> TravelDirection? {
        switch direction {
        case .forward: return .forward
        case .backward: return .backward
        case .both:
            guard let course else { return nil }
            return turn(course, bearing, .forward) <= 90 ? .forward : .backward
        }
    }

    /// Metres from the fix to the nearest portal of tunnel `fence`: an end of its line where no
    /// other tunnel goes on (a long tunnel is often several ways).
    private func portalDistance(_ fence: Int, _ fix: Fix) -> Double {
        fences.distanceToLineEnd(fence, lat: fix.latitude, lon: fix.longitude, scratch: joinedAtEnd) { joined in
            !joined.indices.contains { tags(Int($0))?.underground == true }
        }
    }

    /// Degrees between the course and the way a road may be driven along a segment of `bearing`.
    static func turn(_ course: Double, _ bearing: Double, _ direction: RoadDirection) -> Double {
        var forward = abs(course - bearing).truncatingRemainder(dividingBy: 360)
        if forward > 180 { forward = 360 - forward }
        switch direction {
        case .forward: return forward
        case .backward: return 180 - forward
        case .both: return min(forward, 180 - forward)
        }
    }

    private func noteVertices(of fence: Int) {
        roadVertices.removeAll(keepingCapacity: true)
        fences.forEachCorridorVertex(fence) { lon, lat in roadVertices.append(SIMD2(lon, lat)) }
        roadVertices.sort { $0.x != $1.x ? $0.x < $1.x : $0.y < $1.y }
    }

    /// Whether `fence` (a road with `tags`) joins the matched road, as `FenceSet.corridorsJoin`
    /// says: at a node both list when both carry `shared_nodes`, else where a vertex of it is one
    /// of the road's.
    private func joinsRoad(_ fence: Int, _ tags: RoadTags) -> Bool {
        if let mine = roadTags.sharedNodes, let theirs = tags.sharedNodes { return mine.meets(theirs) }
        var joined = false
        fences.forEachCorridorVertex(fence) { lon, lat in
            guard !joined else { return }
            var low = 0
            var high = roadVertices.count
            while low < high {
                let middle = (low + high) / 2
                let v = roadVertices[middle]
                if v.x < lon || (v.x == lon && v.y < lat) { low = middle + 1 } else { high = middle }
            }
            joined = low < roadVertices.count && roadVertices[low] == SIMD2(lon, lat)
        }
        return joined
    }
}
