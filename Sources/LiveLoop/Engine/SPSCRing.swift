import Platform
import Synchronization

/// The fixed-capacity single-producer single-consumer ring between the reader thread and the
/// engine thread (docs/architecture.md).
///
/// - The capacity is fixed at creation and the storage never grows.
/// - `push` never blocks and never waits for the consumer: when the ring is full the new element
///   is dropped and counted in `overflow` (the engine is stalled; the reader must keep draining the
///   port or the kernel's buffer overflows instead, losing bytes mid-sentence).
/// - One thread at a time may push and one thread at a time may pop (the consumer is the engine's
///   turn, which the reader may take); a debug build stops when two overlap (`OneThreadAtATime`).
///
/// The head and tail are monotonically increasing counters (never wrapped, 2^63 elements is
/// centuries at 10 Hz): the producer publishes `tail` with release ordering after writing the slot,
/// the consumer publishes `head` with release ordering after reading it, and each side reads the
/// other's counter with acquire ordering. Elements are moved in and out of their slots, so any
/// type works; trivially copyable ones (a `Fix`) cost a plain copy and never touch the heap.
public final class SPSCRing<Element>: @unchecked Sendable {
    public let capacity: Int
    private let slots: UnsafeMutablePointer<Element>
    private let mask: Int
    private let head = Atomic<Int>(0)
    private let tail = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)
    private let producer = OneThreadAtATime("SPSCRing.push")
    private let consumer = OneThreadAtATime("SPSCRing.pop")

    /// - Parameter capacity: rounded up to a power of two, at least 2.
    public init(capacity: Int) {
        var size = 2
        while size < capacity { size <<= 1 }
        self.capacity = size
        mask = size - 1
        slots = .allocate(capacity: size)
    }

    deinit {
        var head = head.load(ordering: .relaxed)
        let tail = tail.load(ordering: .relaxed)
        while head != tail {
            (slots + (head & mask)).deinitialize(count: 1)
            head += 1
        }
        slots.deallocate()
    }

    /// Producer side. Returns false (and counts the element as overflow) when the ring is full.
    @discardableResult
    public func push(_ element: Element) -> Bool {
        let claim = producer.enter()
        defer { producer.leave(claim) }
        let tail = tail.load(ordering: .relaxed)
        let head = head.load(ordering: .acquiring)
        guard tail - head < capacity else {
            dropped.wrappingAdd(1, ordering: .relaxed)
            return false
        }
        (slots + (tail & mask)).initialize(to: element)
        self.tail.store(tail + 1, ordering: .releasing)
        return true
    }

    /// Consumer side. Nil when the ring is empty.
    public func pop() -> Element? {
        let claim = consumer.enter()
        defer { consumer.leave(claim) }
        let head = head.load(ordering: .relaxed)
        let tail = tail.load(ordering: .acquiring)
        guard head != tail else { return nil }
        let element = (slots + (head & mask)).move()
        self.head.store(head + 1, ordering: .releasing)
        return element
    }

    /// Elements waiting; exact on the consumer's thread, a snapshot elsewhere.
    public var count: Int {
        tail.load(ordering: .acquiring) - head.load(ordering: .acquiring)
    }

    /// Elements dropped because the ring was full, since creation.
    public var overflow: Int { dropped.load(ordering: .relaxed) }
}
