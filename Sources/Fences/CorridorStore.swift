import Platform

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

    /// The segment with no cap (`capCosine` lets every point through to the exact test), for a
    /// query that has checked the cover box already; `chordSquared` and `crossLimit` are its
    /// radius's, as the other initializer computes them.
    init(a: SIMD3<Double>, b: SIMD3<Double>, chordSquared: Double, crossLimit: Double) {
        self.a = a
        self.b = b
        let d = b - a
        let n = SIMD3(a.y * d.z - a.z * d.y, a.z * d.x - a.x * d.z, a.x * d.y - a.y * d.x)
        let length = (n * n).sum().squareRoot()
        self.chordSquared = chordSquared
        middle = a
        capCosine = -2
        if length > 0 {
            normal = n / length
            afterA = Self.cross(normal, a)
            beforeB = Self.cross(b, normal)
            self.crossLimit = crossLimit
        } else {
            normal = .zero
            afterA = .zero
            beforeB = .zero
            self.crossLimit = -1
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

/// Every corridor fence: its vertices as written (lines of each corridor in order, 8 bytes a
/// vertex for the usual 7 decimals, else 16: `CoordinateColumn`, kept once), its radius and its fence. A segment is named by the vertex it starts at; its
/// prepared form (`CorridorSegment`, 250 bytes) is computed when a query reaches it, never stored:
/// a country's roads have 15 million segments.
struct CorridorStore {
    var lon = CoordinateColumn(), lat = CoordinateColumn()
    /// End vertex (exclusive) of each line, all corridors in order.
    var lineEnds = CompactIndices()
    /// Lines of corridor c: `firstLine[c] ..< firstLine[c + 1]`.
    var firstLine = CompactIndices([0])
    /// Vertices of corridor c: `firstVertex[c] ..< firstVertex[c + 1]`.
    var firstVertex = CompactIndices([0])
    /// The corridor holding vertex 16·k, for finding a segment's corridor in a few steps (a
    /// quarter of a byte a vertex).
    var blockCorridor: [Int32] = []
    var radius: [Double] = []
    /// The largest radius, for rejecting a segment before finding its corridor.
    var largestRadius = 0.0
    var fence: [Int32] = []
    var count: Int { fence.count }

    /// Room for `n` vertices, so the columns never move while a file loads (address space only,
    /// until written).
    mutating func reserveVertices(_ n: Int) {
        lon.reserveCapacity(n)
        lat.reserveCapacity(n)
    }

    /// Adds a corridor whose vertices are validated already: (lon, lat) pairs, its lines ending at
    /// `lineEnds` (in positions).
    mutating func add(
        fence f: Int32, coordinates c: UnsafeBufferPointer<Double>, lineEnds ends: ArraySlice<Int>, radius r: Double
    ) {
        let first = lon.count
        for k in 0..<c.count / 2 {
            lon.append(c[2 * k])
            lat.append(c[2 * k + 1])
        }
        for end in ends { lineEnds.append(first + end) }
        firstLine.append(lineEnds.count)
        firstVertex.append(lon.count)
        while blockCorridor.count << 4 < lon.count { blockCorridor.append(Int32(fence.count)) }
        radius.append(r)
        largestRadius = max(largestRadius, r)
        fence.append(f)
    }

    /// The corridors of `later`, after these, their fences `fenceOffset` further on.
    mutating func append(contentsOf later: CorridorStore, fenceOffset: Int32) {
        let vertexBase = lon.count
        let lineBase = lineEnds.count
        let corridorBase = count
        lon.append(contentsOf: later.lon)
        lat.append(contentsOf: later.lat)
        lineEnds.append(contentsOf: later.lineEnds, from: 0, adding: vertexBase)
        firstLine.append(contentsOf: later.firstLine, from: 1, adding: lineBase)
        firstVertex.append(contentsOf: later.firstVertex, from: 1, adding: vertexBase)
        for c in 0..<later.count {
            let end = vertexBase + later.firstVertex[c + 1]
            while blockCorridor.count << 4 < end { blockCorridor.append(Int32(corridorBase + c)) }
        }
        radius.append(contentsOf: later.radius)
        largestRadius = max(largestRadius, later.largestRadius)
        fence.append(contentsOf: later.fence.lazy.map { $0 + fenceOffset })
    }

    /// Adds a corridor whose vertices are validated already, as lines of (lon, lat).
    mutating func add(fence f: Int32, lines: [[(lon: Double, lat: Double)]], radius r: Double) {
        var coordinates: [Double] = []
        var ends: [Int] = []
        for line in lines {
            for p in line { coordinates += [p.lon, p.lat] }
            ends.append(coordinates.count / 2)
        }
        coordinates.withUnsafeBufferPointer { add(fence: f, coordinates: $0, lineEnds: ends[...], radius: r) }
    }

    /// Vertices of line `l`.
    @inline(__always)
    func vertices(ofLine l: Int) -> Range<Int> { (l == 0 ? 0 : lineEnds[l - 1])..<lineEnds[l] }

    /// The corridor holding vertex `v`.
    @inline(__always)
    func corridor(ofVertex v: Int) -> Int {
        var c = Int(blockCorridor[v >> 4])
        while firstVertex[c + 1] <= v { c += 1 }
        return c
    }

    /// The segment from vertex `v` to `v + 1`, prepared for a corridor of radius `r`.
    @inline(__always)
    func segment(_ v: Int, radius r: Double) -> CorridorSegment {
        CorridorSegment(
            a: CorridorSegment.unit(lon: lon[v], lat: lat[v]),
            b: CorridorSegment.unit(lon: lon[v + 1], lat: lat[v + 1]),
            radius: r)
    }

    /// The lines of corridor `c` as (lon, lat) vertices.
    func lines(_ c: Int) -> [[(lon: Double, lat: Double)]] {
        (firstLine[c]..<firstLine[c + 1]).map { l in vertices(ofLine: l).map { (lon[$0], lat[$0]) } }
    }

    /// Whether corridor `c` contains the point with unit vector `p` (every segment; the grid
    /// query tests only the segments of the point's cell).
    func contains(_ c: Int, _ p: SIMD3<Double>) -> Bool {
        for l in firstLine[c]..<firstLine[c + 1] {
            for v in vertices(ofLine: l).dropLast() where segment(v, radius: radius[c]).contains(p) { return true }
        }
        return false
    }

    /// Metres from the point with unit vector `p` to the line of corridor `c`.
    func distanceToLine(_ c: Int, _ p: SIMD3<Double>) -> Double {
        var best = Double.infinity
        for l in firstLine[c]..<firstLine[c + 1] {
            for v in vertices(ofLine: l).dropLast() { best = min(best, segment(v, radius: radius[c]).angle(to: p)) }
        }
        return best * Geodesy.earthRadius
    }
}

extension CorridorStore {
    /// The corridors along a Z-order curve over their first vertices (2^9 steps each way across
    /// their extent), in file order within a step.
    static func spatialOrder(_ store: CorridorStore) -> [Int32] {
        let n = store.count
        guard n > 1 else { return (0..<n).map(Int32.init) }
        var west = Double.infinity
        var east = -Double.infinity
        var south = Double.infinity
        var north = -Double.infinity
        for c in 0..<n {
            let v = store.firstVertex[c]
            west = min(west, store.lon[v])
            east = max(east, store.lon[v])
            south = min(south, store.lat[v])
            north = max(north, store.lat[v])
        }
        let bits = 9
        let steps = Double(1 << bits)
        let scaleX = east > west ? (steps - 0.5) / (east - west) : 0
        let scaleY = north > south ? (steps - 0.5) / (north - south) : 0
        var key = [UInt32](repeating: 0, count: n)
        var starts = [Int](repeating: 0, count: (1 << (2 * bits)) + 1)
        for c in 0..<n {
            let v = store.firstVertex[c]
            let x = UInt32(min(max((store.lon[v] - west) * scaleX, 0), steps - 1))
            let y = UInt32(min(max((store.lat[v] - south) * scaleY, 0), steps - 1))
            var k: UInt32 = 0
            for b in 0..<UInt32(bits) { k |= ((x >> b) & 1) << (2 * b) | ((y >> b) & 1) << (2 * b + 1) }
            key[c] = k
            starts[Int(k) + 1] += 1
        }
        for k in 1..<starts.count { starts[k] += starts[k - 1] }
        var order = [Int32](repeating: 0, count: n)
        for c in 0..<n {
            let k = Int(key[c])
            order[starts[k]] = Int32(c)
            starts[k] += 1
        }
        return order
    }

    /// Puts the corridors in the order of `order` (a permutation of 0 ..< count): afterwards
    /// corridor k is the one that was `order[k]`. Each vertex array is copied once, one after the
    /// other, so the move costs one of them at a time.
    mutating func reorder(_ order: [Int32]) {
        var newLineEnds = CompactIndices()
        newLineEnds.reserveCapacity(lineEnds.count)
        var newFirstLine = CompactIndices([0])
        newFirstLine.reserveCapacity(count + 1)
        var newFirstVertex = CompactIndices([0])
        newFirstVertex.reserveCapacity(count + 1)
        for c in order {
            let c = Int(c)
            let shift = newFirstVertex[newFirstVertex.count - 1] - firstVertex[c]
            for l in firstLine[c]..<firstLine[c + 1] { newLineEnds.append(lineEnds[l] + shift) }
            newFirstLine.append(newLineEnds.count)
            newFirstVertex.append(firstVertex[c + 1] + shift)
        }
        let ranges = order.lazy.map { [firstVertex] c in firstVertex[Int(c)]..<firstVertex[Int(c) + 1] }
        lon = lon.gathered(ranges, count: lon.count)
        lat = lat.gathered(ranges, count: lat.count)
        radius = order.map { radius[Int($0)] }
        fence = order.map { fence[Int($0)] }
        lineEnds = newLineEnds
        firstLine = newFirstLine
        firstVertex = newFirstVertex
        blockCorridor.removeAll(keepingCapacity: true)
        var c = 0
        while blockCorridor.count << 4 < lon.count {
            let v = blockCorridor.count << 4
            while firstVertex[c + 1] <= v { c += 1 }
            blockCorridor.append(Int32(c))
        }
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
    return antimeridianBoxes(
        west: min(p.lon, p.lon + step) - dlon, east: max(p.lon, p.lon + step) + dlon, south: widenedSouth,
        north: widenedNorth)
}

/// A box running east from `west` to `east` (either may be past ±180), split at the antimeridian;
/// all longitudes when it goes all the way round.
func antimeridianBoxes(west: Double, east: Double, south: Double, north: Double) -> (BoundingBox, BoundingBox?) {
    if east - west >= 360 {
        return (BoundingBox(minX: -180, minY: south, maxX: 180, maxY: north), nil)
    }
    if west < -180 {
        return (
            BoundingBox(minX: -180, minY: south, maxX: min(east, 180), maxY: north),
            BoundingBox(minX: west + 360, minY: south, maxX: 180, maxY: north)
        )
    }
    if east > 180 {
        return (
            BoundingBox(minX: max(west, -180), minY: south, maxX: 180, maxY: north),
            BoundingBox(minX: -180, minY: south, maxX: east - 360, maxY: north)
        )
    }
    return (BoundingBox(minX: west, minY: south, maxX: east, maxY: north), nil)
}
