import Fences
import NMEA

/// Which road the receiver is driving, among the road corridors near each usable fix (docs/events.md,
/// "The road being driven"). A road is a candidate when the fix lies within its footprint (the
/// corridor) widened by the fix's accuracy (up to the accuracy cap) and `margin`. The matcher keeps
/// the roads the recent fixes could be on (`RoadHypothesis`), each scored over the last tens of
/// metres (`RoadHistory`): a road goes on from its own history, or from that of a road it joins (at
/// a shared OSM node, or a shared vertex between roads drawn by hand) where the two meet near the
/// fix, so the error that explains the fixes on one road carries over to the road the vehicle
/// turns onto, and not to a road beside it. Of the candidates:
/// - heading: with a usable course (`minimumCourseSpeed` and a track), a road whose nearest segment
///   runs more than `maxTurn` degrees off the course is not the road (either way on a two-way road,
///   the tagged way on a one-way road); a turn within it costs up to `turnMetres`;
/// - a road with no history to go on from (the first fix, or a road that meets none of the roads
///   the fixes could be on near the fix) starts at the cost of the best road, and `startMetres`
///   more unless it joins the road matched before; and:
///   - layer: while the road matched before is a candidate, a road at another height (`bridge`,
///     `tunnel`, `layer`, `level`) that does not join it is not the road: a street over a tunnel
///     does not lead into it;
///   - underground: a road in a tunnel, where no receiver has a fix, starts only within
///     `portalMetres` of a portal, an end of its line where no other tunnel goes on (reached from a
///     road not in the file). A street over the middle of a tunnel is never taken for it, the
///     first fix included;
/// - a node's piece: a piece of road around an OSM node that carries the node's restriction
///   (`at_node`), going on from a road that passes through that node, counts as that road itself
///   (`stayMetres` lower), so the vehicle on the road is on the piece while on it;
/// - while the road matched before is a candidate, a road that does not join it costs
///   `detachedMetres` more: a vehicle gets from one road to another at a junction, not across the
///   gap beside it.
/// The road matched before holds until another scores `switchMetres` lower. Once the fix is beyond
/// the end of its line, or it is no candidate, the vehicle has left it: the lowest takes over once
/// it scores `switchMetres` below every other road the vehicle may have gone on to, or after
/// `firstMetres`. With no road matched yet (the first fix, or after `gapSeconds` without one), a
/// road is matched when it is the only candidate, when it scores `switchMetres` below every other
/// after `firstMetres` driven, or after `decideMetres` (`deciding` until then: no road is driven,
/// and none is approached along the straight path). Without a usable course the road matched
/// before holds while it is a candidate.
///
/// A road chosen among several (with no road matched, or once the road matched before is left) is
/// a guess while the others are still candidates: those roads, and the roads each goes on to (a
/// street is often several ways), are its rivals until the fixes leave them (they drop out of the
/// hypotheses), so that a limit is not told on the strength of the error's lean alone
/// (`forEachRival`, `SpeedLimitRule`); a rival the fix is beyond the end of counts only through
/// the roads it goes on to. The road driven goes on the same way: a ramp chosen beside a street,
/// and the tunnel it leads into under that street, stay a guess while the street's ways are
/// candidates. A switch while the road matched before is held, to a road that is no rival, settles
/// the guess.
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
    static let detachedMetres = 5.0
    static let portalMetres = 20.0
    static let startMetres = 3.0
    static let switchMetres = 2.0
    static let firstMetres = 15.0
    static let decideMetres = 40.0
    /// A road scoring this much above the best is dropped: it will not come back.
    static let dropMetres = 15.0
    /// Seconds without a usable fix after which the history says nothing (a new drive).
    static let gapSeconds = 10.0
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
    /// The roads the recent fixes could be on, and the list for this fix built beside it (both keep
    /// their capacity: nothing is allocated per fix).
    private var hypotheses: [RoadHypothesis] = []
    private var next: [RoadHypothesis] = []
    private var lastTime: Int64?
    private var lastPosition: (lat: Double, lon: Double)?
    /// Metres driven with no road clearly ahead, none matched or the one matched left behind.
    private var undecidedMetres = 0.0
    /// Whether no road is matched while the roads near the fixes are being told apart.
    private(set) var deciding = false

    init(fences: FenceSet) {
        self.fences = fences
        known.reserveCapacity(64)
        hypotheses.reserveCapacity(16)
        next.reserveCapacity(16)
    }

    /// Calls `body` with each road the fixes could still be on instead of the road being driven,
    /// which was chosen among them when no road was matched (the start of a drive) or the road
    /// matched before had been left (at its end, or off it), or one such a road goes on to: none
    /// once every other has fallen away, or the road being driven was taken over from its line by
    /// one that is no rival.
    func forEachRival(_ body: (Int) -> Void) {
        for h in hypotheses where h.rival && !h.beyondEnd && h.fence != road { body(h.fence) }
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
        let now = fix.time?.millisecondsSinceEpoch ?? 0
        var seconds = lastTime.map { Double(now - $0) / 1000 } ?? .infinity
        lastTime = now
        if !(0...Self.gapSeconds).contains(seconds) {
            seconds = 0
            hypotheses.removeAll(keepingCapacity: true)
            forget()
        }
        let course = (fix.speed ?? 0) >= Self.minimumCourseSpeed ? fix.track : nil
        let held = road.map { road in near.indices.contains(Int32(road)) } ?? false
        if course == nil, held { return }
        // Without a speed, the step between the fixes (their error's jitter too) is what was driven.
        let metres =
            fix.speed.map { $0 * seconds }
            ?? lastPosition.map {
                Geodesy.haversine(lat1: $0.lat, lon1: $0.lon, lat2: fix.latitude, lon2: fix.longitude)
            } ?? 0
        lastPosition = (fix.latitude, fix.longitude)
        score(
            fix, course: course, held: held, history: RoadHistory(metres: metres, seconds: seconds),
            reach: metres + widen + Self.margin)
        swap(&hypotheses, &next)
        commit(course: course, metres: metres)
    }

    /// The roads this fix could be on, each going on from the best history it has, into `next`.
    private func score(_ fix: Fix, course: Double?, held: Bool, history: RoadHistory, reach: Double) {
        next.removeAll(keepingCapacity: true)
        var lowest = Double.infinity
        for h in hypotheses { lowest = min(lowest, h.cost) }
        for stored in near.indices {
            let fence = Int(stored)
            guard let tags = tags(fence) else { continue }
            let position = fences.roadPosition(fence, lat: fix.latitude, lon: fix.longitude)
            var extra = 0.0
            if let course {
                let turn = Self.turn(course, position.bearing, tags.direction)
                if turn > Self.maxTurn { continue }
                extra += turn / Self.maxTurn * Self.turnMetres
            }
            let joinsMatched = road.map { $0 == fence || joinsRoad(fence, tags) } ?? false
            let detached = held && !joinsMatched
            if detached { extra += Self.detachedMetres }
            var best: RoadHypothesis?
            var goesOnFromRival = false
            for h in hypotheses {
                var bonus = 0.0
                if h.fence != fence {
                    let piece = tags.atNode.map { h.tags.sharedNodes?.vertex(ofNode: $0) != nil } ?? false
                    guard piece || joinsNear(h, fence, tags, fix, within: reach) else { continue }
                    if piece && !position.beyondEnd { bonus = Self.stayMetres }
                }
                goesOnFromRival = goesOnFromRival || h.rival
                let step = history.fix(offset: position.offset, bearing: position.bearing, error: h.error)
                let cost = history.average(h.cost, step.cost + extra) - bonus
                if best.map({ cost < $0.cost }) ?? true {
                    best = RoadHypothesis(
                        fence: fence, tags: tags, error: step.error, cost: cost, bearing: position.bearing,
                        beyondEnd: position.beyondEnd)
                }
            }
            best?.rival = goesOnFromRival && fence != road
            if best == nil {
                if tags.underground, portalDistance(fence, fix) > Self.portalMetres { continue }
                if detached, !tags.sameHeight(as: roadTags) { continue }
                let step = history.fix(offset: position.offset, bearing: position.bearing, error: nil)
                let cost =
                    lowest.isFinite
                    ? history.average(lowest, step.cost + extra) + (joinsMatched ? 0 : Self.startMetres)
                    : step.cost + extra
                best = RoadHypothesis(
                    fence: fence, tags: tags, error: step.error, cost: cost, bearing: position.bearing,
                    beyondEnd: position.beyondEnd)
            }
            if let best { next.append(best) }
        }
        var lowestNext = Double.infinity
        for h in next { lowestNext = min(lowestNext, h.cost) }
        next.removeAll { $0.cost > lowestNext + Self.dropMetres }
    }

    /// The road being driven after this fix's hypotheses.
    private func commit(course: Double?, metres: Double) {
        guard let leader = lowest() else {
            forget()
            return
        }
        let mine = road.flatMap { road in hypotheses.firstIndex { $0.fence == road } }
        if let mine, !hypotheses[mine].beyondEnd {
            let ahead = hypotheses[leader].cost < hypotheses[mine].cost - Self.switchMetres
            if ahead {
                // Onto a rival, the road left is one in its turn; onto another road, the fixes
                // have told the roads apart.
                if hypotheses[leader].rival {
                    hypotheses[mine].rival = true
                } else {
                    for k in hypotheses.indices { hypotheses[k].rival = false }
                }
            }
            choose(ahead ? leader : mine, course: course)
        } else if road != nil {
            // Beyond the end of its line, or off it, the vehicle has left the road for one it leads
            // onto: the road is kept until the history tells which (a ramp leaves where the street
            // goes on), for `firstMetres` at most.
            undecidedMetres += metres
            if leader == mine || leads(leader, excluding: mine) || undecidedMetres >= Self.firstMetres {
                choose(leader, course: course, amongOthers: leader != mine)
            } else if let mine {
                travel = Self.travel(course, hypotheses[mine].bearing, hypotheses[mine].tags.direction)
            }
        } else {
            undecidedMetres += metres
            if hypotheses.count == 1 || undecidedMetres >= Self.decideMetres
                || (undecidedMetres >= Self.firstMetres && leads(leader, excluding: nil))
            {
                choose(leader, course: course, amongOthers: true)
            } else {
                deciding = true
            }
        }
    }

    /// The hypothesis of the lowest cost.
    private func lowest() -> Int? {
        var best: Int?
        for k in hypotheses.indices where best.map({ hypotheses[k].cost < hypotheses[$0].cost }) ?? true {
            best = k
        }
        return best
    }

    /// Whether hypothesis `k` scores `switchMetres` below every other but `excluded` and those the
    /// fix is beyond the end of (left behind, or not reached).
    private func leads(_ k: Int, excluding excluded: Int?) -> Bool {
        for other in hypotheses.indices where other != k && other != excluded && !hypotheses[other].beyondEnd {
            if hypotheses[other].cost - hypotheses[k].cost < Self.switchMetres { return false }
        }
        return true
    }

    /// Makes hypothesis `k` the road being driven; `amongOthers`: it was chosen among the roads
    /// the vehicle may be on, which become its rivals (those of a guess before stay rivals).
    private func choose(_ k: Int, course: Double?, amongOthers: Bool = false) {
        if amongOthers {
            for other in hypotheses.indices where other != k && !hypotheses[other].beyondEnd {
                hypotheses[other].rival = true
            }
        }
        hypotheses[k].rival = false
        let chosen = hypotheses[k]
        deciding = false
        undecidedMetres = 0
        if chosen.fence != road {
            road = chosen.fence
            roadTags = chosen.tags
            noteVertices(of: chosen.fence)
        }
        travel = Self.travel(course, chosen.bearing, chosen.tags.direction)
    }

    private func forget() {
        road = nil
        travel = nil
        deciding = false
        undecidedMetres = 0
    }

    /// Whether road `fence` (with `tags`) joins the road of hypothesis `h` within `reach` metres of
    /// the fix: a vehicle passes from one road to another where they meet, not anywhere along them.
    private func joinsNear(
        _ h: RoadHypothesis, _ fence: Int, _ tags: RoadTags, _ fix: Fix, within reach: Double
    ) -> Bool {
        fences.distanceToJoin(
            h.fence, nodes: h.tags.sharedNodes, fence, nodes: tags.sharedNodes, lat: fix.latitude, lon: fix.longitude)
            <= reach
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
