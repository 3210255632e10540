/// Point queries: which fences contain a point (SPEC §5 rule, exact).
extension FenceSet {
    /// Writes into `hits` the indices (file order, ascending) of the fences containing the point.
    /// No heap allocation unless `hits` must grow past its largest size so far.
    public func fences(containingLat lat: Double, lon: Double, into hits: FenceHits) {
        hits.removeAll()
        collect(lat: lat, lon: Geodesy.normalizedLongitude(lon), into: hits)
        hits.sortUnique()
    }

    /// Batch path: the fences of every point, into `out` (cleared first), in input order.
    ///
    /// When the index is much bigger than the caches, the points are visited in grid-cell order
    /// (chunks of 64k sorted by finest-level cell), so consecutive queries share cache lines; the
    /// results are put back in input order. Small indexes are queried in input order.
    public func fences(
        containing points: UnsafeBufferPointer<GeoPoint>, into out: inout FenceBatchHits,
        scratch hits: FenceHits
    ) {
        out.offsets.removeAll(keepingCapacity: true)
        out.fences.removeAll(keepingCapacity: true)
        out.offsets.reserveCapacity(points.count + 1)
        out.offsets.append(0)
        guard indexBytes > 16 << 20, points.count >= 1024, let finest = levels.first?.view else {
            // all results go into `hits` back to back; one copy at the end
            hits.removeAll()
            for p in points {
                let start = hits.count
                collect(lat: p.lat, lon: Geodesy.normalizedLongitude(p.lon), into: hits)
                hits.sortUnique(from: start)
                out.offsets.append(hits.count)
            }
            out.fences.append(contentsOf: hits.indices)
            return
        }
        let chunk = 1 << 16
        var keys = [UInt64](repeating: 0, count: min(chunk, points.count))
        var start = [Int](repeating: 0, count: keys.count)
        var length = start
        var base = 0
        while base < points.count {
            let n = min(chunk, points.count - base)
            for i in 0..<n {
                let p = points[base + i]
                let cell = finest.cell(x: Geodesy.normalizedLongitude(p.lon), y: p.lat)
                keys[i] = UInt64(bitPattern: Int64(cell < 0 ? Int(Int32.max) : cell)) << 16 | UInt64(i)
            }
            keys[0..<n].sort()
            hits.removeAll()
            for k in 0..<n {
                let i = Int(keys[k] & 0xFFFF)
                let p = points[base + i]
                let first = hits.count
                collect(lat: p.lat, lon: Geodesy.normalizedLongitude(p.lon), into: hits)
                hits.sortUnique(from: first)
                start[i] = first
                length[i] = hits.count - first
            }
            let found = hits.storage
            for i in 0..<n {
                out.fences.append(contentsOf: UnsafeBufferPointer(start: found + start[i], count: length[i]))
                out.offsets.append(out.fences.count)
            }
            base += n
        }
    }

    public func fences(containing points: [GeoPoint], into out: inout FenceBatchHits, scratch hits: FenceHits) {
        points.withUnsafeBufferPointer { fences(containing: $0, into: &out, scratch: hits) }
    }

    /// One cell per grid level: SIMD over the cell's circles, then the box test and band-indexed
    /// point-in-polygon for its polygons.
    @inline(__always)
    func collect(lat: Double, lon: Double, into hits: FenceHits) {
        var ux = 0.0
        var uy = 0.0
        var uz = 0.0
        var haveUnit = false
        let polygons = self.polygons
        let views = levelViews.base
        for l in 0..<levelViews.count {
            let level = views[l]
            let cell = level.cell(x: lon, y: lat)
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
    }
}
