/// The order in which a batch of points is queried: by their cell of the finest grid level, so
/// that consecutive queries read the same cell entries and the same fences while the caches still
/// hold them. In input order, points spread over a region touch a different part of the index at
/// every query; on 1 M points x 10k mixed fences (an index of 12.7 MB) the queries took half the
/// time in cell order (docs/performance.md).
///
/// A counting sort, stable (points of one bucket keep their input order), in parts that threads
/// run side by side: each part counts the buckets of its share of the input (`count`), one thread
/// turns the counts into places (`place`), then each part moves its share (`scatter`). Points go
/// into a sorted copy with their input indices beside it (`order`): the queries read the copy front
/// to back (a query loop that fetched `points[order[k]]` spent most of its time waiting for those
/// loads). When the level has more cells than the histogram should hold, neighbouring cells of a
/// row share a bucket. Points off the grid go last.
///
/// Unchecked `Sendable`: the parts that run at once write disjoint input ranges of `bucketOf`,
/// their own counters, and disjoint places of `sorted` and `order`.
struct VisitOrder: @unchecked Sendable {
    let points: UnsafeBufferPointer<GeoPoint>
    let grid: GridFrame
    let parts: Int
    let cells: Int
    let buckets: Int
    /// Bucket per input point.
    let bucketOf: UnsafeMutablePointer<Int32>
    /// Per part, `buckets + 1` counters (the last for points off the grid): counts, then places.
    let counters: UnsafeMutablePointer<Int>
    /// The points in visiting order.
    let sorted: UnsafeMutablePointer<GeoPoint>
    /// By place in `sorted`: the input index.
    let order: UnsafeMutablePointer<Int32>

    /// At most this many buckets: the histogram of each part stays in a core's cache.
    static let maxBuckets = 1 << 16

    init(points: UnsafeBufferPointer<GeoPoint>, grid: GridFrame, parts: Int) {
        self.points = points
        self.grid = grid
        self.parts = parts
        cells = grid.cells
        buckets = max(1, min(cells, points.count, Self.maxBuckets))
        bucketOf = .allocate(capacity: points.count)
        counters = .allocate(capacity: parts * (buckets + 1))
        counters.initialize(repeating: 0, count: parts * (buckets + 1))
        sorted = .allocate(capacity: points.count)
        order = .allocate(capacity: points.count)
    }

    /// Frees everything but `sorted` and `order`, which the caller frees after the queries.
    func releaseScratch() {
        bucketOf.deallocate()
        counters.deallocate()
    }

    func inputRange(_ part: Int) -> Range<Int> {
        (points.count * part / parts)..<(points.count * (part + 1) / parts)
    }

    /// Part `part`: the bucket of each of its points, counted.
    func count(part: Int) {
        let counts = counters + part * (buckets + 1)
        for i in inputRange(part) {
            let p = points[i]
            let cell = grid.cell(x: Geodesy.normalizedLongitude(p.lon), y: p.lat)
            // cell < cells, so the bucket is below `buckets`; the product fits an Int easily
            let b = cell < 0 ? buckets : (cells == buckets ? cell : cell * buckets / cells)
            bucketOf[i] = Int32(b)
            counts[b] &+= 1
        }
    }

    /// After every part has counted: each (bucket, part) counter becomes the first place of that
    /// part's points of that bucket (buckets in order, and parts in input order within a bucket).
    func place() {
        var next = 0
        for b in 0...buckets {
            for part in 0..<parts {
                let counter = counters + part * (buckets + 1) + b
                let n = counter.pointee
                counter.pointee = next
                next &+= n
            }
        }
    }

    /// Part `part`, after `place`: its points copied to their places.
    func scatter(part: Int) {
        let places = counters + part * (buckets + 1)
        for i in inputRange(part) {
            let b = Int(bucketOf[i])
            let place = places[b]
            sorted[place] = points[i]
            order[place] = Int32(truncatingIfNeeded: i)
            places[b] = place &+ 1
        }
    }
}
