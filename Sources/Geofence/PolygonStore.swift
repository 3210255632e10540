/// Every polygon fence as edges in struct-of-arrays blocks, grouped per polygon into horizontal
/// bands (slabs) of equal height: an edge is listed in every band its latitude span touches. A
/// point-in-polygon test only needs the edges whose span contains the point's latitude, so it reads
/// one band and never scans a huge polygon's other edges.
///
/// Edges are stored four to a block as `[x1×4, y1×4, x2×4, y2×4]` (one `SIMD4<Double>` each, 128
/// bytes, two cache lines); each band's run is padded to whole blocks with edges at latitude +∞,
/// which never cross and are never on the boundary.
///
/// Even-odd crossing over all rings of all parts is exact for valid (Multi)Polygons: holes lie in
/// their exterior ring and parts are disjoint (they may touch along an antimeridian split).
struct PolygonStore {
    var minX: [Double] = [], minY: [Double] = [], maxX: [Double] = [], maxY: [Double] = []
    var headers: [PolygonHeader] = []
    var fence: [Int32] = []
    /// Per band: first edge entry; the bands of polygon p are headers[p].bandBase ..< +bandCount.
    var bandStart: [Int32] = [0]
    /// Edge blocks; a class, so copies of a store share it (only the builder's store grows it).
    var blocks = GrowableBuffer<SIMD4<Double>>()

    var count: Int { fence.count }

    /// Adds one polygon fence; `ringEnds` are the end positions of its closed rings (all parts).
    mutating func add(
        fence f: Int32, coordinates c: UnsafeBufferPointer<Double>, ringEnds: ArraySlice<Int>,
        edgesPerBand requested: Int? = nil
    ) {
        var lx = Double.infinity
        var ly = Double.infinity
        var hx = -Double.infinity
        var hy = -Double.infinity
        var edges = 0
        var start = 0
        for end in ringEnds {
            for k in start..<end {
                lx = min(lx, c[2 * k])
                hx = max(hx, c[2 * k])
                ly = min(ly, c[2 * k + 1])
                hy = max(hy, c[2 * k + 1])
            }
            edges += end - start - 1
            start = end
        }
        minX.append(lx)
        minY.append(ly)
        maxX.append(hx)
        maxY.append(hy)
        fence.append(f)
        // about 4 edges per band; 8 for big polygons, where the padding of each band to whole
        // blocks of four would otherwise cost a third more memory
        let edgesPerBand = requested ?? (edges > 4096 ? 8 : 4)
        let height = hy - ly
        var bands = edges <= 2 * edgesPerBand || !(height > 0) ? 1 : min(edges / edgesPerBand, 1 << 22)
        var inv = 0.0
        // Fewer bands when long edges would repeat too often (memory stays proportional to edges).
        while true {
            inv = bands == 1 ? 0 : Double(bands) / height
            if bands == 1 { break }
            var entries = 0
            start = 0
            for end in ringEnds {
                for k in start..<(end - 1) {
                    let a = c[2 * k + 1]
                    let b = c[2 * k + 3]
                    entries += bandIndex(max(a, b), ly, inv, bands) - bandIndex(min(a, b), ly, inv, bands) + 1
                }
                start = end
            }
            if entries <= 3 * edges + bands { break }
            bands /= 2
        }
        headers.append(PolygonHeader(y0: ly, inv: inv, bandBase: Int32(bandStart.count - 1), bandCount: Int32(bands)))
        var counts = [Int](repeating: 0, count: bands)
        start = 0
        for end in ringEnds {
            for k in start..<(end - 1) {
                let a = c[2 * k + 1]
                let b = c[2 * k + 3]
                for i in bandIndex(min(a, b), ly, inv, bands)...bandIndex(max(a, b), ly, inv, bands) { counts[i] += 1 }
            }
            start = end
        }
        let base = blocks.count  // in SIMD4 units: 4 per block of 4 edges
        var offsets = [Int](repeating: 0, count: bands)
        var total = 0
        for i in 0..<bands {
            offsets[i] = base + total  // entry index = base/1 in edge units (base is 4·blocks = edges)
            total += (counts[i] + 3) & ~3
            bandStart.append(Int32(base + total))
        }
        let padding = SIMD4<Double>(repeating: .infinity)
        // every entry starts as padding (latitude +∞), real edges overwrite theirs below
        for _ in 0..<(total / 4) {
            blocks.append(.zero)
            blocks.append(padding)
            blocks.append(.zero)
            blocks.append(padding)
        }
        let block = blocks.base!
        start = 0
        for end in ringEnds {
            for k in start..<(end - 1) {
                let ax = c[2 * k]
                let ay = c[2 * k + 1]
                let bx = c[2 * k + 2]
                let by = c[2 * k + 3]
                for i in bandIndex(min(ay, by), ly, inv, bands)...bandIndex(max(ay, by), ly, inv, bands) {
                    let e = offsets[i]
                    let b = e & ~3
                    let lane = e & 3
                    block[b][lane] = ax
                    block[b + 1][lane] = ay
                    block[b + 2][lane] = bx
                    block[b + 3][lane] = by
                    offsets[i] = e + 1
                }
            }
            start = end
        }
    }

    func frozen() -> FrozenPolygons { FrozenPolygons(self) }
}

/// Where a polygon's bands are, and how to find the band of a latitude.
struct PolygonHeader {
    var y0: Double
    var inv: Double
    var bandBase: Int32
    var bandCount: Int32
}

/// Band of latitude `y`; monotonic in `y`, so an edge spanning [a, b] is in every band a point with
/// a ≤ y ≤ b looks up.
@inline(__always)
func bandIndex(_ y: Double, _ y0: Double, _ inv: Double, _ bands: Int) -> Int {
    let f = (y - y0) * inv
    if !(f > 0) { return 0 }
    if f >= Double(bands - 1) { return bands - 1 }
    return Int(f)
}

/// The polygon store behind raw pointers, for the query kernels.
final class FrozenPolygons: @unchecked Sendable {
    let minX, minY, maxX, maxY: FrozenArray<Double>
    let headers: FrozenArray<PolygonHeader>
    let bandStart, fence: FrozenArray<Int32>
    let blocks: FrozenArray<SIMD4<Double>>
    var count: Int { fence.count }

    init(_ s: PolygonStore) {
        minX = FrozenArray(s.minX)
        minY = FrozenArray(s.minY)
        maxX = FrozenArray(s.maxX)
        maxY = FrozenArray(s.maxY)
        headers = FrozenArray(s.headers)
        bandStart = FrozenArray(s.bandStart)
        fence = FrozenArray(s.fence)
        let (base, count) = s.blocks.take()
        blocks = FrozenArray(adopting: base, count: count)
    }

    var bytes: Int { minX.bytes * 4 + headers.bytes + bandStart.bytes + fence.bytes + blocks.bytes }

    /// Edge-entry range (multiples of four) of the band holding latitude `y` in polygon `p`.
    @inline(__always)
    func bandRange(_ p: Int, _ y: Double) -> (Int, Int) {
        let h = headers[p]
        let b = Int(h.bandBase) + bandIndex(y, h.y0, h.inv, Int(h.bandCount))
        return (Int(bandStart[b]), Int(bandStart[b + 1]))
    }

    /// Planar point-in-polygon on (lon, lat) with the boundary inside (SPEC §5).
    @inline(__always)
    func contains(_ p: Int, x: Double, y: Double) -> Bool {
        if x < minX[p] || x > maxX[p] || y < minY[p] || y > maxY[p] { return false }
        return containsInBox(p, x: x, y: y)
    }

    /// The same, for a point already known to be inside the polygon's box.
    @inline(__always)
    func containsInBox(_ p: Int, x: Double, y: Double) -> Bool {
        let (s, e) = bandRange(p, y)
        return PolygonKernel.contains(x: x, y: y, blocks: blocks.base, from: s, to: e)
    }

    /// Calls `body(x1, y1, x2, y2)` for the real (not padding) edge entries in `from ..< to`.
    func forEachEdge(from s: Int, to e: Int, _ body: (Double, Double, Double, Double) -> Void) {
        for k in s..<e {
            let b = k & ~3
            let lane = k & 3
            let ay = blocks[b + 1][lane]
            if ay == .infinity { continue }
            body(blocks[b][lane], ay, blocks[b + 2][lane], blocks[b + 3][lane])
        }
    }
}
