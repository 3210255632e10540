/// Splits a byte stream into lines in one fixed buffer, allocated once: a line is handed out as a
/// view into the buffer, valid only during the callback, so that reading a report allocates
/// nothing.
///
/// The buffer is bounded: a line longer than `capacity` (a broken or hostile peer sending
/// megabytes without a line feed) is dropped whole, up to its line feed, and counted; the stream
/// carries on with the next line.
public final class LineBuffer {
    public let capacity: Int
    private let storage: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0
    /// Inside a line that has already overflowed: drop bytes until its line feed.
    private var discarding = false
    /// Lines dropped for being longer than `capacity`.
    public private(set) var oversizedLines = 0

    public init(capacity: Int = 65536) {
        self.capacity = max(capacity, 16)
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: self.capacity, alignment: 16)
    }

    deinit { storage.deallocate() }

    /// Forgets a partial line (after a reconnect: the new stream starts fresh).
    public func reset() {
        start = 0
        end = 0
        discarding = false
    }

    /// Room for the next read, at the end of what is buffered (compacting first when needed).
    public func freeSpace() -> UnsafeMutableRawBufferPointer {
        if start > 0 {
            if start < end {
                storage.baseAddress!.copyMemory(from: storage.baseAddress! + start, byteCount: end - start)
            }
            end -= start
            start = 0
        }
        if end == capacity {
            // A full buffer without a line feed: this line is too long.
            oversizedLines += 1
            discarding = true
            end = 0
        }
        return UnsafeMutableRawBufferPointer(rebasing: storage[end...])
    }

    /// Takes `count` bytes just read into `freeSpace()`, and hands out every line they complete,
    /// without its CR LF (or LF).
    public func commit(_ count: Int, _ line: (UnsafeRawBufferPointer) -> Void) {
        let scanFrom = end
        end += count
        var index = scanFrom
        while index < end {
            guard storage[index] == 0x0A else {
                index += 1
                continue
            }
            if discarding {
                discarding = false
            } else {
                var last = index
                if last > start, storage[last - 1] == 0x0D { last -= 1 }
                line(UnsafeRawBufferPointer(rebasing: storage[start..<last]))
            }
            index += 1
            start = index
        }
        if discarding {
            // Nothing of an overflowed line is kept.
            start = 0
            end = 0
        } else if start == end {
            start = 0
            end = 0
        }
    }
}
