import Platform

/// One level of the corridors' own grid: each cell lists the segments whose widened box meets it,
/// as 4-byte start vertices (`CorridorStore.segment`), in compressed rows. Nothing else per entry:
/// a country's roads put tens of millions of entries here, and the exact arc test that follows
/// needs only the two vertices.
final class CorridorLevel: @unchecked Sendable {
    let starts: FrozenArray<Int32>
    let entries: FrozenArray<Int32>
    let view: CorridorLevelView

    init(frame: GridFrame, starts: FrozenArray<Int32>, entries: FrozenArray<Int32>) {
        self.starts = starts
        self.entries = entries
        view = CorridorLevelView(frame: frame, starts: starts.base, entries: entries.base)
    }

    var bytes: Int { starts.bytes + entries.bytes }
}

/// A corridor level's geometry and raw pointers for the query loop; valid while its `CorridorLevel` lives.
struct CorridorLevelView: @unchecked Sendable {
    let frame: GridFrame
    let starts: UnsafeMutablePointer<Int32>
    let entries: UnsafeMutablePointer<Int32>
}

/// A box holding every point within `radius` of the arc from vertex `v` to `v + 1`: for the
/// common road segment (ends within 80° of the equator, under a degree long, radius under 60 km)
/// a cheap bound that contains the exact box of `corridorSegmentBoxes`, else that exact box.
///
/// The bound: the arc's angle θ is at most |Δφ| + |Δλ| (along a meridian, then a parallel); where
/// the arc rises above its higher end to its great circle's highest point h, sin φh − sin φend =
/// sin φh (1 − cos t) ≤ t²/2 ≤ θ²/8 (t ≤ θ/2 the angle from h to the nearer end) and
/// sin φh − sin φend ≥ cos φh (φh − φend), so it rises by at most θ²/(8 cos 82°) < θ² (likewise
/// below its lower end). Longitudes widen by asin(sin δ / cos φ) at the steepest latitude, and
/// asin(x) < 1.002 x for x < 0.1.
@inline(__always)
func corridorSegmentCover(_ store: CorridorStore, _ v: Int, radius: Double) -> (BoundingBox, BoundingBox?) {
    if let span = corridorSegmentSpan(store, v, radius: radius) {
        let delta = radius / Geodesy.earthRadius
        return span.widened(
            by: CorridorWidening(delta: delta, steepest: max(abs(span.south), abs(span.north))))
    }
    return corridorSegmentBoxes(
        from: (store.lon[v], store.lat[v]), to: (store.lon[v + 1], store.lat[v + 1]),
        segment: store.segment(v, radius: radius), radius: radius)
}

/// Where the arc from vertex `v` to `v + 1` may run, before widening by the radius: the cheap
/// bound of `corridorSegmentCover`, or nil off its path.
struct CorridorSegmentSpan {
    var west: Double, east: Double, south: Double, north: Double

    @inline(__always)
    func widened(by w: CorridorWidening) -> (BoundingBox, BoundingBox?) {
        antimeridianBoxes(west: west - w.dlon, east: east + w.dlon, south: south - w.dlat, north: north + w.dlat)
    }
}

/// Degrees a span widens by for an angle `delta` at latitudes up to `steepest` (in either direction).
struct CorridorWidening {
    var dlat: Double, dlon: Double

    @inline(__always)
    init(delta: Double, steepest: Double) {
        dlat = delta / Geodesy.degree * (1 + 1e-9) + 1e-9
        let ratio = sin(delta) / cos(steepest * Geodesy.degree)
        dlon = ratio * 1.002 / Geodesy.degree * (1 + 1e-9) + 1e-9
    }
}

@inline(__always)
func corridorSegmentSpan(_ store: CorridorStore, _ v: Int, radius: Double) -> CorridorSegmentSpan? {
    // the vertices to within 10^-13 degrees: the widening's 10^-9 covers it
    let latA = store.lat.approximate(v)
    let latB = store.lat.approximate(v + 1)
    let lonA = store.lon.approximate(v)
    var step = store.lon.approximate(v + 1) - lonA
    if step > 180 { step -= 360 } else if step < -180 { step += 360 }
    let dLat = abs(latB - latA)
    guard abs(latA) <= 80, abs(latB) <= 80, dLat <= 1, abs(step) <= 1, radius <= 60_000 else { return nil }
    let theta = (dLat + abs(step)) * Geodesy.degree
    let rise = theta * theta / Geodesy.degree
    return CorridorSegmentSpan(
        west: min(lonA, lonA + step), east: max(lonA, lonA + step), south: min(latA, latB) - rise,
        north: max(latA, latB) + rise)
}

/// Builds the corridors' grid the way `GridBuilder` builds the shared one (levels of cells `s0·2^k`,
/// a box on the lowest level whose cell is at least its size, cells capped near four per entry),
/// without a list of boxes: each pass works the boxes out again from the vertices, so building
/// holds no more than the levels' own arrays. The passes take the corridors in the store's order,
/// which is the map's (`CorridorStore.reorder`): each box is written near the last one.
enum CorridorGridBuilder {
    static func build(_ store: CorridorStore, cellScale: Double) -> [CorridorLevel] {
        guard store.count > 0 else { return [] }
        // each corridor's cheap spans, worked out once for its steepest latitude and its boxes
        var mostSegments = 0
        for c in 0..<store.count { mostSegments = max(mostSegments, store.firstVertex[c + 1] - store.firstVertex[c]) }
        let spans = UnsafeMutableBufferPointer<CorridorSegmentSpan?>.allocate(capacity: mostSegments)
        defer { spans.deallocate() }
        // every box of every segment, in order, with its start vertex
        // (a corridor's segments widened alike, for its steepest latitude: one sine and cosine a
        // corridor, not a segment; boxes at least as large as `corridorSegmentCover`'s)
        func forEachBox(_ body: (Int32, BoundingBox) -> Void) {
            for c in 0..<store.count {
                let r = store.radius[c]
                let lines = store.firstLine[c]..<store.firstLine[c + 1]
                var steepest = 0.0
                var n = 0
                for l in lines {
                    for v in store.vertices(ofLine: l).dropLast() {
                        let span = corridorSegmentSpan(store, v, radius: r)
                        if let span { steepest = max(steepest, abs(span.south), abs(span.north)) }
                        spans[n] = span
                        n += 1
                    }
                }
                let widening = CorridorWidening(delta: r / Geodesy.earthRadius, steepest: steepest)
                n = 0
                for l in lines {
                    for v in store.vertices(ofLine: l).dropLast() {
                        let (first, second) =
                            spans[n]?.widened(by: widening) ?? corridorSegmentCover(store, v, radius: r)
                        n += 1
                        body(Int32(v), first)
                        if let second { body(Int32(v), second) }
                    }
                }
            }
        }
        // the sample: the first segment of up to 20,000 corridors spread over the set
        let stride = max(1, store.count / 20000)
        var sampleBoxes: [BoundingBox] = []
        for c in Swift.stride(from: 0, to: store.count, by: stride) {
            let v = store.vertices(ofLine: store.firstLine[c]).lowerBound
            sampleBoxes.append(corridorSegmentCover(store, v, radius: store.radius[c]).0)
        }
        let meanLat = sampleBoxes.reduce(0.0) { $0 + ($1.minY + $1.maxY) * 0.5 } / Double(sampleBoxes.count)
        let aspect = min(max(1 / cos(meanLat * Geodesy.degree), 1), 8)
        func size(_ b: BoundingBox) -> Double { max((b.maxX - b.minX) / aspect, b.maxY - b.minY) }
        let sample = sampleBoxes.map(size).sorted()
        var s0 = sample[sample.count / 2] * cellScale
        if !(s0 > 1e-7) { s0 = 1e-5 }
        // the lowest level whose cell is at least the box's size, by comparison (no logarithm)
        let cellSizes = (0..<64).map { s0 * pow(2, Double($0)) }
        func level(_ b: BoundingBox) -> Int {
            let s = size(b)
            var l = 0
            while l < 63 && s > cellSizes[l] { l += 1 }
            return l
        }
        var perLevel = [Int](repeating: 0, count: 64)
        var extent = [(lx: Double, ly: Double, hx: Double, hy: Double)](
            repeating: (.infinity, .infinity, -.infinity, -.infinity), count: 64)
        forEachBox { _, box in
            let l = level(box)
            perLevel[l] += 1
            extent[l] = (
                min(extent[l].lx, box.minX), min(extent[l].ly, box.minY), max(extent[l].hx, box.maxX),
                max(extent[l].hy, box.maxY)
            )
        }
        // per level: its grid, then counts turned into run starts in place, then the fill
        struct Building {
            var view: CorridorLevelView
            var starts: FrozenArray<Int32>
            var entries: FrozenArray<Int32>
        }
        var building = [Building?](repeating: nil, count: 64)
        for l in 0..<64 where perLevel[l] > 0 {
            let (lx, ly, hx, hy) = extent[l]
            var sy = s0 * pow(2, Double(l))
            var sx = sy * aspect
            var nx = 1
            var ny = 1
            while true {
                nx = Int(min((hx - lx) / sx, 1e9)) + 1
                ny = Int(min((hy - ly) / sy, 1e9)) + 1
                if nx * ny <= 4 * perLevel[l] + 64 { break }
                sx *= 1.4142135623730951
                sy *= 1.4142135623730951
            }
            let frame = GridFrame(x0: lx, y0: ly, sx: sx, sy: sy, nx: nx, ny: ny)
            let starts = FrozenArray<Int32>(repeating: 0, count: frame.cells + 1)
            let entries = FrozenArray<Int32>(repeating: 0, count: 0)
            building[l] = Building(
                view: CorridorLevelView(frame: frame, starts: starts.base, entries: entries.base), starts: starts,
                entries: entries)
        }
        let views = building.map { $0?.view }
        func forEachCell(_ body: (Int32, CorridorLevelView, Int) -> Void) {
            forEachBox { v, box in
                let view = views[level(box)]!
                let (a, b, c, d) = view.frame.clampedRange(box)
                for row in c...d {
                    for col in a...b { body(v, view, row * view.frame.nx + col) }
                }
            }
        }
        forEachCell { _, view, cell in view.starts[cell + 1] += 1 }
        // counts to run starts, then each run filled with its start as the cursor (no second array
        // of cells): afterwards each cell's cursor stands at the next cell's start, shifted back
        for l in 0..<64 {
            guard var level = building[l] else { continue }
            let cells = level.view.frame.cells
            let s = level.starts
            for cell in 0..<cells { s[cell + 1] += s[cell] }
            level.entries = FrozenArray(unfilledCount: Int(s[cells]))
            building[l] = level
        }
        let entryBases = building.map { $0?.entries.base }
        forEachBox { v, box in
            let l = level(box)
            let view = views[l]!
            let out = entryBases[l]!
            let cursor = view.starts
            let (a, b, c, d) = view.frame.clampedRange(box)
            for row in c...d {
                for col in a...b {
                    let cell = row * view.frame.nx + col
                    out[Int(cursor[cell])] = v
                    cursor[cell] += 1
                }
            }
        }
        for l in 0..<64 {
            guard let level = building[l] else { continue }
            let s = level.starts
            for cell in Swift.stride(from: level.view.frame.cells - 1, through: 0, by: -1) {
                s[cell + 1] = s[cell]
            }
            s[0] = 0
        }
        return building.compactMap { level in
            level.map {
                CorridorLevel(frame: $0.view.frame, starts: $0.starts, entries: $0.entries)
            }
        }
    }
}

/// Whether the point's latitude may lie within `radius` of segment `v`'s: false only north or south
/// of its cover box (and never for a segment off the cheap path).
@inline(__always)
func corridorSegmentLatitudeMayHold(_ store: CorridorStore, _ v: Int, radius: Double, lat: Double) -> Bool {
    let latA = store.lat[v]
    let latB = store.lat[v + 1]
    let dLat = abs(latB - latA)
    var step = store.lon[v + 1] - store.lon[v]
    if step > 180 { step -= 360 } else if step < -180 { step += 360 }
    guard abs(latA) <= 80, abs(latB) <= 80, dLat <= 1, abs(step) <= 1, radius <= 60_000 else { return true }
    let theta = (dLat + abs(step)) * Geodesy.degree
    let reach = theta * theta / Geodesy.degree + radius / Geodesy.earthRadius / Geodesy.degree * (1 + 1e-9) + 1e-9
    return lat >= min(latA, latB) - reach && lat <= max(latA, latB) + reach
}

/// Whether the point may lie within `radius` of segment `v`: false only outside its cover box. The
/// latitudes are checked first, with no trigonometry, as most candidates lie north or south.
@inline(__always)
func corridorSegmentMayHold(_ store: CorridorStore, _ v: Int, radius: Double, lon: Double, lat: Double) -> Bool {
    let latA = store.lat[v]
    let latB = store.lat[v + 1]
    let dLat = abs(latB - latA)
    var step = store.lon[v + 1] - store.lon[v]
    if step > 180 { step -= 360 } else if step < -180 { step += 360 }
    if abs(latA) <= 80, abs(latB) <= 80, dLat <= 1, abs(step) <= 1, radius <= 60_000 {
        let theta = (dLat + abs(step)) * Geodesy.degree
        let reach = theta * theta / Geodesy.degree + radius / Geodesy.earthRadius / Geodesy.degree * (1 + 1e-9) + 1e-9
        if lat < min(latA, latB) - reach || lat > max(latA, latB) + reach { return false }
    }
    let (first, second) = corridorSegmentCover(store, v, radius: radius)
    return first.holds(lon: lon, lat: lat) || second?.holds(lon: lon, lat: lat) == true
}

extension BoundingBox {
    @inline(__always)
    func holds(lon: Double, lat: Double) -> Bool { lon >= minX && lon <= maxX && lat >= minY && lat <= maxY }
}
