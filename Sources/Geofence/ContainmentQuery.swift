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
    /// When the index is bigger than a core's cache and the batch is big enough to pay for the
    /// sort, the points are visited in grid-cell order (`VisitOrder`) and the results put back in
    /// input order; otherwise they are queried in input order.
    public func fences(
        containing points: UnsafeBufferPointer<GeoPoint>, into out: inout FenceBatchHits,
        scratch hits: FenceHits
    ) {
        out.offsets.removeAll(keepingCapacity: true)
        out.fences.removeAll(keepingCapacity: true)
        out.offsets.reserveCapacity(points.count + 1)
        out.offsets.append(0)
        hits.removeAll()
        let n = points.count
        guard indexBytes >= Self.sortedBatchMinIndexBytes, n >= Self.sortedBatchMinPoints, n <= Int(Int32.max),
            let finest = levels.first?.view
        else {
            // all results go into `hits` back to back; one copy at the end
            for p in points {
                let start = hits.count
                collect(lat: p.lat, lon: Geodesy.normalizedLongitude(p.lon), into: hits)
                hits.sortUnique(from: start)
                out.offsets.append(hits.count)
            }
            out.fences.append(contentsOf: hits.indices)
            return
        }
        let sorted = UnsafeMutablePointer<GeoPoint>.allocate(capacity: n)
        defer { sorted.deallocate() }
        let rank = UnsafeMutablePointer<Int32>.allocate(capacity: n)
        defer { rank.deallocate() }
        VisitOrder.sort(points, grid: finest, sorted: sorted, rank: rank)
        // the end of each visited point's fences in `hits`, in visiting order
        let ends = UnsafeMutablePointer<Int>.allocate(capacity: n)
        defer { ends.deallocate() }
        for k in 0..<n {
            let p = sorted[k]
            let first = hits.count
            collect(lat: p.lat, lon: Geodesy.normalizedLongitude(p.lon), into: hits)
            hits.sortUnique(from: first)
            ends[k] = hits.count
        }
        out.fences.reserveCapacity(hits.count)
        let found = hits.storage
        for i in 0..<n {
            let k = Int(rank[i])
            let first = k == 0 ? 0 : ends[k - 1]
            out.fences.append(contentsOf: UnsafeBufferPointer(start: found + first, count: ends[k] - first))
            out.offsets.append(out.fences.count)
        }
    }

    /// Below these the batch is queried in input order (see `fences(containing:into:scratch:)`):
    /// an index this small stays in the caches anyway, and a batch this small does not repay the
    /// sort's passes.
    static let sortedBatchMinIndexBytes = 512 << 10
    static let sortedBatchMinPoints = 4096

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
