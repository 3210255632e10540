/// Point queries: which fences contain a point (SPEC §5 rule, exact).
extension FenceSet {
    /// Writes into `hits` the indices (file order, ascending) of the fences containing the point.
    /// No heap allocation unless `hits` must grow past its largest size so far.
    public func fences(containingLat lat: Double, lon: Double, into hits: FenceHits) {
        hits.removeAll()
        collect(lat: lat, lon: Geodesy.normalizedLongitude(lon), into: hits)
        hits.sortUnique()
    }

    /// Whether any fence contains the point.
    public func anyFence(containsLat lat: Double, lon: Double, scratch hits: FenceHits) -> Bool {
        fences(containingLat: lat, lon: lon, into: hits)
        return !hits.isEmpty
    }

    /// Batch path: the fences of every point, appended to `out` (cleared first).
    public func fences(containing points: UnsafeBufferPointer<GeoPoint>, into out: inout FenceBatchHits,
                       scratch hits: FenceHits) {
        out.offsets.removeAll(keepingCapacity: true)
        out.fences.removeAll(keepingCapacity: true)
        out.offsets.reserveCapacity(points.count + 1)
        out.offsets.append(0)
        for p in points {
            hits.removeAll()
            collect(lat: p.lat, lon: Geodesy.normalizedLongitude(p.lon), into: hits)
            hits.sortUnique()
            out.fences.append(contentsOf: hits.indices)
            out.offsets.append(out.fences.count)
        }
    }

    public func fences(containing points: [GeoPoint], into out: inout FenceBatchHits, scratch hits: FenceHits) {
        points.withUnsafeBufferPointer { fences(containing: $0, into: &out, scratch: hits) }
    }

    /// One cell per grid level: SIMD over the cell's circles, band-indexed point-in-polygon over its
    /// polygons (after their box test).
    @inline(__always)
    func collect(lat: Double, lon: Double, into hits: FenceHits) {
        var ux = 0.0, uy = 0.0, uz = 0.0, haveUnit = false
        let polygons = self.polygons
        for level in levels {
            let cell = level.cell(x: lon, y: lat)
            if cell < 0 { continue }
            let cs = Int(level.circleStart[cell]), ce = Int(level.circleStart[cell + 1])
            if cs < ce {
                if !haveUnit {
                    (ux, uy, uz) = Geodesy.unitVector(lat: lat, lon: lon)
                    haveUnit = true
                }
                let fence = level.cfence.base
                CircleKernel.scan(ux: ux, uy: uy, uz: uz, cx: level.cx.base, cy: level.cy.base, cz: level.cz.base,
                                  limit: level.climit.base, from: cs, to: ce) { hits.append(fence[$0]) }
            }
            let ps = Int(level.polyStart[cell]), pe = Int(level.polyStart[cell + 1])
            var k = ps
            while k < pe {
                let p = Int(level.poly[k])
                if polygons.contains(p, x: lon, y: lat) { hits.append(polygons.fence[p]) }
                k += 1
            }
        }
    }
}
