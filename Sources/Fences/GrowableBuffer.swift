import Platform

/// A growable run of plain values in one `malloc` block, grown with `realloc` and handed over to a
/// `FrozenArray` without a copy. For the polygon vertices and edge lists of huge borders (hundreds
/// of MB): an `Array` grows by allocating a new buffer and copying, so its peak is twice its size
/// and every page is zeroed twice, and freezing it copies it once more. `realloc` of a large block
/// moves pages (`mremap` on Linux) instead of copying them, and new pages are touched once.
///
/// The pointer, count and capacity sit behind a pointer rather than in stored properties: a
/// class's stored `var` costs a dynamic exclusivity check on every access, and `append` is called
/// once per coordinate of a 200 MB file.
final class GrowableBuffer<Element: BitwiseCopyable> {
    private struct State {
        var base: UnsafeMutablePointer<Element>?
        var count: Int
        var capacity: Int
    }
    private let state: UnsafeMutablePointer<State>
    /// Called before the elements move to a bigger block (someone else may be reading them).
    var beforeMove: (() -> Void)?

    init() {
        state = .allocate(capacity: 1)
        state.initialize(to: State(base: nil, count: 0, capacity: 0))
    }

    deinit {
        free(state.pointee.base)
        state.deallocate()
    }

    /// The first element; nil until something was appended. Moves when the buffer grows.
    var base: UnsafeMutablePointer<Element>? { state.pointee.base }
    var count: Int { state.pointee.count }

    /// Room for `total` elements (no growth until then), if the address space allows: a hint, so
    /// a refusal (a big file on a 32-bit system) leaves the buffer as it was, growing as it goes.
    func reserve(_ total: Int) {
        guard total > state.pointee.capacity else { return }
        if state.pointee.base != nil { beforeMove?() }
        guard let p = realloc(state.pointee.base, total * MemoryLayout<Element>.stride) else { return }
        state.pointee.base = p.bindMemory(to: Element.self, capacity: total)
        state.pointee.capacity = total
    }

    private func resize(_ newCapacity: Int) {
        if state.pointee.base != nil { beforeMove?() }
        guard let p = realloc(state.pointee.base, max(newCapacity, 1) * MemoryLayout<Element>.stride) else {
            fatalError("out of memory growing a \(newCapacity)-element buffer")
        }
        state.pointee.base = p.bindMemory(to: Element.self, capacity: newCapacity)
        state.pointee.capacity = newCapacity
    }

    private func grow(toHold n: Int) {
        resize(max(n, state.pointee.capacity * 2, 1024))
    }

    /// `n` more elements at the end, left for the caller to fill; returns the first of them.
    func appendUninitialized(count n: Int) -> UnsafeMutablePointer<Element> {
        let old = state.pointee.count
        if old + n > state.pointee.capacity { grow(toHold: old + n) }
        state.pointee.count = old + n
        return state.pointee.base! + old
    }

    /// `n` copies of `value` at the end.
    func append(repeating value: Element, count n: Int) {
        appendUninitialized(count: n).initialize(repeating: value, count: n)
    }

    @inline(__always)
    func append(_ value: Element) {
        let old = state.pointee.count
        if old == state.pointee.capacity { grow(toHold: old + 1) }
        (state.pointee.base! + old).initialize(to: value)
        state.pointee.count = old + 1
    }

    /// Drops the elements from `n` on (the memory stays, for the next appends).
    func removeLast(from n: Int) {
        precondition(n >= 0 && n <= state.pointee.count)
        state.pointee.count = n
    }

    /// Hands the memory over, shrunk to fit (`free` it when done); the buffer is left empty.
    func take() -> (base: UnsafeMutablePointer<Element>, count: Int) {
        resize(state.pointee.count)
        let taken = (state.pointee.base!, state.pointee.count)
        state.pointee = State(base: nil, count: 0, capacity: 0)
        return taken
    }
}
