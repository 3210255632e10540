extension ReadSchedule {
    /// When the receiver's next cycle will have ended, so that the reader sleeps from the end of
    /// one cycle (the sentence that completes its fix) to the end of the next: one wake-up a cycle
    /// instead of one for every few bytes the driver hands over (docs/performance.md, "Live cost").
    ///
    /// A receiver's cycles come at a steady period (its clock is GPS time), so once the period is
    /// known the end of the next cycle is foretold: the reader sleeps until then and finds the
    /// cycle whole, the fix ready. The foretold end is the earliest the cycle's end came in the
    /// last few measured (each carried forward by whole periods), so that a cycle is never read
    /// late by the jitter of the ones before it: a cycle later than that is found unfinished and
    /// waited for on its bytes, as it comes, and measured. Every `checkEvery` cycles the reader
    /// also wakes `margin` before the foretold end, to see whether cycles now end earlier; a check
    /// that finds the cycle already ended doubles the margin for the next one. Periods that
    /// disagree, silence, or a cycle far off its time let go of the period, and `BurstPace` paces
    /// the reads until it is learned again.
    ///
    /// Only the decoder knows where a cycle ends (its assembler learns the last timed sentence), so
    /// the reader is told after each read whether one ended (`Cues.noteCycleEnded`).
    ///
    /// A receiver that hands each cycle over in one read (a program writing whole epochs to a
    /// pseudo-terminal, a USB device sending an epoch in one transfer) is not slept on: waiting on
    /// the descriptor wakes the reader once a cycle too, when the cycle's bytes come, where a sleep
    /// reads it `slack` and the timer's lateness after its end, and a cycle later than foretold costs
    /// the sleep's wake-up and another. How the last cycles came is seen whenever the reader waited
    /// on the descriptor from the end of one cycle to the end of the next: in one read, or in
    /// several (`comesWhole`).
    ///
    /// When the engine foresees that the next cycles cannot raise an event
    /// (`Cues.foreseeQuietCycles`), the reader sleeps through them and reads them with the cycle
    /// after, in one wake-up: up to `longestSleep` at a time; a check, when due, is a sleep of one
    /// cycle as before. A foretold sleep that finds fewer of its cycles ended waits for the rest on
    /// the bytes, as it does for one cycle.
    struct CyclePace {
        /// How the read now being observed was waited for.
        private enum Awaited: Equatable {
            /// The reader was waiting on the descriptor: the read returned as the bytes came.
            case bytes
            /// Asleep for `BurstPace`: the bytes came at some time during the sleep.
            case burstSleep
            /// Asleep until the foretold end of the cycle.
            case foretold
            /// Asleep until `margin` before the foretold end, to measure the end again.
            case check
        }

        private var awaited = Awaited.bytes
        /// The cycles a foretold sleep is for.
        private var cyclesSlept = 1
        /// When the last cycles ended, as seen before the period was known, oldest first.
        private var ends: [Double] = []
        /// The cycle period in seconds, once known.
        private(set) var period: Double?
        /// The end of the last cycle: measured, or foretold.
        private var phase = 0.0
        /// The last cycle ends measured while waiting on the bytes, oldest first (empty right after
        /// locking, until the first is measured).
        private var measured: [Double] = []
        private var sinceCheck = 0
        private var margin = CyclePace.baseMargin
        /// The cycle being waited for on its bytes was woken for by a check.
        private var checkMeasures = false
        /// Reads since the last cycle ended (the one that ended it not counted); nil until a cycle
        /// has ended in this session.
        private var readsSinceEnd: Int?
        /// How the last cycles seen from end to end on the descriptor came, oldest first: true for
        /// one that came in one read.
        private var arrivals: [Bool] = []

        static let remembered = 9
        /// Periods outside these are not paced: a fast source has nothing to gain, and over half a
        /// second `stop()` would wait.
        static let shortestPeriod = 0.02
        static let longestPeriod = 0.5
        /// The longest sleep through several cycles (five at 10 Hz), for the same reason.
        static let longestSleep = 0.52
        /// One check in 16 cycles, 1.5 ms early: each check costs a wake-up or two more than its
        /// cycle would (the bytes of the last 1.5 ms come in a chunk or two). Against one in 8, 3
        /// ms early: 1.07 instead of 1.25 reads a cycle for a steady receiver, 1.2 instead of 1.5
        /// with 2 ms of jitter, the worst lateness the same (`ReadScheduleCyclePaceTests`).
        static let checkEvery = 16
        static let baseMargin = 0.0015
        /// A foretold wake-up comes this much after the foretold end: the cycle's last chunk may
        /// come a little late, and a wake-up that finds the cycle unfinished costs another. Every
        /// cycle that ends on time waits this long to be read, on its way to the console's line:
        /// 0.15 ms woke the reader of a 10 Hz `simulate` on the loaded bench machine 24 times a
        /// second instead of 9 (docs/performance.md, "The page on a phone").
        static let slack = 0.0003

        var isLocked: Bool { period != nil }

        /// The receiver hands its cycles over whole: at least three in four of the last cycles
        /// seen (and four seen) came in one read. Sleeping on such a receiver saves no wake-up.
        var comesWhole: Bool {
            arrivals.count >= 4 && arrivals.count(where: { !$0 }) * 4 <= arrivals.count
        }

        /// How far from its foretold time a measured cycle end may be and the period still be
        /// trusted.
        private func tolerance(_ period: Double) -> Double { max(0.005, period / 10) }

        /// Follows one read returned at `time` (monotonic seconds): `cyclesEnded` how many cycles
        /// the decoder completed with its bytes, `burstPause` the sleep `BurstPace` would take.
        /// Returns the sleep before the next read (nil: read as soon as bytes come).
        /// `quietCyclesAhead`: how many of the next cycles the engine foresees raise no event.
        mutating func observe(
            cyclesEnded: Int, at time: Double, burstPause: Double?, quietCyclesAhead: Int = 0
        ) -> Double? {
            let cycleEnded = cyclesEnded > 0
            noteArrival(cycleEnded: cycleEnded)
            guard let period else { return learn(cycleEnded: cycleEnded, at: time, burstPause: burstPause) }
            // More cycles in one read than slept through: the period is not the receiver's (it was set
            // to a faster rate).
            guard cyclesEnded <= (awaited == .foretold ? cyclesSlept : 1) else { return unlock(burstPause) }
            guard cycleEnded else {
                // Woken before the end (a check, or a cycle later than foretold): wait on the bytes.
                if awaited == .check { checkMeasures = true }
                awaited = .bytes
                return nil
            }
            switch awaited {
            case .foretold:
                for _ in 0..<cyclesEnded { phase = foretoldEnd(after: phase, period) }
                sinceCheck += cyclesEnded
                if cyclesEnded < cyclesSlept {
                    // The last cycle slept through is later than foretold: wait for it on its bytes.
                    awaited = .bytes
                    return nil
                }
            case .check:
                // Already ended at a wake-up meant to come before the end: cycles now end earlier.
                // Check again at the next cycle, earlier.
                margin *= 2
                guard margin < period / 2 else { return unlock(burstPause) }
                phase = foretoldEnd(after: phase, period)
                sinceCheck = Self.checkEvery
            case .bytes, .burstSleep:
                // Measured: the reader was waiting when the cycle's last bytes came. A cycle missing in
                // between is a receiver at another rate, or one that lost a beat: learn its pace again.
                if !measured.isEmpty, abs(time - foretoldEnd(after: phase, period)) > tolerance(period) + margin {
                    return unlock(burstPause)
                }
                if measured.count == Self.remembered { measured.removeFirst() }
                measured.append(time)
                if let first = measured.first, measured.count > 1 {
                    let span = ((time - first) / period).rounded()
                    if span >= 1 { self.period = (time - first) / span }
                }
                phase = time
                if checkMeasures {
                    // The check came before the end: the margin served.
                    checkMeasures = false
                    sinceCheck = 0
                    margin = Self.baseMargin
                } else {
                    sinceCheck += 1
                }
            }
            return nextWake(after: time, quietCyclesAhead: quietCyclesAhead)
        }

        /// The reader waited `idleWake` without a byte: the receiver's cycles stopped.
        mutating func noteSilence() {
            _ = unlock(nil)
        }

        /// The reader woke from the sleep `observe` asked for and found no byte: it waits on the
        /// descriptor, and the read that follows comes as the bytes do. A cycle that read ends was
        /// measured, not found already ended by the wake-up (for a check, not ended early).
        mutating func noteNothingAtWake() {
            if awaited == .check { checkMeasures = true }
            awaited = .bytes
        }

        /// Counts the read being observed towards its cycle, and when it ends one seen from the end
        /// of the one before while the reader waited on the descriptor (a read after a sleep may
        /// hold bytes that came in many pieces), remembers whether it came in one read.
        private mutating func noteArrival(cycleEnded: Bool) {
            guard let reads = readsSinceEnd.map({ $0 + 1 }) else {
                if cycleEnded { readsSinceEnd = 0 }
                return
            }
            guard cycleEnded else {
                readsSinceEnd = reads
                return
            }
            readsSinceEnd = 0
            guard reads > 1 || awaited == .bytes else { return }
            if arrivals.count == Self.remembered { arrivals.removeFirst() }
            arrivals.append(reads == 1)
        }

        /// The foretold end of the cycle after the one that ended at `end`: the earliest of the
        /// measured ends, each carried forward by whole periods.
        private func foretoldEnd(after end: Double, _ period: Double) -> Double {
            var earliest = end + period
            for time in measured {
                let carried = time + (((end - time) / period).rounded() + 1) * period
                earliest = min(earliest, carried)
            }
            return earliest
        }

        private mutating func nextWake(after time: Double, quietCyclesAhead: Int = 0) -> Double? {
            // Two ends measured before the first sleep: one alone may be a read held up (the
            // reader's thread kept waiting), and every cycle foretold from it would be read that
            // much late until the next check. Cycles that come whole are waited for on the
            // descriptor, unless the engine foresees quiet ones to sleep through.
            guard let period, measured.count >= 2, !comesWhole || quietCyclesAhead > 0 else {
                awaited = .bytes
                return nil
            }
            let checking = sinceCheck + 1 >= Self.checkEvery
            cyclesSlept = checking ? 1 : max(1, min(quietCyclesAhead + 1, Int(Self.longestSleep / period)))
            var end = phase
            for _ in 0..<cyclesSlept { end = foretoldEnd(after: end, period) }
            let pause = end + (checking ? -margin : Self.slack) - time
            guard pause >= 0.001 else {
                awaited = .bytes
                return nil
            }
            awaited = checking ? .check : .foretold
            return min(pause, Self.longestSleep)
        }

        private mutating func learn(cycleEnded: Bool, at time: Double, burstPause: Double?) -> Double? {
            if cycleEnded {
                if ends.count == Self.remembered { ends.removeFirst() }
                ends.append(time)
                if let found = steadyPeriod() {
                    period = found
                    phase = time
                    sinceCheck = 0
                    margin = Self.baseMargin
                    checkMeasures = false
                    ends.removeAll()
                    // Seen after a sleep, this end is late by an unknown part of it: the next one is
                    // waited for on the bytes, and measured.
                    measured = awaited == .bytes ? [time] : []
                    return nextWake(after: time)
                }
            }
            awaited = burstPause == nil ? .bytes : .burstSleep
            return burstPause
        }

        /// The period of the remembered ends when they came at one steady pace.
        private func steadyPeriod() -> Double? {
            guard ends.count == Self.remembered else { return nil }
            let gaps = zip(ends.dropFirst(), ends).map { $0 - $1 }
            guard let shortest = gaps.min(), let longest = gaps.max() else { return nil }
            let mean = (ends[ends.count - 1] - ends[0]) / Double(gaps.count)
            guard mean >= Self.shortestPeriod, mean <= Self.longestPeriod, longest - shortest <= tolerance(mean) else {
                return nil
            }
            return mean
        }

        private mutating func unlock(_ burstPause: Double?) -> Double? {
            period = nil
            measured.removeAll()
            ends.removeAll()
            awaited = burstPause == nil ? .bytes : .burstSleep
            return burstPause
        }
    }
}
