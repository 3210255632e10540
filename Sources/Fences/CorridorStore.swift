#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One segment of a corridor, ready for the containment test of docs/fences.md: the unit vectors
/// of its ends, the unit normal of its great circle, the two tangents that bound its lune, and a
/// cap around its midpoint that holds the whole widened segment (the pre-filter).
struct CorridorSegment {
    var a: SIMD3<Double>
    var b: SIMD3<Double>
    /// Unit normal of the great circle through a and b; zero when a == b.
    var normal: SIMD3<Double>
    /// p·(n×a) >= 0 and p·(b×n) >= 0: the point's nearest point on the great circle lies on the arc.
    var afterA: SIMD3<Double>
    var beforeB: SIMD3<Double>
    var middle: SIMD3<Double>
    /// Cosine of (half the arc + the radius), slightly lowered: p·middle below it is outside.
    var capCosine: Double
    /// sin(radius / R), or 2 (always) when the radius is a quarter of a great circle or more; -1
    /// for a zero-length segment, whose ends alone decide.
    var crossLimit: Double
    /// Squared chord of the radius, as for circles.
    var chordSquared: Double

    /// Whether the point with unit vector `p` is within the radius of the arc.
    @inline(__always)
    func contains(_ p: SIMD3<Double>) -> Bool {
        if (p * middle).sum() < capCosine { return false }
        let da = p - a
        if (da * da).sum() <= chordSquared { return true }
        let db = p - b
        if (db * db).sum() <= chordSquared { return true }
        let cross = (p * normal).sum()
        return abs(cross) <= crossLimit && (p * afterA).sum() >= 0 && (p * beforeB).sum() >= 0
    }

    /// Angular distance (radians) from `p` to the arc: across the arc when its nearest point lies
    /// on it, else to the nearer end. Each angle is taken as atan2 of sine and cosine, accurate
    /// at every size.
    func angle(to p: SIMD3<Double>) -> Double {
        if crossLimit >= -0.5 && (p * afterA).sum() >= 0 && (p * beforeB).sum() >= 0 {
            let sine = abs((p * normal).sum())
            return asin(min(sine, 1))
        }
        return min(Self.angle(p, a), Self.angle(p, b))
    }

    static func angle(_ u: SIMD3<Double>, _ v: SIMD3<Double>) -> Double {
        let c = SIMD3(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x)
        return atan2((c * c).sum().squareRoot(), (u * v).sum())
    }

    init(a: SIMD3<Double>, b: SIMD3<Double>, radius: Double) {
        self.a = a
        self.b = b
        // a × (b − a) = a × b, without the cancellation of two nearly equal vectors' products
        let d = b - a
        let n = SIMD3(a.y * d.z - a.z * d.y, a.z * d.x - a.x * d.z, a.x * d.y - a.y * d.x)
        let length = (n * n).sum().squareRoot()
        let delta = min(radius / Geodesy.earthRadius, Double.pi)
        chordSquared = Geodesy.chordSquared(radius: radius)
        let sum = a + b
        let sumLength = (sum * sum).sum().squareRoot()
        middle = sumLength > 0 ? sum / sumLength : a
        let halfArc = Self.angle(a, b) / 2
        let capAngle = halfArc + delta
        capCosine = capAngle >= Double.pi ? -2 : cos(min(capAngle * (1 + 1e-9) + 1e-9, Double.pi)) - 1e-12
        if length > 0 {
            normal = n / length
            afterA = Self.cross(normal, a)
            beforeB = Self.cross(b, normal)
            crossLimit = delta >= Double.pi / 2 ? 2 : sin(delta)
        } else {
            normal = .zero
            afterA = .zero
            beforeB = .zero
            crossLimit = -1
        }
    }

    static func cross(_ u: SIMD3<Double>, _ v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x)
    }

    static func unit(lon: Double, lat: Double) -> SIMD3<Double> {
        let u = Geodesy.unitVector(lat: lat, lon: lon)
        return SIMD3(u.x, u.y, u.z)
    }
}

/// Every corridor fence: its vertices as written (lines of each corridor in order), its radius,
/// and its segments prepared for the query. A segment is what the grid indexes.
struct CorridorStore {
    var lon: [Double] = [], lat: [Double] = []
    /// End vertex (exclusive) of each line, all corridors in order.
    var lineEnds: [Int] = []
    /// Lines of corridor c: `firstLine[c] ..< firstLine[c + 1]`.
    var firstLine: [Int] = [0]
    /// Segments of corridor c: `firstSegment[c] ..< firstSegment[c + 1]`.
    var firstSegment: [Int] = [0]
    var radius: [Double] = []
    var fence: [Int32] = []
    var segments: [CorridorSegment] = []
    /// The corridor of each segment, and the vertex it starts at.
    var segmentCorridor: [Int32] = []
    var segmentStart: [Int32] = []
    var count: Int { fence.count }

    /// Adds a corridor whose vertices are validated already.
    mutating func add(fence f: Int32, lines: [[(lon: Double, lat: Double)]], radius r: Double) {
        let corridor = Int32(fence.count)
        for line in lines {
            for p in line {
                lon.append(p.lon)
                lat.append(p.lat)
            }
            let firstVertex = lon.count - line.count
            lineEnds.append(lon.count)
            var previous = CorridorSegment.unit(lon: line[0].lon, lat: line[0].lat)
            for (k, p) in line.enumerated().dropFirst() {
                let next = CorridorSegment.unit(lon: p.lon, lat: p.lat)
                segments.append(CorridorSegment(a: previous, b: next, radius: r))
                segmentCorridor.append(corridor)
                segmentStart.append(Int32(firstVertex + k - 1))
                previous = next
            }
        }
        firstLine.append(lineEnds.count)
        firstSegment.append(segments.count)
        radius.append(r)
        fence.append(f)
    }

    /// The lines of corridor `c` as (lon, lat) vertices.
    func lines(_ c: Int) -> [[(lon: Double, lat: Double)]] {
        var result: [[(lon: Double, lat: Double)]] = []
        for l in firstLine[c]..<firstLine[c + 1] {
            let start = l == 0 ? 0 : lineEnds[l - 1]
            result.append((start..<lineEnds[l]).map { (lon[$0], lat[$0]) })
        }
        return result
    }

    /// Whether corridor `c` contains the point with unit vector `p` (every segment; the grid
    /// query tests only the segments of the point's cell).
    func contains(_ c: Int, _ p: SIMD3<Double>) -> Bool {
        for s in firstSegment[c]..<firstSegment[c + 1] where segments[s].contains(p) { return true }
        return false
    }

    /// Metres from the point with unit vector `p` to the line of corridor `c`.
    func distanceToLine(_ c: Int, _ p: SIMD3<Double>) -> Double {
        var best = Double.infinity
        for s in firstSegment[c]..<firstSegment[c + 1] { best = min(best, segments[s].angle(to: p)) }
        return best * Geodesy.earthRadius
    }

    /// Degree boxes of each segment widened by its corridor's radius, for the index: one or two
    /// per segment (two when it crosses the antimeridian).
    func segmentBoxes(_ s: Int) -> (BoundingBox, BoundingBox?) {
        let k = Int(segmentStart[s])
        return corridorSegmentBoxes(
            from: (lon[k], lat[k]), to: (lon[k + 1], lat[k + 1]), segment: segments[s],
            radius: radius[Int(segmentCorridor[s])])
    }
}

/// Boxes of one great-circle arc widened by `radius` metres. The arc's latitudes run between its
/// ends, or out to the highest (lowest) point of its great circle when that lies on the arc; its
/// longitudes run the short way between the ends, or all the way round when it passes a pole.
/// Widened by the radius in latitude and by asin(sin δ / cos φ) in longitude at the largest |φ|
/// (the half-width of a cap there), split at the antimeridian; slightly more, as for circles.
func corridorSegmentBoxes(
    from p: (lon: Double, lat: Double), to q: (lon: Double, lat: Double), segment: CorridorSegment, radius: Double
) -> (BoundingBox, BoundingBox?) {
    var south = min(p.lat, q.lat)
    var north = max(p.lat, q.lat)
    // the highest point of the great circle: the pole's direction projected onto its plane (none
    // to add for the equator, whose points are all equally high)
    let n = segment.normal
    let top = SIMD3<Double>(0, 0, 1) - n.z * n
    let topLength = (top * top).sum().squareRoot()
    if segment.crossLimit >= -0.5 && topLength > 1e-15 {
        let highest = top / topLength
        for point in [highest, -highest]
        where (point * segment.afterA).sum() >= 0 && (point * segment.beforeB).sum() >= 0 {
            let pointLat = asin(min(max(point.z, -1), 1)) / Geodesy.degree
            south = min(south, pointLat)
            north = max(north, pointLat)
        }
    }
    let delta = min(radius / Geodesy.earthRadius, Double.pi)
    let dlat = delta / Geodesy.degree * (1 + 1e-9) + 1e-9
    let widenedSouth = south - dlat
    let widenedNorth = north + dlat
    if widenedSouth <= -90 || widenedNorth >= 90 {
        return (
            BoundingBox(minX: -180, minY: max(widenedSouth, -90), maxX: 180, maxY: min(widenedNorth, 90)), nil
        )
    }
    let steepest = max(abs(south), abs(north))
    let ratio = sin(delta) / cos(steepest * Geodesy.degree)
    if ratio >= 1 {
        return (BoundingBox(minX: -180, minY: widenedSouth, maxX: 180, maxY: widenedNorth), nil)
    }
    let dlon = asin(ratio) / Geodesy.degree * (1 + 1e-9) + 1e-9
    var step = q.lon - p.lon
    if step > 180 { step -= 360 } else if step < -180 { step += 360 }
    let west = min(p.lon, p.lon + step) - dlon
    let east = max(p.lon, p.lon + step) + dlon
    if east - west >= 360 {
        return (BoundingBox(minX: -180, minY: widenedSouth, maxX: 180, maxY: widenedNorth), nil)
    }
    if west < -180 {
        return (
            BoundingBox(minX: -180, minY: widenedSouth, maxX: min(east, 180), maxY: widenedNorth),
            BoundingBox(minX: west + 360, minY: widenedSouth, maxX: 180, maxY: widenedNorth)
        )
    }
    if east > 180 {
        return (
            BoundingBox(minX: max(west, -180), minY: widenedSouth, maxX: 180, maxY: widenedNorth),
            BoundingBox(minX: -180, minY: widenedSouth, maxX: east - 360, maxY: widenedNorth)
        )
    }
    return (BoundingBox(minX: west, minY: widenedSouth, maxX: east, maxY: widenedNorth), nil)
}
