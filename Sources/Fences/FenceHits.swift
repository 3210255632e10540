import Platform

/// A caller-owned, reusable list of fence indices (file order) that queries write into. It grows
/// only when a query finds more fences than it has ever held, so in steady state a query allocates
/// nothing. Not thread-safe: one query at a time writes it (a debug build stops when two overlap),
/// so each thread that queries keeps its own.
public final class FenceHits: @unchecked Sendable {
    public internal(set) var count = 0
    /// Brackets each query that writes the list.
    let writer = OneThreadAtATime("FenceHits")
    var storage: UnsafeMutablePointer<Int32>
    var capacity: Int

    public init(capacity: Int = 64) {
        self.capacity = max(capacity, 4)
        storage = .allocate(capacity: self.capacity)
    }

    deinit { storage.deallocate() }

    /// Fence indices found by the last query, ascending (file order), each once.
    public var indices: UnsafeBufferPointer<Int32> { UnsafeBufferPointer(start: storage, count: count) }

    public subscript(i: Int) -> Int { Int(storage[i]) }

    public var isEmpty: Bool { count == 0 }

    public func removeAll() { count = 0 }

    @inline(__always)
    func append(_ fence: Int32) {
        if count == capacity { grow() }
        storage[count] = fence
        count += 1
    }

    func grow() {
        let bigger = UnsafeMutablePointer<Int32>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = bigger
        capacity *= 2
    }

    /// Sorts from `start` on and drops duplicates (a circle across the antimeridian sits in two
    /// boxes). Insertion sort: the lists are short.
    @inline(__always)
    func sortUnique(from start: Int = 0) {
        if count - start < 2 { return }
        var i = start + 1
        while i < count {
            let v = storage[i]
            var j = i - 1
            while j >= start && storage[j] > v {
                storage[j + 1] = storage[j]
                j -= 1
            }
            storage[j + 1] = v
            i += 1
        }
        var w = start + 1
        for k in (start + 1)..<count where storage[k] != storage[w - 1] {
            storage[w] = storage[k]
            w += 1
        }
        count = w
    }

    public var array: [Int] { indices.map { Int($0) } }
}

/// A point in degrees.
public struct GeoPoint: Sendable, Equatable {
    public var lat: Double, lon: Double
    public init(lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }
}
