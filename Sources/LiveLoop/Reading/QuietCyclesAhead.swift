import Synchronization

/// How many of the receiver's next cycles the engine foresees raise no event: the reader may sleep
/// through them (`CyclePacer`) and read them with the cycle after, in one wake-up instead of one
/// each (docs/performance.md, "Live cost"). Set by the engine's turn on the reader's thread after
/// each fix, and cleared when that turn is refused and after every round of the engine thread's
/// (which may change the fences), so that a stale foresight never stands for the fix just read. Only a hint: the fixes slept through are still
/// read and processed, in order, only later.
public final class QuietCyclesAhead: Sendable {
    /// The most the engine is asked for: five cycles in one wake-up at 10 Hz.
    public static let most = 4

    private let cycles = Atomic<Int>(0)

    public init() {}

    public func set(_ count: Int) { cycles.store(min(max(count, 0), Self.most), ordering: .relaxed) }

    public var count: Int { cycles.load(ordering: .relaxed) }
}
