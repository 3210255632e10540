/// When the receiver's next cycle will have ended, so that the reader sleeps from the end of one
/// cycle (the sentence that completes its fix) to the end of the next: one wake-up a cycle instead
/// of one for every few bytes the driver hands over (docs/performance.md, "Live cost").
///
/// A receiver's cycles come at a steady period (its clock is GPS time), so once the period is known
/// the end of the next cycle is foretold: the reader sleeps until then and finds the cycle whole,
/// the fix ready. To stay in phase it does not trust the foretelling for long: every
/// `checkEvery` cycles it wakes `margin` early and waits for the bytes, measuring the end again;
/// a cycle found unfinished at a foretold wake-up is waited for the same way, and measured. A
/// check that finds the cycle already ended means the phase is later than the truth: the margin
/// doubles until a check comes before the end. Periods that disagree, silence, or a cycle far off
/// its time let go of the period, and `BurstArrival` paces the reads until it is learned again.
///
/// Only the decoder knows where a cycle ends (its assembler learns the last timed sentence), so
/// the reader is told after each read whether one ended (`Reader.noteCycleEnded`).
struct CyclePacer {
    /// How the read now being observed was waited for.
    private enum Awaited: Equatable {
        /// The reader was waiting on the descriptor: the read returned as the bytes came.
        case bytes
        /// Asleep for `BurstArrival`: the bytes came at some time during the sleep.
        case burstSleep
        /// Asleep until the foretold end of the cycle.
        case foretold
        /// Asleep until `margin` before the foretold end, to measure the end again.
        case check
    }

    private var awaited = Awaited.bytes
    /// When the last cycles ended, as seen before the period was known, oldest first.
    private var ends: [Double] = []
    /// The cycle period in seconds, once known.
    private(set) var period: Double?
    /// The end of the last cycle: measured, or foretold from the last measured end.
    private var phase = 0.0
    /// The last end measured while waiting on the bytes, and whether there is one since locking.
    private var lastMeasured: Double?
    private var sinceCheck = 0
    private var margin = CyclePacer.baseMargin
    /// How the cycle being waited on bytes for was first woken for, when that found it unfinished.
    private var unfinishedAt: Awaited?
    private var lastWasLate = false

    static let remembered = 9
    /// Periods outside these are not paced: a fast source has nothing to gain, and over half a
    /// second `stop()` would wait.
    static let shortestPeriod = 0.02
    static let longestPeriod = 0.5
    static let checkEvery = 8
    static let baseMargin = 0.003
    /// A foretold wake-up comes this much after the foretold end: the cycle's last chunk may come
    /// a little late, and a wake-up that finds the cycle unfinished costs another.
    static let slack = 0.0003

    var isLocked: Bool { period != nil }

    /// How far from its foretold time a measured cycle end may be and the period still be trusted.
    private func tolerance(_ period: Double) -> Double { max(0.005, period / 10) }

    /// Follows one read returned at `time` (monotonic seconds): `cycleEnded` whether the decoder
    /// completed a cycle with its bytes, `burstPause` the sleep `BurstArrival` would take. Returns
    /// the sleep before the next read (nil: read as soon as bytes come).
    mutating func observe(cycleEnded: Bool, at time: Double, burstPause: Double?) -> Double? {
        guard let period else { return learn(cycleEnded: cycleEnded, at: time, burstPause: burstPause) }
        guard cycleEnded else {
            // Woken too early, or in the middle of a cycle being measured: wait on the bytes.
            if awaited != .bytes { unfinishedAt = awaited }
            awaited = .bytes
            return nil
        }
        switch awaited {
        case .foretold:
            phase += period
            sinceCheck += 1
        case .check:
            // Already ended at a wake-up meant to come before the end: the phase is late. Check
            // again at the next cycle, earlier.
            margin *= 2
            guard margin < period / 2 else { return unlock(burstPause) }
            phase = time
            sinceCheck = Self.checkEvery
        case .bytes, .burstSleep:
            // Measured: the reader was waiting when the cycle's last bytes came. The first
            // measurement after locking sets the phase; later ones must agree with it.
            // A cycle missing in between is a receiver at another rate, or one that lost a beat:
            // learn its pace again either way.
            if lastMeasured != nil, abs(time - phase - period) > tolerance(period) + margin {
                return unlock(burstPause)
            }
            defer { unfinishedAt = nil }
            if lastMeasured != nil, unfinishedAt == .foretold, !lastWasLate {
                // Unfinished when foretold, and read as it came: one late cycle does not move
                // the pace (the next comes on time); a second in a row does.
                lastWasLate = true
                phase += period
                sinceCheck += 1
                return nextWake(after: time)
            }
            lastWasLate = false
            if let last = lastMeasured {
                let span = ((time - last) / period).rounded()
                if span >= 1 { self.period = (time - last) / span }
            }
            lastMeasured = time
            phase = time
            sinceCheck = 0
            margin = Self.baseMargin
        }
        return nextWake(after: time)
    }

    /// The reader waited `idleWake` without a byte: the receiver's cycles stopped.
    mutating func noteSilence() {
        _ = unlock(nil)
    }

    private mutating func nextWake(after time: Double) -> Double? {
        guard let period else { return nil }
        guard lastMeasured != nil else {
            awaited = .bytes
            return nil
        }
        let checking = sinceCheck + 1 >= Self.checkEvery
        let target = phase + period + (checking ? -margin : Self.slack)
        let pause = target - time
        guard pause >= 0.001 else {
            awaited = .bytes
            return nil
        }
        awaited = checking ? .check : .foretold
        return min(pause, Self.longestPeriod)
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
                ends.removeAll()
                guard awaited == .bytes else {
                    // Seen after a sleep, this end is late by an unknown part of it: the next
                    // one is waited for on the bytes, and measured.
                    lastMeasured = nil
                    awaited = .bytes
                    return nil
                }
                lastMeasured = time
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
        lastMeasured = nil
        ends.removeAll()
        awaited = burstPause == nil ? .bytes : .burstSleep
        return burstPause
    }
}
