import Dispatch

/// The fences of many points at once (`check --points`): queried by several threads side by side,
/// in grid-cell order when that pays (`VisitOrder`), and read back by input index.
///
/// Each point has a 16-byte slot, by input index, that its query fills: the number of fences and
/// up to three of them inline, or, for more, where they are in the querying thread's overflow
/// list. A query in cell order thus stores its answer straight into input order (a store the
/// processor does not wait for), and the reader walks the slots front to back; a version that kept
/// answers in visiting order and looked each one up by input index at the end spent longer in
/// those lookups than in the sort.
public final class PointBatch: @unchecked Sendable {
    /// The number of points.
    public let count: Int
    /// Four per point: `count, a, b, c` with up to three fences inline, or `count, part, offset
    /// low, offset high`. Written as one 16-byte store.
    let slots: UnsafeMutablePointer<Int32>
    /// Per querying thread, the fences of its points with more than three.
    let overflow: [FenceHits]
    /// `overflow[p].storage`, read without reference counting; fixed once the queries are done.
    let overflowStorage: UnsafeMutablePointer<UnsafeMutablePointer<Int32>>

    /// Below these the points are visited in input order: an index this small stays in the caches
    /// anyway, and a batch this small does not repay the sort's passes.
    static let sortedMinIndexBytes = 512 << 10
    static let sortedMinPoints = 4096

    /// Queries every point with `threads` threads (1: on the caller's).
    public init(_ set: FenceSet, points: UnsafeBufferPointer<GeoPoint>, threads: Int = 1) {
        let n = points.count
        let parts = max(1, min(threads, n))
        let slots = UnsafeMutablePointer<Int32>.allocate(capacity: 4 * max(n, 1))
        let overflow = (0..<parts).map { _ in FenceHits() }
        var order: VisitOrder?
        if set.indexBytes >= Self.sortedMinIndexBytes, n >= Self.sortedMinPoints, n <= Int(Int32.max),
            let finest = set.levels.first?.view.frame ?? set.corridorLevels.first?.view.frame
        {
            let o = VisitOrder(points: points, grid: finest, parts: parts)
            Self.perform(parts) { o.count(part: $0) }
            o.place()
            Self.perform(parts) { o.scatter(part: $0) }
            o.releaseScratch()
            order = o
        }
        if let visit = order.map({ UnsafePointer($0.sorted) }) ?? points.baseAddress {
            let shares = Shares(
                set: set, visit: visit, inputIndex: order.map { UnsafePointer($0.order) }, count: n, parts: parts,
                slots: slots, overflow: overflow)
            Self.perform(parts) { shares.query(part: $0) }
        }
        if let order {
            order.sorted.deallocate()
            order.order.deallocate()
        }
        count = n
        self.slots = slots
        self.overflow = overflow
        overflowStorage = .allocate(capacity: parts)
        for p in 0..<parts { overflowStorage[p] = overflow[p].storage }
    }

    deinit {
        slots.deallocate()
        overflowStorage.deallocate()
    }

    static func perform(_ parts: Int, _ body: @Sendable (Int) -> Void) {
        if parts == 1 { body(0) } else { DispatchQueue.concurrentPerform(iterations: parts, execute: body) }
    }

    /// The fences containing point `i` (input order): ascending file-order indices, each once.
    @inline(__always)
    public func fences(ofPoint i: Int) -> UnsafeBufferPointer<Int32> {
        let slot = slots + 4 * i
        let n = Int(slot[0])
        if n <= 3 { return UnsafeBufferPointer(start: slot + 1, count: n) }
        let offset = Int(UInt32(bitPattern: slot[2])) | Int(slot[3]) << 32
        return UnsafeBufferPointer(start: overflowStorage[Int(slot[1])] + offset, count: n)
    }

    /// Fences found over all points (a point in two fences counts twice).
    public var totalHits: Int { (0..<count).reduce(0) { $0 + Int(slots[4 * $1]) } }
}

/// What the query threads share: each part queries its own range of the visiting order, fills the
/// slots of those points (distinct input indices) and appends to its own overflow list, and
/// `PointBatch.init` reads them after `concurrentPerform` has returned, so the unchecked `Sendable`
/// is sound.
private struct Shares: @unchecked Sendable {
    let set: FenceSet
    let visit: UnsafePointer<GeoPoint>
    /// By visiting position, the input index; nil when visiting in input order.
    let inputIndex: UnsafePointer<Int32>?
    let count: Int
    let parts: Int
    let slots: UnsafeMutablePointer<Int32>
    let overflow: [FenceHits]

    func query(part: Int) {
        let hits = FenceHits()
        let more = overflow[part]
        for k in (count * part / parts)..<(count * (part + 1) / parts) {
            let p = visit[k]
            hits.removeAll()
            set.collect(lat: p.lat, lon: Geodesy.normalizedLongitude(p.lon), into: hits)
            hits.sortUnique()
            let i = inputIndex.map { Int($0[k]) } ?? k
            let n = hits.count
            let slot: SIMD4<Int32>
            if n <= 3 {
                let f = hits.storage
                slot = SIMD4(Int32(n), n > 0 ? f[0] : 0, n > 1 ? f[1] : 0, n > 2 ? f[2] : 0)
            } else {
                let offset = more.count
                for f in hits.indices { more.append(f) }
                slot = SIMD4(
                    Int32(truncatingIfNeeded: n), Int32(part), Int32(bitPattern: UInt32(truncatingIfNeeded: offset)),
                    Int32(truncatingIfNeeded: offset >> 32))
            }
            UnsafeMutableRawPointer(slots + 4 * i).storeBytes(of: slot, as: SIMD4<Int32>.self)
        }
    }
}
