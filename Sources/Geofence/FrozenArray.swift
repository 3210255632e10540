/// A fixed, immutable run of values behind a raw pointer, so the query kernels read it without
/// bounds checks, retain/release traffic or copy-on-write checks. Built once from an array.
final class FrozenArray<Element>: @unchecked Sendable {
    let base: UnsafeMutablePointer<Element>
    let count: Int

    init(_ values: [Element]) {
        count = values.count
        base = .allocate(capacity: max(count, 1))
        values.withUnsafeBufferPointer { source in
            if let address = source.baseAddress { base.initialize(from: address, count: count) }
        }
    }

    init(repeating value: Element, count: Int) {
        self.count = count
        base = .allocate(capacity: max(count, 1))
        base.initialize(repeating: value, count: count)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    @inline(__always) subscript(i: Int) -> Element {
        get { base[i] }
        set { base[i] = newValue }
    }

    var bytes: Int { count * MemoryLayout<Element>.stride }
}
