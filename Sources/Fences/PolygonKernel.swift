/// Point-in-polygon over blocks of four edges (`[x1×4, y1×4, x2×4, y2×4]`), one block per step
/// with `SIMD4<Double>` (SSE2/AVX on x86-64, NEON on ARM). Double lanes give exactly the
/// double-precision reference answer: the arithmetic is the reference's, lane by lane.
///
/// Rule: the point is inside when it lies on an edge (orientation exactly 0 and inside the edge's
/// box: vertices, edges and hole edges count as inside), else when a ray towards +lon crosses an odd
/// number of edges (half-open rule on latitude, so a ray through a vertex counts once).
enum PolygonKernel {
    @inline(__always)
    static func contains(x: Double, y: Double, blocks: UnsafePointer<SIMD4<Double>>, from s: Int, to e: Int) -> Bool {
        var crossings = SIMD4<Int64>(repeating: 0)
        let px = SIMD4<Double>(repeating: x)
        let py = SIMD4<Double>(repeating: y)
        let one = SIMD4<Int64>(repeating: 1)
        let zero = SIMD4<Int64>(repeating: 0)
        var i = s
        while i < e {
            let ax = blocks[i]
            let ay = blocks[i + 1]
            let bx = blocks[i + 2]
            let by = blocks[i + 3]
            let orient = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
            let onLine = orient .== 0
            if any(onLine) {
                let inBox =
                    (px .>= pointwiseMin(ax, bx)) .& (px .<= pointwiseMax(ax, bx))
                    .& (py .>= pointwiseMin(ay, by)) .& (py .<= pointwiseMax(ay, by))
                if any(onLine .& inBox) { return true }
            }
            let straddle = (ay .> py) .!= (by .> py)
            let crossesRight = straddle .& ((by .> ay) .== (orient .> 0))
            crossings &+= zero.replacing(with: one, where: crossesRight)
            i += 4
        }
        return crossings.wrappedSum() & 1 == 1
    }

    /// The same rule over edges given as indices into a polygon's own vertices (lon, lat pairs):
    /// edge `i` runs from vertex `i` to vertex `i + 1`. One edge at a time, for the indexed layout
    /// of huge polygons, whose bands are short and whose vertices are not laid out in blocks; the
    /// arithmetic is the block kernel's, so both answer alike on the same polygon.
    @inline(__always)
    static func contains(
        x: Double, y: Double, vertices: UnsafePointer<Double>, edges: UnsafePointer<UInt32>, from s: Int, to e: Int
    ) -> Bool {
        var odd = false
        var i = s
        while i < e {
            let v = vertices + 2 * Int(edges[i])
            let ax = v[0]
            let ay = v[1]
            let bx = v[2]
            let by = v[3]
            let orient = (bx - ax) * (y - ay) - (by - ay) * (x - ax)
            if orient == 0 && x >= min(ax, bx) && x <= max(ax, bx) && y >= min(ay, by) && y <= max(ay, by) {
                return true
            }
            if (ay > y) != (by > y) && ((by > ay) == (orient > 0)) { odd.toggle() }
            i += 1
        }
        return odd
    }

    /// The plain scalar reference: the same rule over every edge of every ring, no bands, no SIMD.
    static func referenceContains(x: Double, y: Double, rings: [[(lon: Double, lat: Double)]]) -> Bool {
        var odd = false
        for ring in rings {
            for k in 0..<(ring.count - 1) {
                let (ax, ay) = ring[k]
                let (bx, by) = ring[k + 1]
                let orient = (bx - ax) * (y - ay) - (by - ay) * (x - ax)
                if orient == 0 && x >= min(ax, bx) && x <= max(ax, bx) && y >= min(ay, by) && y <= max(ay, by) {
                    return true
                }
                if (ay > y) != (by > y) && ((by > ay) == (orient > 0)) { odd.toggle() }
            }
        }
        return odd
    }
}
