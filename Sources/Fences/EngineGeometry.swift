import Platform

/// Geometry the event engine needs besides containment: signed distance (exit hysteresis),
/// segment crossing (`cross`) and distance along a ray (`approach`). Distances are metres.
/// Circles and corridors use the sphere for distances; polygon distances and the ray and segment tests work in a
/// local east/north plane (`LocalPlane`) around the fix, good to centimetres over the few
/// kilometres between fixes or of a look-ahead, and never used for containment itself.
extension FenceSet {
    /// Metres from the point to fence `index`'s boundary: negative inside, positive outside.
    /// With a finite `limit`, polygons only look at edges within `limit` metres of latitude, and a
    /// boundary farther than that is reported as ±`limit`.
    public func signedDistance(fence index: Int, lat: Double, lon: Double, limit: Double = .infinity) -> Double {
        let s = Int(shapeIndex[index])
        switch kinds[index] {
        case .circle:
            return Geodesy.haversine(lat1: lat, lon1: lon, lat2: circleLat[s], lon2: circleLon[s]) - circleRadius[s]
        case .corridor:
            return min(max(corridorSignedDistance(s, lat: lat, lon: lon), -limit), limit)
        case .polygon:
            break
        }
        let inside = polygons.contains(s, x: lon, y: lat)
        let plane = LocalPlane(lat0: lat, lon0: lon)
        var best = limit
        forEachEdge(
            polygon: s, latFrom: lat - limit / Geodesy.metresPerDegree, latTo: lat + limit / Geodesy.metresPerDegree
        ) {
            ax, ay, bx, by in
            let a = plane.project(lat: ay, lon: ax)
            let b = plane.project(lat: by, lon: bx)
            best = min(best, segmentDistance(px: 0, py: 0, ax: a.x, ay: a.y, bx: b.x, by: b.y))
        }
        return inside ? -best : best
    }

    /// Calls `body(x1, y1, x2, y2)` for the edges of polygon `p` in the bands covering the
    /// latitude range (an edge spanning several bands may come more than once).
    func forEachEdge(polygon p: Int, latFrom: Double, latTo: Double, _ body: (Double, Double, Double, Double) -> Void) {
        let h = polygons.headers[p]
        let bands = Int(h.bandCount)
        var lo = 0
        var hi = bands - 1
        if latFrom.isFinite && latTo.isFinite {
            if latTo < polygons.minY[p] || latFrom > polygons.maxY[p] { return }
            lo = bandIndex(latFrom, h.y0, h.inv, bands)
            hi = bandIndex(latTo, h.y0, h.inv, bands)
        }
        polygons.forEachEdge(polygon: p, bands: lo, through: hi, body)
    }

    /// Whether the segment between two fixes passes through fence `index` (touching counts).
    public func segmentIntersects(fence index: Int, from a: GeoPoint, to b: GeoPoint) -> Bool {
        let s = Int(shapeIndex[index])
        if kinds[index] == .circle {
            // Both ends farther north, or both farther south, than the radius: no point between them
            // is within it, since a difference in latitude alone is a lower bound on the distance
            // (on the sphere, and in the local plane below). The exact tests need sixteen sines and
            // cosines; most candidates of a short segment between two fixes end here.
            let reach = circleRadius[s] * (1 + 1e-9) / Geodesy.metresPerDegree
            if min(a.lat, b.lat) - circleLat[s] > reach || circleLat[s] - max(a.lat, b.lat) > reach { return false }
        }
        if contains(fence: index, lat: a.lat, lon: a.lon) || contains(fence: index, lat: b.lat, lon: b.lon) {
            return true
        }
        switch kinds[index] {
        case .circle:
            let plane = LocalPlane(lat0: circleLat[s], lon0: circleLon[s])
            let pa = plane.project(lat: a.lat, lon: a.lon)
            let pb = plane.project(lat: b.lat, lon: b.lon)
            return segmentDistance(px: 0, py: 0, ax: pa.x, ay: pa.y, bx: pb.x, by: pb.y) <= circleRadius[s]
        case .corridor:
            return corridorSegmentIntersects(s, from: a, to: b)
        case .polygon:
            break
        }
        for (p, q) in unwrappedPieces(a, b) {
            var hit = false
            forEachEdge(polygon: s, latFrom: min(p.lat, q.lat), latTo: max(p.lat, q.lat)) { ax, ay, bx, by in
                if !hit && segmentsIntersect(p.lon, p.lat, q.lon, q.lat, ax, ay, bx, by) { hit = true }
            }
            if hit { return true }
        }
        return false
    }

    /// Fences the segment from `a` to `b` passes through (file order), into `hits`; only those
    /// `considered` keeps are tested, so that a caller can leave out, before the geometry, fences
    /// it already knows cannot count (the engine: those the fix is inside).
    public func fences(
        crossedFrom a: GeoPoint, to b: GeoPoint, into hits: FenceHits,
        considering considered: (Int) -> Bool = { _ in true }
    ) {
        hits.removeAll()
        for (p, q) in unwrappedPieces(a, b) {
            candidates(
                in: BoundingBox(
                    minX: min(p.lon, q.lon), minY: min(p.lat, q.lat),
                    maxX: max(p.lon, q.lon), maxY: max(p.lat, q.lat)), into: hits)
        }
        hits.sortUnique()
        filter(hits) { considered($0) && segmentIntersects(fence: $0, from: a, to: b) }
    }

    /// Metres along the path from `lat, lon` heading `bearing` degrees (0 = north, clockwise) to the
    /// first point inside fence `index`, if that is within `maxDistance`; 0 when already inside.
    public func distanceAlongRay(toFence index: Int, lat: Double, lon: Double, bearing: Double, maxDistance: Double)
        -> Double?
    {
        if contains(fence: index, lat: lat, lon: lon) { return 0 }
        let plane = LocalPlane(lat0: lat, lon0: lon)
        let dx = sin(bearing * Geodesy.degree)
        let dy = cos(bearing * Geodesy.degree)
        let s = Int(shapeIndex[index])
        switch kinds[index] {
        case .circle:
            let c = plane.project(lat: circleLat[s], lon: circleLon[s])
            let along = c.x * dx + c.y * dy
            let across = c.x * dy - c.y * dx
            let r = circleRadius[s]
            if abs(across) > r { return nil }
            let t = along - (r * r - across * across).squareRoot()
            return t >= 0 && t <= maxDistance ? t : nil
        case .corridor:
            return corridorDistanceAlongRay(s, plane: plane, dx: dx, dy: dy, maxDistance: maxDistance)
        case .polygon:
            break
        }
        let end = Geodesy.destination(lat: lat, lon: lon, bearing: bearing, distance: maxDistance)
        var best = Double.infinity
        let ex = dx * maxDistance
        let ey = dy * maxDistance
        forEachEdge(polygon: s, latFrom: min(lat, end.lat), latTo: max(lat, end.lat)) { ax, ay, bx, by in
            let p = plane.project(lat: ay, lon: ax)
            let q = plane.project(lat: by, lon: bx)
            if let t = segmentParameter(0, 0, ex, ey, p.x, p.y, q.x, q.y) { best = min(best, t * maxDistance) }
        }
        return best <= maxDistance ? best : nil
    }

    /// The `count` fences with the smallest signed distance to the point (brute force; for the CLI).
    public func nearestFences(lat: Double, lon: Double, count k: Int) -> [(fence: Int, distance: Double)] {
        guard k > 0 else { return [] }
        var best: [(fence: Int, distance: Double)] = []
        for i in 0..<count {
            if best.count == k, let c = circle(i) {
                // cheap lower bound before the exact distance
                let d = Geodesy.haversine(lat1: lat, lon1: lon, lat2: c.lat, lon2: c.lon) - c.radius
                if d >= best[k - 1].distance { continue }
            }
            let d = signedDistance(fence: i, lat: lat, lon: lon)
            if best.count < k || d < best[k - 1].distance {
                best.append((i, d))
                best.sort { $0.distance < $1.distance || ($0.distance == $1.distance && $0.fence < $1.fence) }
                if best.count > k { best.removeLast() }
            }
        }
        return best
    }

    /// Appends every fence whose indexed box may meet `box` (unsorted, with repeats).
    package func candidates(in box: BoundingBox, into hits: FenceHits) {
        let claim = hits.writer.enter()
        defer { hits.writer.leave(claim) }
        // The frozen views, not `levels.map(\.view)`: that built an array on every fix's segment test.
        let views = levelViews.base
        for l in 0..<levelViews.count {
            let level = views[l]
            guard let (x0, x1, y0, y1) = level.frame.cellRange(box) else { continue }
            for row in y0...y1 {
                for col in x0...x1 {
                    let cell = row * level.frame.nx + col
                    for k in Int(level.starts[2 * cell])..<Int(level.starts[2 * cell + 2]) where level.cfence[k] >= 0 {
                        hits.append(level.cfence[k])
                    }
                    for k in Int(level.starts[2 * cell + 1])..<Int(level.starts[2 * cell + 3]) {
                        let p = Int(level.poly[k])
                        hits.append(polygons.fence[p])
                    }
                }
            }
        }
        let corridorViews = self.corridorViews.base
        for l in 0..<self.corridorViews.count {
            let level = corridorViews[l]
            guard let (x0, x1, y0, y1) = level.frame.cellRange(box) else { continue }
            for row in y0...y1 {
                for col in x0...x1 {
                    let cell = row * level.frame.nx + col
                    for k in Int(level.starts[cell])..<Int(level.starts[cell + 1]) {
                        hits.append(corridors.fence[corridors.corridor(ofVertex: Int(level.entries[k]))])
                    }
                }
            }
        }
    }

    func filter(_ hits: FenceHits, _ keep: (Int) -> Bool) {
        var w = 0
        for k in 0..<hits.count where keep(Int(hits.storage[k])) {
            hits.storage[w] = hits.storage[k]
            w += 1
        }
        hits.count = w
    }
}

/// A segment between two fixes as one or two pieces in plain (lon, lat): split at the antimeridian
/// when the short way between the fixes crosses it. A value, not an array: the engine calls this
/// for every fix and must not allocate.
func unwrappedPieces(_ a: GeoPoint, _ b: GeoPoint) -> SegmentPieces {
    let d = b.lon - a.lon
    guard abs(d) > 180 else { return SegmentPieces(first: (a, b), second: nil) }
    // the short way crosses ±180: cut there
    let bl = d > 0 ? b.lon - 360 : b.lon + 360
    let edge = d > 0 ? -180.0 : 180.0
    let t = (edge - a.lon) / (bl - a.lon)
    let lat = a.lat + t * (b.lat - a.lat)
    return SegmentPieces(first: (a, GeoPoint(lat: lat, lon: edge)), second: (GeoPoint(lat: lat, lon: -edge), b))
}

/// One or two (start, end) pieces of a segment.
struct SegmentPieces: Sequence, IteratorProtocol {
    var first: (GeoPoint, GeoPoint)?
    var second: (GeoPoint, GeoPoint)?

    mutating func next() -> (GeoPoint, GeoPoint)? {
        if let piece = first {
            first = nil
            return piece
        }
        defer { second = nil }
        return second
    }
}

/// Distance from a point to a segment in the plane.
@inline(__always)
func segmentDistance(px: Double, py: Double, ax: Double, ay: Double, bx: Double, by: Double) -> Double {
    let vx = bx - ax
    let vy = by - ay
    let len2 = vx * vx + vy * vy
    var t = len2 > 0 ? ((px - ax) * vx + (py - ay) * vy) / len2 : 0
    t = min(max(t, 0), 1)
    let dx = ax + t * vx - px
    let dy = ay + t * vy - py
    return (dx * dx + dy * dy).squareRoot()
}

@inline(__always)
func orientation(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double) -> Double {
    (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
}

/// Whether segments p1p2 and q1q2 meet (touching included).
func segmentsIntersect(
    _ p1x: Double, _ p1y: Double, _ p2x: Double, _ p2y: Double,
    _ q1x: Double, _ q1y: Double, _ q2x: Double, _ q2y: Double
) -> Bool {
    let d1 = orientation(q1x, q1y, q2x, q2y, p1x, p1y)
    let d2 = orientation(q1x, q1y, q2x, q2y, p2x, p2y)
    let d3 = orientation(p1x, p1y, p2x, p2y, q1x, q1y)
    let d4 = orientation(p1x, p1y, p2x, p2y, q2x, q2y)
    if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) { return true }
    func on(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double, _ d: Double) -> Bool {
        d == 0 && cx >= min(ax, bx) && cx <= max(ax, bx) && cy >= min(ay, by) && cy <= max(ay, by)
    }
    return on(q1x, q1y, q2x, q2y, p1x, p1y, d1) || on(q1x, q1y, q2x, q2y, p2x, p2y, d2)
        || on(p1x, p1y, p2x, p2y, q1x, q1y, d3) || on(p1x, p1y, p2x, p2y, q2x, q2y, d4)
}

/// Parameter t in [0, 1] along p1→p2 where it first meets segment q1q2, if it does.
func segmentParameter(
    _ p1x: Double, _ p1y: Double, _ p2x: Double, _ p2y: Double,
    _ q1x: Double, _ q1y: Double, _ q2x: Double, _ q2y: Double
) -> Double? {
    let rx = p2x - p1x
    let ry = p2y - p1y
    let sx = q2x - q1x
    let sy = q2y - q1y
    let denom = rx * sy - ry * sx
    let qpx = q1x - p1x
    let qpy = q1y - p1y
    if denom == 0 {
        // parallel: collinear overlap gives the nearer end
        if qpx * ry - qpy * rx != 0 { return nil }
        let rr = rx * rx + ry * ry
        guard rr > 0 else { return nil }
        let t0 = (qpx * rx + qpy * ry) / rr
        let t1 = ((q2x - p1x) * rx + (q2y - p1y) * ry) / rr
        let lo = min(t0, t1)
        let hi = max(t0, t1)
        if hi < 0 || lo > 1 { return nil }
        return max(lo, 0)
    }
    let t = (qpx * sy - qpy * sx) / denom
    let u = (qpx * ry - qpy * rx) / denom
    return t >= 0 && t <= 1 && u >= 0 && u <= 1 ? t : nil
}
