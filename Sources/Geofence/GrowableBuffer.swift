#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A growable run of plain values in one `malloc` block, grown with `realloc` and handed over to a
/// `FrozenArray` without a copy. For the polygon edge blocks of huge borders (hundreds of MB): an
/// `Array` grows by allocating a new buffer and copying, so its peak is twice its size and every
/// page is zeroed twice, and freezing it copies it once more. `realloc` of a large block moves
/// pages (`mremap` on Linux) instead of copying them, and new pages are touched once.
final class GrowableBuffer<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>?
    private(set) var count = 0
    private var capacity = 0

    init() {}

    deinit { free(base) }

    /// Room for `total` elements (no growth until then).
    func reserve(_ total: Int) {
        if total > capacity { resize(total) }
    }

    private func resize(_ newCapacity: Int) {
        guard let p = realloc(base, max(newCapacity, 1) * MemoryLayout<Element>.stride) else {
            fatalError("out of memory growing a \(newCapacity)-element buffer")
        }
        base = p.bindMemory(to: Element.self, capacity: newCapacity)
        capacity = newCapacity
    }

    /// `n` copies of `value` at the end.
    func append(repeating value: Element, count n: Int) {
        if count + n > capacity { resize(max(count + n, capacity * 2, 1024)) }
        (base! + count).initialize(repeating: value, count: n)
        count += n
    }

    func append(_ value: Element) { append(repeating: value, count: 1) }

    /// Hands the memory over, shrunk to fit (`free` it when done); the buffer is left empty.
    func take() -> (base: UnsafeMutablePointer<Element>, count: Int) {
        resize(count)
        let taken = (base!, count)
        base = nil
        count = 0
        capacity = 0
        return taken
    }
}
