import Platform

/// A fixed, immutable run of values behind a raw pointer, so the query kernels read it without
/// bounds checks, retain/release traffic or copy-on-write checks. Built once from an array (or
/// filled in place). Runs of 4 MB or more are 2 MB-aligned and marked for transparent huge pages:
/// a point query into a million-fence index touches a few random cache lines, and with 4 kB pages
/// each would also miss the TLB.
final class FrozenArray<Element>: @unchecked Sendable {
    let base: UnsafeMutablePointer<Element>
    let count: Int
    private let huge: Bool

    init(_ values: [Element]) {
        count = values.count
        (base, huge) = Self.allocate(count)
        values.withUnsafeBufferPointer { source in
            if let address = source.baseAddress { base.initialize(from: address, count: count) }
        }
    }

    /// Takes over memory from `malloc`/`realloc` (a `GrowableBuffer`), without copying it; big runs
    /// are marked for transparent huge pages where they are 2 MB-aligned inside.
    init(adopting base: UnsafeMutablePointer<Element>, count: Int) {
        self.base = base
        self.count = count
        huge = true  // freed with free()
        #if os(Linux)
            let bytes = count * MemoryLayout<Element>.stride
            if bytes >= 4 << 20 {
                let hugePage = 2 << 20
                let start = (Int(bitPattern: base) + hugePage - 1) & ~(hugePage - 1)
                let end = (Int(bitPattern: base) + bytes) & ~(hugePage - 1)
                if end > start { adviseHugePages(UnsafeMutableRawPointer(bitPattern: start)!, count: end - start) }
            }
        #endif
    }

    init(repeating value: Element, count: Int) {
        self.count = count
        (base, huge) = Self.allocate(count)
        base.initialize(repeating: value, count: count)
    }

    /// Room for `count` values that the caller writes, every one, before reading any: no pass that
    /// fills it first (a country's corridor grid is 120 MB). Only for trivial values.
    init(unfilledCount count: Int) {
        self.count = count
        (base, huge) = Self.allocate(count)
    }

    static func allocate(_ count: Int) -> (UnsafeMutablePointer<Element>, Bool) {
        let bytes = max(count, 1) * MemoryLayout<Element>.stride
        #if os(Linux)
            let hugePage = 2 << 20
            if bytes >= 4 << 20 {
                let size = (bytes + hugePage - 1) & ~(hugePage - 1)
                if let p = allocateAligned(size, alignment: hugePage) {
                    adviseHugePages(p, count: size)
                    return (p.bindMemory(to: Element.self, capacity: max(count, 1)), true)
                }
            }
        #endif
        return (.allocate(capacity: max(count, 1)), false)
    }

    deinit {
        base.deinitialize(count: count)
        if huge { free(base) } else { base.deallocate() }
    }

    @inline(__always) subscript(i: Int) -> Element {
        get { base[i] }
        set { base[i] = newValue }
    }

    var bytes: Int { count * MemoryLayout<Element>.stride }
}

extension FrozenArray where Element: BitwiseCopyable {
    /// Takes over a `GrowableBuffer`'s memory (left empty), without copying it.
    convenience init(taking buffer: GrowableBuffer<Element>) {
        let (base, count) = buffer.take()
        self.init(adopting: base, count: count)
    }
}
