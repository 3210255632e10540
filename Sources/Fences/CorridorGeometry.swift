import Platform

/// The engine's geometry for corridors (see `EngineGeometry.swift` for the other kinds). Distance
/// to the line is on the sphere, as containment is; the crossing and look-ahead tests work in the
/// local plane around the fix, as they do for polygons, on the segments near enough to matter.
extension FenceSet {
    /// Metres from the point to corridor `s`'s edge: negative inside, positive outside.
    func corridorSignedDistance(_ s: Int, lat: Double, lon: Double) -> Double {
        corridors.distanceToLine(s, CorridorSegment.unit(lon: lon, lat: lat)) - corridors.radius[s]
    }

    /// Segments of corridor `s` whose arc is within `reach` metres of the point, projected into
    /// the local plane around it, with the corridor's radius.
    func nearbyCorridorSegments(_ s: Int, around plane: LocalPlane, reach: Double)
        -> [(a: (x: Double, y: Double), b: (x: Double, y: Double))]
    {
        let centre = CorridorSegment.unit(lon: plane.lon0, lat: plane.lat0)
        var near: [(a: (x: Double, y: Double), b: (x: Double, y: Double))] = []
        for l in corridors.firstLine[s]..<corridors.firstLine[s + 1] {
            for v in corridors.vertices(ofLine: l).dropLast()
            where corridors.segment(v, radius: corridors.radius[s]).angle(to: centre) * Geodesy.earthRadius <= reach {
                near.append(
                    (
                        plane.project(lat: corridors.lat[v], lon: corridors.lon[v]),
                        plane.project(lat: corridors.lat[v + 1], lon: corridors.lon[v + 1])
                    ))
            }
        }
        return near
    }

    /// Whether the straight path between two fixes comes within the radius of corridor `s`.
    func corridorSegmentIntersects(_ s: Int, from a: GeoPoint, to b: GeoPoint) -> Bool {
        let plane = LocalPlane(lat0: a.lat, lon0: a.lon)
        let end = plane.project(lat: b.lat, lon: b.lon)
        let r = corridors.radius[s]
        let length = (end.x * end.x + end.y * end.y).squareRoot()
        for (p, q) in nearbyCorridorSegments(s, around: plane, reach: r + length) {
            if planarSegmentsDistance((0, 0), end, p, q) <= r { return true }
        }
        return false
    }

    /// Metres along the ray (unit direction `dx`, `dy` in the local plane around the fix) to the
    /// first point within the radius of corridor `s`, if within `maxDistance`: where the ray
    /// enters the disc around a vertex or the band along a segment, whichever comes first.
    func corridorDistanceAlongRay(_ s: Int, plane: LocalPlane, dx: Double, dy: Double, maxDistance: Double)
        -> Double?
    {
        let r = corridors.radius[s]
        var best = Double.infinity
        func consider(_ t: Double) { if t >= 0 && t <= maxDistance { best = min(best, t) } }
        for (p, q) in nearbyCorridorSegments(s, around: plane, reach: r + maxDistance) {
            for c in [p, q] {
                let along = c.x * dx + c.y * dy
                let across2 = c.x * c.x + c.y * c.y - along * along
                if across2 <= r * r { consider(along - (r * r - across2).squareRoot()) }
            }
            let ux = q.x - p.x
            let uy = q.y - p.y
            let length = (ux * ux + uy * uy).squareRoot()
            guard length > 0 else { continue }
            let wx = -uy / length
            let wy = ux / length
            let approach = dx * wx + dy * wy
            guard approach != 0 else { continue }
            let start = -(p.x * wx + p.y * wy)
            for side in [r, -r] {
                let t = (side - start) / approach
                let along = ((t * dx - p.x) * ux + (t * dy - p.y) * uy) / length
                if along >= 0 && along <= length { consider(t) }
            }
        }
        return best <= maxDistance ? best : nil
    }

    /// The outline of corridor `s` for drawing: per line, the left side walked forward with round
    /// joins, a round cap, the other side walked back, and a round cap at the start.
    func corridorOutline(_ s: Int) -> [[(lat: Double, lon: Double)]] {
        let r = corridors.radius[s]
        return corridors.lines(s).map { line in
            var ring: [(lat: Double, lon: Double)] = []
            for direction in [line, line.reversed()] {
                let n = direction.count
                for i in 0..<n {
                    let p = direction[i]
                    let incoming =
                        i > 0
                        ? Geodesy.bearing(
                            lat1: p.lat, lon1: p.lon, lat2: direction[i - 1].lat, lon2: direction[i - 1].lon) + 180
                        : nil
                    let outgoing =
                        i < n - 1
                        ? Geodesy.bearing(
                            lat1: p.lat, lon1: p.lon, lat2: direction[i + 1].lat, lon2: direction[i + 1].lon) : nil
                    let from = (incoming ?? outgoing!) - 90
                    var sweep = 0.0
                    if let incoming, let outgoing {
                        sweep = outgoing - incoming
                        sweep -= 360 * (sweep / 360).rounded()
                    } else if outgoing == nil {
                        sweep = 180  // the cap at the end of this direction
                    }
                    let steps = max(1, Int((abs(sweep) / 10).rounded(.up)))
                    for k in 0...steps {
                        let bearing = from + sweep * Double(k) / Double(steps)
                        let point = Geodesy.destination(lat: p.lat, lon: p.lon, bearing: bearing, distance: r)
                        ring.append((point.lat, point.lon))
                    }
                }
            }
            if let first = ring.first { ring.append(first) }
            return ring
        }
    }
}

/// Shortest distance between two segments in the plane (0 when they cross).
func planarSegmentsDistance(
    _ p1: (x: Double, y: Double), _ p2: (x: Double, y: Double), _ q1: (x: Double, y: Double),
    _ q2: (x: Double, y: Double)
) -> Double {
    if segmentsIntersect(p1.x, p1.y, p2.x, p2.y, q1.x, q1.y, q2.x, q2.y) { return 0 }
    let toQ = min(
        segmentDistance(px: p1.x, py: p1.y, ax: q1.x, ay: q1.y, bx: q2.x, by: q2.y),
        segmentDistance(px: p2.x, py: p2.y, ax: q1.x, ay: q1.y, bx: q2.x, by: q2.y))
    let toP = min(
        segmentDistance(px: q1.x, py: q1.y, ax: p1.x, ay: p1.y, bx: p2.x, by: p2.y),
        segmentDistance(px: q2.x, py: q2.y, ax: p1.x, ay: p1.y, bx: p2.x, by: p2.y))
    return min(toQ, toP)
}
