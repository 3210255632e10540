/// Point queries: which fences contain a point (docs/fences.md rule, exact).
extension FenceSet {
    /// Writes into `hits` the indices (file order, ascending) of the fences containing the point.
    /// No heap allocation unless `hits` must grow past its largest size so far.
    public func fences(containingLat lat: Double, lon: Double, into hits: FenceHits) {
        let claim = hits.writer.enter()
        defer { hits.writer.leave(claim) }
        hits.removeAll()
        collect(lat: lat, lon: Geodesy.normalizedLongitude(lon), into: hits)
        hits.sortUnique()
    }

    /// One cell per grid level: SIMD over the cell's circles, then the box test and band-indexed
    /// point-in-polygon for its polygons; then one cell per corridor level, the arc test for its
    /// segments (a corridor may be hit by several of its segments: the caller sorts and drops repeats).
    @inline(__always)
    func collect(lat: Double, lon: Double, into hits: FenceHits) {
        var ux = 0.0
        var uy = 0.0
        var uz = 0.0
        var haveUnit = false
        let polygons = self.polygons
        let corridors = self.corridors
        let views = levelViews.base
        for l in 0..<levelViews.count {
            let level = views[l]
            let cell = level.frame.cell(x: lon, y: lat)
            if cell < 0 { continue }
            let cs = Int(level.starts[2 * cell])
            let ps = Int(level.starts[2 * cell + 1])
            let ce = Int(level.starts[2 * cell + 2])
            let pe = Int(level.starts[2 * cell + 3])
            if cs < ce {
                if !haveUnit {
                    (ux, uy, uz) = Geodesy.unitVector(lat: lat, lon: lon)
                    haveUnit = true
                }
                let fence = level.cfence
                CircleKernel.scan(ux: ux, uy: uy, uz: uz, blocks: level.cblocks, from: cs, to: ce) {
                    hits.append(fence[$0])
                }
            }
            var k = ps
            while k < pe {
                let b = level.pbox[k]
                if lon >= b[0] && lat >= b[1] && lon <= b[2] && lat <= b[3] {
                    let p = Int(level.poly[k])
                    if polygons.containsInBox(p, x: lon, y: lat) { hits.append(polygons.fence[p]) }
                }
                k += 1
            }
        }
        let corridorViews = self.corridorViews.base
        let reach = corridorReach
        var terms = CorridorRadiusTerms()
        let largestWidening = corridors.largestLatitudeWidening
        for l in 0..<self.corridorViews.count {
            let level = corridorViews[l]
            let cell = level.frame.cell(x: lon, y: lat)
            if cell < 0 { continue }
            let end = Int(level.starts[cell + 1])
            var k = Int(level.starts[cell])
            if k < end && !haveUnit {
                (ux, uy, uz) = Geodesy.unitVector(lat: lat, lon: lon)
                haveUnit = true
            }
            while k < end {
                let v = Int(level.entries[k])
                k += 1
                // the segment's cover box first: a few multiplications, against the sines and
                // cosines of preparing the segment
                let c = corridors.candidate(
                    v, pointLon: lon, pointLat: lat, largestWidening: largestWidening, reach: reach)
                if c < 0 { continue }
                terms.use(corridors.radius[c])
                if corridors.segmentForQuery(v, terms).contains(SIMD3(ux, uy, uz)) {
                    hits.append(corridors.fence[c])
                }
            }
        }
    }
}
