/// Point-in-polygon over a run of edges in struct-of-arrays form, four edges per step with
/// `SIMD4<Double>` (SSE2/AVX on x86-64, NEON on ARM), the tail one edge at a time with the same
/// arithmetic. Double lanes give exactly the double-precision reference answer.
///
/// Rule: the point is inside when it lies on an edge (orientation exactly 0 and inside the edge's
/// box: vertices, edges and hole edges count as inside), else when a ray towards +lon crosses an odd
/// number of edges (half-open rule on latitude, so a ray through a vertex counts once).
enum PolygonKernel {
    @inline(__always)
    static func contains(x: Double, y: Double, x1: UnsafePointer<Double>, y1: UnsafePointer<Double>,
                         x2: UnsafePointer<Double>, y2: UnsafePointer<Double>, from s: Int, to e: Int) -> Bool {
        var i = s
        var crossings = SIMD4<Int64>(repeating: 0)
        let px = SIMD4<Double>(repeating: x), py = SIMD4<Double>(repeating: y)
        let one = SIMD4<Int64>(repeating: 1), zero = SIMD4<Int64>(repeating: 0)
        while i + 4 <= e {
            let ax = UnsafeRawPointer(x1 + i).loadUnaligned(as: SIMD4<Double>.self)
            let ay = UnsafeRawPointer(y1 + i).loadUnaligned(as: SIMD4<Double>.self)
            let bx = UnsafeRawPointer(x2 + i).loadUnaligned(as: SIMD4<Double>.self)
            let by = UnsafeRawPointer(y2 + i).loadUnaligned(as: SIMD4<Double>.self)
            let orient = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
            let onLine = orient .== 0
            if any(onLine) {
                let inBox = (px .>= pointwiseMin(ax, bx)) .& (px .<= pointwiseMax(ax, bx))
                    .& (py .>= pointwiseMin(ay, by)) .& (py .<= pointwiseMax(ay, by))
                if any(onLine .& inBox) { return true }
            }
            let straddle = (ay .> py) .!= (by .> py)
            let crossesRight = straddle .& ((by .> ay) .== (orient .> 0))
            crossings &+= zero.replacing(with: one, where: crossesRight)
            i += 4
        }
        var odd = crossings.wrappedSum() & 1 == 1
        while i < e {
            let ax = x1[i], ay = y1[i], bx = x2[i], by = y2[i]
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
                let (ax, ay) = ring[k], (bx, by) = ring[k + 1]
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
