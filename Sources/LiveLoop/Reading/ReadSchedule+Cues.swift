import Synchronization

extension ReadSchedule {
    /// What the rest of the program tells the reader's schedule between two reads: the cycles the
    /// decoder saw end in the bytes just handed over, whether it left one open whose end it cannot
    /// see, and how many of the next cycles the engine foresees raise no event.
    ///
    /// The only part of the schedule that is shared. The decoder's notes are made on the reader's
    /// thread, inside its handler, and taken by the schedule as soon as the handler returns; the
    /// engine's foresight is set by the reader's own turn at the engine (on the reader's thread
    /// too) and cleared by the engine thread after each of its rounds, which may change the fences,
    /// so that a stale foresight never stands for the fix just read. Atomics, relaxed: each is a
    /// count or a flag read on its own, and the foresight only a hint (the fixes slept through are
    /// still read and processed, in order, only later).
    public final class Cues: Sendable {
        /// The most quiet cycles the engine is asked for: five cycles in one wake-up at 10 Hz.
        public static let mostQuietCycles = 4

        private let cyclesEnded = Atomic<Int>(0)
        private let cycleOpen = Atomic<Bool>(false)
        private let quietCycles = Atomic<Int>(0)

        public init() {}

        /// The bytes just handed over completed a cycle of the receiver (a fix, or a cycle without
        /// one): the reader then sleeps until the next cycle should have ended.
        public func noteCycleEnded() { cyclesEnded.add(1, ordering: .relaxed) }

        /// The bytes just handed over leave a receiver cycle open whose end the decoder cannot see
        /// in them (its last sentence is not known yet): the reader then reports `.quiet` should
        /// the line stay silent for `quietGap` after them.
        public func noteCycleOpen() { cycleOpen.store(true, ordering: .relaxed) }

        /// How many of the receiver's next cycles cannot raise an event (0 when that is not known):
        /// the reader sleeps through them and reads them with the cycle after, in one wake-up
        /// instead of one each (docs/performance.md, "Live cost").
        public func foreseeQuietCycles(_ count: Int) {
            quietCycles.store(min(max(count, 0), Self.mostQuietCycles), ordering: .relaxed)
        }

        public var quietCyclesAhead: Int { quietCycles.load(ordering: .relaxed) }

        func takeCyclesEnded() -> Int { cyclesEnded.exchange(0, ordering: .relaxed) }

        func takeCycleOpen() -> Bool { cycleOpen.exchange(false, ordering: .relaxed) }
    }
}
