/// The order in which a batch of points is queried: by their cell of the finest grid level, so
/// that consecutive queries read the same cell entries and the same fences while the caches still
/// hold them. In input order, points spread over a region touch a different part of the index at
/// every query; on 1 M points x 10k mixed fences (an index of a few MB) the queries took half the
/// time in cell order (docs/performance.md).
///
/// A counting sort: two linear passes, stable (points of one bucket keep their input order). When
/// the level has more cells than there are points, neighbouring cells of a row share a bucket, so
/// the histogram never outgrows the batch. Points off the grid go last.
enum VisitOrder {
    /// Copies `points` into `sorted` in visiting order, and writes each point's place there to
    /// `rank` (by input index). The query then reads `sorted` front to back and records its results
    /// in that order, and only the final gather (`rank`) jumps about: a query loop that fetched
    /// `points[order[k]]` spent most of its time waiting for those scattered loads.
    static func sort(
        _ points: UnsafeBufferPointer<GeoPoint>, grid: LevelView, sorted: UnsafeMutablePointer<GeoPoint>,
        rank: UnsafeMutablePointer<Int32>
    ) {
        let n = points.count
        let cells = grid.nx * grid.ny
        let buckets = min(cells, max(n, 1))
        let bucketOf = UnsafeMutablePointer<Int32>.allocate(capacity: n)
        defer { bucketOf.deallocate() }
        // counts[b + 1] is the size of bucket b, for the prefix sum below; the last is off-grid
        let counts = UnsafeMutablePointer<Int>.allocate(capacity: buckets + 2)
        defer { counts.deallocate() }
        counts.initialize(repeating: 0, count: buckets + 2)
        for i in 0..<n {
            let p = points[i]
            let cell = grid.cell(x: Geodesy.normalizedLongitude(p.lon), y: p.lat)
            // cell < cells, so the bucket is below `buckets`; the product fits an Int easily
            let b = cell < 0 ? buckets : (cells == buckets ? cell : cell * buckets / cells)
            bucketOf[i] = Int32(b)
            counts[b + 1] &+= 1
        }
        for b in 0...buckets { counts[b + 1] &+= counts[b] }
        for i in 0..<n {
            let b = Int(bucketOf[i])
            let place = counts[b]
            sorted[place] = points[i]
            rank[i] = Int32(truncatingIfNeeded: place)
            counts[b] = place &+ 1
        }
    }
}
