/// Every polygon fence with its edges grouped per polygon into horizontal bands (slabs) of equal
/// height: an edge is listed in every band its latitude span touches, so a point-in-polygon test
/// reads the one band holding the point's latitude and never a huge polygon's other edges.
///
/// Two layouts, chosen per polygon by its size:
/// - **Blocks** (fewer than `indexedFromEdges` edges: the usual fence). Each band's edges are copied
///   into blocks of four, `[x1×4, y1×4, x2×4, y2×4]` (one `SIMD4<Double>` each, 128 bytes, two cache
///   lines), padded to whole blocks with edges at latitude +∞, which never cross and are never on
///   the boundary. Fastest to query; 32 bytes per listed edge.
/// - **Indexed** (huge polygons: national or time-zone borders). The vertices stay where the loader
///   parsed them, once, 16 bytes each, and a band lists its edges as 4-byte indices of their first
///   vertex (`IndexedBands`, built on a second thread while the loader reads on). About 20–24
///   bytes per vertex in all instead of 40–50, so the borders of the world fit a Raspberry Pi with
///   1 GB (docs/performance.md).
///
/// Loaders stage a polygon's coordinates at the end of `vertices` (`stage`), then `addStaged` keeps
/// them (indexed) or copies them into blocks and drops them: coordinates go from the file straight
/// into their final place, with no temporary array per ring or per polygon.
///
/// Even-odd crossing over all rings of all parts is exact for valid (Multi)Polygons: holes lie in
/// their exterior ring and parts are disjoint (they may touch along an antimeridian split).
struct PolygonStore {
    static let indexedFromEdges = 1024
    /// Band entries (edge copies or indices) one file may hold: band boundaries are 32-bit.
    static let maxEntries = Int(Int32.max)

    var minX: [Double] = [], minY: [Double] = [], maxX: [Double] = [], maxY: [Double] = []
    var headers: [PolygonHeader] = []
    var fence: [Int32] = []
    /// Band boundaries of the block polygons: polygon p has `headers[p].bandCount + 1` of them
    /// from `headers[p].bandBase` on, so its band i is edges `blockBands[base + i] ..< [base + i + 1]`
    /// of `blocks`.
    var blockBands: [Int32] = []
    /// Edge blocks of the small polygons. The buffers are classes: copies of a store share them,
    /// and only the builder's store grows them.
    var blocks = GrowableBuffer<SIMD4<Double>>()
    /// (lon, lat) pairs: the vertices of the indexed polygons, then the staged coordinates of the
    /// polygon being read.
    var vertices = GrowableBuffer<Double>()
    /// The bands of the indexed polygons, built on another thread.
    let indexed = IndexedBands()
    /// Doubles of `vertices` that belong to added polygons; the rest are staged.
    private(set) var keptVertexDoubles = 0

    init() {
        let indexed = self.indexed
        // The indexer reads the vertices of the polygons handed to it: they must not move under
        // it, so it finishes what it has before the buffer grows (rarely: see `reserveVertices`).
        vertices.beforeMove = { indexed.wait() }
    }

    var count: Int { fence.count }

    /// Room for `doubles` coordinates without moving (only address space until written).
    func reserveVertices(_ doubles: Int) { vertices.reserve(doubles) }

    /// The coordinates staged since the last polygon was added (or `discardStaged`), lon and lat
    /// in turn.
    var staged: UnsafeBufferPointer<Double> {
        UnsafeBufferPointer(start: vertices.base.map { $0 + keptVertexDoubles }, count: stagedCount)
    }
    var stagedCount: Int { vertices.count - keptVertexDoubles }

    @inline(__always)
    func stage(_ value: Double) { vertices.append(value) }

    func discardStaged() { vertices.removeLast(from: keptVertexDoubles) }

    /// Band entries the store holds or was handed so far, of either layout.
    var entries: Int { blocks.count + indexed.entriesBound }

    /// Band entries a polygon of `edges` edges may need at most: 3 per edge plus one per band
    /// (`BandPlan`), and the padding of each band to whole blocks.
    static func entriesBound(edges: Int) -> Int { 5 * edges + 4 }

    /// Adds the staged coordinates as one polygon fence; `ringEnds` are the end positions (in
    /// vertices, from the first staged one) of its closed rings, all parts in turn. `indexed`
    /// forces a layout (tests); by default it follows the polygon's size.
    mutating func addStaged(
        fence f: Int32, ringEnds: ArraySlice<Int>, edgesPerBand requested: Int? = nil, indexed forced: Bool? = nil
    ) {
        let c = staged
        let edges = c.count / 2 - ringEnds.count
        fence.append(f)
        if forced ?? (edges >= Self.indexedFromEdges) {
            // the box and bands come from the indexer; placeholders until `frozen`
            minX.append(0)
            minY.append(0)
            maxX.append(0)
            maxY.append(0)
            headers.append(PolygonHeader(y0: 0, inv: 0, bandBase: 0, bandCount: 0, vertexBase: keptVertexDoubles / 2))
            indexed.add(
                polygon: headers.count - 1, vertices: UnsafePointer(c.baseAddress!), edges: edges,
                ringEnds: Array(ringEnds), edgesPerBand: requested ?? 8)
            keptVertexDoubles = vertices.count
            return
        }
        let plan = BandPlan(c, ringEnds: ringEnds, edges: edges, edgesPerBand: requested ?? 4)
        minX.append(plan.minX)
        minY.append(plan.minY)
        maxX.append(plan.maxX)
        maxY.append(plan.maxY)
        headers.append(
            PolygonHeader(
                y0: plan.minY, inv: plan.inv, bandBase: Int32(blockBands.count), bandCount: Int32(plan.bands),
                vertexBase: -1))
        addBlocks(c, ringEnds: ringEnds, plan: plan)
        discardStaged()
    }

    private mutating func addBlocks(_ c: UnsafeBufferPointer<Double>, ringEnds: ArraySlice<Int>, plan: BandPlan) {
        let base = blocks.count  // in SIMD4 units, 4 per block of 4 edges: the same number as edges
        var offsets = [Int](repeating: 0, count: plan.bands)
        var total = 0
        blockBands.append(Int32(base))
        for i in 0..<plan.bands {
            offsets[i] = base + total
            total += (plan.counts[i] + 3) & ~3
            blockBands.append(Int32(base + total))
        }
        let padding = SIMD4<Double>(repeating: .infinity)
        // every entry starts as padding (latitude +∞), real edges overwrite theirs below
        let fresh = blocks.appendUninitialized(count: total)
        for j in stride(from: 0, to: total, by: 4) {
            (fresh + j).initialize(to: .zero)
            (fresh + j + 1).initialize(to: padding)
            (fresh + j + 2).initialize(to: .zero)
            (fresh + j + 3).initialize(to: padding)
        }
        let block = blocks.base!
        plan.forEachEdge(c, ringEnds: ringEnds) { k, first, last in
            let ax = c[2 * k]
            let ay = c[2 * k + 1]
            let bx = c[2 * k + 2]
            let by = c[2 * k + 3]
            for i in first...last {
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
    }

    /// Freezes the store, once the indexer is done; staged coordinates not added are dropped.
    mutating func frozen() -> FrozenPolygons {
        discardStaged()
        for r in indexed.finish() {
            minX[r.polygon] = r.plan.minX
            minY[r.polygon] = r.plan.minY
            maxX[r.polygon] = r.plan.maxX
            maxY[r.polygon] = r.plan.maxY
            headers[r.polygon].y0 = r.plan.minY
            headers[r.polygon].inv = r.plan.inv
            headers[r.polygon].bandBase = Int32(r.bandBase)
            headers[r.polygon].bandCount = Int32(r.plan.bands)
        }
        return FrozenPolygons(self)
    }
}

/// Where a polygon's bands are, how to find the band of a latitude, and which layout they use.
struct PolygonHeader {
    var y0: Double
    var inv: Double
    /// First band boundary in `blockBands` or `indexBands`, by layout.
    var bandBase: Int32
    var bandCount: Int32
    /// First vertex (pair of doubles) in `vertices` of an indexed polygon; -1 for blocks.
    var vertexBase: Int
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

/// How a polygon's edges fall into bands: its box, the band height, and how many edges each band
/// lists. About `edgesPerBand` edges per band, fewer bands when long edges would be listed in too
/// many (entries stay at most 3 per edge plus one per band, so memory stays proportional to edges).
struct BandPlan {
    var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
    var inv = 0.0
    var counts: [Int] = []
    var bands: Int { counts.count }
    var entries: Int { counts.reduce(0, +) }

    init<Ends: Collection<Int>>(_ c: UnsafeBufferPointer<Double>, ringEnds: Ends, edges: Int, edgesPerBand: Int) {
        var start = 0
        for end in ringEnds {
            for k in start..<end {
                minX = min(minX, c[2 * k])
                maxX = max(maxX, c[2 * k])
                minY = min(minY, c[2 * k + 1])
                maxY = max(maxY, c[2 * k + 1])
            }
            start = end
        }
        let height = maxY - minY
        var bands = edges <= 2 * edgesPerBand || !(height > 0) ? 1 : min(edges / edgesPerBand, 1 << 22)
        while true {
            inv = bands == 1 ? 0 : Double(bands) / height
            if bands == 1 {
                counts = [edges]
                return
            }
            var entries = 0
            var tally = [Int](repeating: 0, count: bands)
            tally.withUnsafeMutableBufferPointer { tally in
                Self.forEachEdge(c, ringEnds: ringEnds, y0: minY, inv: inv, bands: bands) { _, first, last in
                    for i in first...last { tally[i] += 1 }
                    entries += last - first + 1
                }
            }
            counts = tally
            if entries <= 3 * edges + bands { return }
            bands /= 2
        }
    }

    /// Calls `body(k, first, last)` for each edge (from vertex k to k + 1) with the bands it is
    /// listed in.
    @inline(__always)
    func forEachEdge<Ends: Collection<Int>>(
        _ c: UnsafeBufferPointer<Double>, ringEnds: Ends, _ body: (Int, Int, Int) -> Void
    ) {
        Self.forEachEdge(c, ringEnds: ringEnds, y0: minY, inv: inv, bands: counts.count, body)
    }

    @inline(__always)
    static func forEachEdge<Ends: Collection<Int>>(
        _ c: UnsafeBufferPointer<Double>, ringEnds: Ends, y0 minY: Double, inv: Double, bands: Int,
        _ body: (Int, Int, Int) -> Void
    ) {
        var start = 0
        for end in ringEnds {
            for k in start..<(end - 1) {
                let a = c[2 * k + 1]
                let b = c[2 * k + 3]
                body(k, bandIndex(min(a, b), minY, inv, bands), bandIndex(max(a, b), minY, inv, bands))
            }
            start = end
        }
    }
}

/// The polygon store behind raw pointers, for the query kernels.
final class FrozenPolygons: @unchecked Sendable {
    let minX, minY, maxX, maxY: FrozenArray<Double>
    let headers: FrozenArray<PolygonHeader>
    let blockBands, fence: FrozenArray<Int32>
    let blocks: FrozenArray<SIMD4<Double>>
    let vertices: FrozenArray<Double>
    let indexBands: FrozenArray<Int32>
    let edgeIndex: FrozenArray<UInt32>
    var count: Int { fence.count }

    init(_ s: PolygonStore) {
        minX = FrozenArray(s.minX)
        minY = FrozenArray(s.minY)
        maxX = FrozenArray(s.maxX)
        maxY = FrozenArray(s.maxY)
        headers = FrozenArray(s.headers)
        blockBands = FrozenArray(s.blockBands)
        fence = FrozenArray(s.fence)
        blocks = FrozenArray(taking: s.blocks)
        vertices = FrozenArray(taking: s.vertices)
        indexBands = FrozenArray(taking: s.indexed.bandStart)
        edgeIndex = FrozenArray(taking: s.indexed.edgeIndex)
    }

    var bytes: Int {
        minX.bytes * 4 + headers.bytes + blockBands.bytes + fence.bytes + blocks.bytes + vertices.bytes
            + indexBands.bytes + edgeIndex.bytes
    }

    /// Entry range of the band holding latitude `y` in polygon `p` (edges of `blocks`, a multiple
    /// of four, or indices of `edgeIndex`).
    @inline(__always)
    func bandRange(_ p: Int, _ y: Double) -> (Int, Int) {
        let h = headers[p]
        let b = Int(h.bandBase) + bandIndex(y, h.y0, h.inv, Int(h.bandCount))
        let bounds = h.vertexBase < 0 ? blockBands : indexBands
        return (Int(bounds[b]), Int(bounds[b + 1]))
    }

    /// Planar point-in-polygon on (lon, lat) with the boundary inside (docs/fences.md).
    @inline(__always)
    func contains(_ p: Int, x: Double, y: Double) -> Bool {
        if x < minX[p] || x > maxX[p] || y < minY[p] || y > maxY[p] { return false }
        return containsInBox(p, x: x, y: y)
    }

    /// The same, for a point already known to be inside the polygon's box.
    @inline(__always)
    func containsInBox(_ p: Int, x: Double, y: Double) -> Bool {
        let h = headers[p]
        let b = Int(h.bandBase) + bandIndex(y, h.y0, h.inv, Int(h.bandCount))
        if h.vertexBase < 0 {
            return PolygonKernel.contains(
                x: x, y: y, blocks: blocks.base, from: Int(blockBands[b]), to: Int(blockBands[b + 1]))
        }
        return PolygonKernel.contains(
            x: x, y: y, vertices: vertices.base + 2 * h.vertexBase, edges: edgeIndex.base,
            from: Int(indexBands[b]), to: Int(indexBands[b + 1]))
    }

    /// Calls `body(x1, y1, x2, y2)` for the edges listed in bands `first ... last` of polygon `p`
    /// (an edge spanning several bands comes once per band).
    func forEachEdge(
        polygon p: Int, bands first: Int, through last: Int, _ body: (Double, Double, Double, Double) -> Void
    ) {
        let h = headers[p]
        if h.vertexBase >= 0 {
            let v = vertices.base + 2 * h.vertexBase
            for k in Int(indexBands[Int(h.bandBase) + first])..<Int(indexBands[Int(h.bandBase) + last + 1]) {
                let a = v + 2 * Int(edgeIndex[k])
                body(a[0], a[1], a[2], a[3])
            }
            return
        }
        for k in Int(blockBands[Int(h.bandBase) + first])..<Int(blockBands[Int(h.bandBase) + last + 1]) {
            let b = k & ~3
            let lane = k & 3
            let ay = blocks[b + 1][lane]
            if ay == .infinity { continue }
            body(blocks[b][lane], ay, blocks[b + 2][lane], blocks[b + 3][lane])
        }
    }
}
