/// Every polygon fence as edges in struct-of-arrays form, grouped per polygon into horizontal bands
/// (slabs) of equal height: an edge is listed in every band its latitude span touches. A
/// point-in-polygon test only needs the edges whose span contains the point's latitude, so it reads
/// one band and never scans a huge polygon's other edges.
///
/// Even-odd crossing over all rings of all parts is exact for valid (Multi)Polygons: holes lie in
/// their exterior ring and parts are disjoint (they may touch along an antimeridian split).
struct PolygonStore {
    // per polygon
    var minX: [Double] = [], minY: [Double] = [], maxX: [Double] = [], maxY: [Double] = []
    var bandY0: [Double] = [], bandInv: [Double] = []
    var bandCount: [Int32] = []
    /// Index into `bandStart` of the polygon's first band; its bands are `bandBase ..< bandBase+count`.
    var bandBase: [Int32] = []
    var fence: [Int32] = []
    var vertexCount: [Int32] = []
    // per band: edges bandStart[b] ..< bandStart[b+1]
    var bandStart: [Int32] = [0]
    // per band entry (an edge, repeated in each band it spans)
    var x1: [Double] = [], y1: [Double] = [], x2: [Double] = [], y2: [Double] = []

    var count: Int { fence.count }

    /// Adds one polygon fence; `rings` are closed rings of (lon, lat) in any order (all parts).
    mutating func add(fence f: Int32, coordinates c: UnsafeBufferPointer<Double>, ringEnds: ArraySlice<Int>,
                      edgesPerBand: Int = 4) {
        var lx = Double.infinity, ly = Double.infinity, hx = -Double.infinity, hy = -Double.infinity
        var edges = 0, start = 0
        for end in ringEnds {
            for k in start..<end {
                lx = min(lx, c[2 * k]); hx = max(hx, c[2 * k])
                ly = min(ly, c[2 * k + 1]); hy = max(hy, c[2 * k + 1])
            }
            edges += end - start - 1
            start = end
        }
        minX.append(lx); minY.append(ly); maxX.append(hx); maxY.append(hy)
        fence.append(f)
        vertexCount.append(Int32(clamping: start - ringEnds.count))
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
                    let a = c[2 * k + 1], b = c[2 * k + 3]
                    entries += band(max(a, b), ly, inv, bands) - band(min(a, b), ly, inv, bands) + 1
                }
                start = end
            }
            if entries <= 3 * edges + bands { break }
            bands /= 2
        }
        bandY0.append(ly); bandInv.append(inv)
        bandCount.append(Int32(bands))
        bandBase.append(Int32(bandStart.count - 1))
        // counting pass, then fill, band by band (CSR)
        let base = x1.count
        var counts = [Int](repeating: 0, count: bands)
        start = 0
        for end in ringEnds {
            for k in start..<(end - 1) {
                let a = c[2 * k + 1], b = c[2 * k + 3]
                for i in band(min(a, b), ly, inv, bands)...band(max(a, b), ly, inv, bands) { counts[i] += 1 }
            }
            start = end
        }
        var offsets = [Int](repeating: 0, count: bands)
        var total = 0
        for i in 0..<bands {
            offsets[i] = base + total
            total += counts[i]
            bandStart.append(Int32(base + total))
        }
        x1.append(contentsOf: repeatElement(0, count: total)); y1.append(contentsOf: repeatElement(0, count: total))
        x2.append(contentsOf: repeatElement(0, count: total)); y2.append(contentsOf: repeatElement(0, count: total))
        start = 0
        for end in ringEnds {
            for k in start..<(end - 1) {
                let ax = c[2 * k], ay = c[2 * k + 1], bx = c[2 * k + 2], by = c[2 * k + 3]
                for i in band(min(ay, by), ly, inv, bands)...band(max(ay, by), ly, inv, bands) {
                    let o = offsets[i]
                    x1[o] = ax; y1[o] = ay; x2[o] = bx; y2[o] = by
                    offsets[i] = o + 1
                }
            }
            start = end
        }
    }

    @inline(__always)
    func band(_ y: Double, _ y0: Double, _ inv: Double, _ bands: Int) -> Int {
        bandIndex(y, y0, inv, bands)
    }

    func frozen() -> FrozenPolygons { FrozenPolygons(self) }
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
    let minX, minY, maxX, maxY, bandY0, bandInv: FrozenArray<Double>
    let bandCount, bandBase, bandStart, fence, vertexCount: FrozenArray<Int32>
    let x1, y1, x2, y2: FrozenArray<Double>
    var count: Int { fence.count }

    init(_ s: PolygonStore) {
        minX = FrozenArray(s.minX); minY = FrozenArray(s.minY); maxX = FrozenArray(s.maxX); maxY = FrozenArray(s.maxY)
        bandY0 = FrozenArray(s.bandY0); bandInv = FrozenArray(s.bandInv)
        bandCount = FrozenArray(s.bandCount); bandBase = FrozenArray(s.bandBase)
        bandStart = FrozenArray(s.bandStart); fence = FrozenArray(s.fence); vertexCount = FrozenArray(s.vertexCount)
        x1 = FrozenArray(s.x1); y1 = FrozenArray(s.y1); x2 = FrozenArray(s.x2); y2 = FrozenArray(s.y2)
    }

    var bytes: Int {
        [minX, minY, maxX, maxY, bandY0, bandInv, x1, y1, x2, y2].reduce(0) { $0 + $1.bytes }
            + [bandCount, bandBase, bandStart, fence, vertexCount].reduce(0) { $0 + $1.bytes }
    }

    /// Edge-entry range of the band holding latitude `y` in polygon `p`.
    @inline(__always)
    func bandRange(_ p: Int, _ y: Double) -> (Int, Int) {
        let b = Int(bandBase[p]) + bandIndex(y, bandY0[p], bandInv[p], Int(bandCount[p]))
        return (Int(bandStart[b]), Int(bandStart[b + 1]))
    }

    /// Planar point-in-polygon on (lon, lat) with the boundary inside (SPEC §5).
    @inline(__always)
    func contains(_ p: Int, x: Double, y: Double) -> Bool {
        if x < minX[p] || x > maxX[p] || y < minY[p] || y > maxY[p] { return false }
        let (s, e) = bandRange(p, y)
        return PolygonKernel.contains(x: x, y: y, x1: x1.base, y1: y1.base, x2: x2.base, y2: y2.base, from: s, to: e)
    }
}
