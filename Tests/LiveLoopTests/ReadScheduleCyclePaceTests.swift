import Receivers
import Testing

@testable import LiveLoop

/// Once the receiver's cycle period is known, the reader sleeps from one cycle's end to the next
/// (docs/performance.md, "Live cost"). Each test plays a wire as `ReadScheduleBurstPaceTests` does
/// (bursts at the line rate, handed over every `granularity` seconds), where each burst's cycle
/// ends with its GGA sentence and satellites in view follow, read by a loop that paces itself as
/// `ReadSchedule` does: `BurstPace` for the bursts, `CyclePace` over it.
@Suite struct ReadScheduleCyclePaceTests {
    static let cycle = ReadScheduleBurstPaceTests.rmc + ReadScheduleBurstPaceTests.gga
    static let inView = Array(
        ("$GPGSV,2,1,08,01,40,083,46,02,17,308,41,12,07,344,39,14,22,228,45*75\r\n"
            + "$GPGSV,2,2,08,15,19,061,42,17,51,157,44,22,09,032,37,24,25,184,43*7A\r\n").utf8)
    static let epoch = cycle + inView
    static let rate = ReadScheduleBurstPaceTests.rate

    struct Outcome {
        /// Reads that ended in each burst, and how long after its cycle's last byte came each cycle
        /// was read.
        var reads: [Int]
        var lateness: [Double]
        /// The lateness of the cycles each read found ended, per read that found any.
        var groups: [[Double]] = []
        /// Sleeps that found no byte (the reader then waited on the descriptor): wake-ups too.
        var emptyWakes = 0
        /// Reads observed while the period was not known.
        var unlockedReads = 0
    }

    func play(
        _ pacer: inout ReadSchedule.CyclePace, _ arrival: inout ReadSchedule.BurstPace,
        _ bursts: [(start: Double, bytes: [UInt8])],
        paced: Bool = true, granularity: Double = 0.002, cycleLength: Int = cycle.count, burstsOnly: Bool = false,
        quiet: (Int) -> Int = { _ in 0 }, cycleEnd: ((Int) -> Int?)? = nil
    ) -> Outcome {
        var times: [Double] = []
        var bytes: [UInt8] = []
        var burstOf: [Int] = []
        var endsCycle: [Bool] = []
        for (index, burst) in bursts.enumerated() {
            // The offset of the cycle's last byte in this burst; nil: no cycle ends in it.
            let endOffset: Int? = cycleEnd.map { $0(index) } ?? cycleLength - 1
            for offset in burst.bytes.indices {
                let onWire = paced ? burst.start + Double(offset + 1) / Self.rate : burst.start
                times.append(paced ? (onWire / granularity).rounded(.up) * granularity : onWire)
                bytes.append(burst.bytes[offset])
                burstOf.append(index)
                endsCycle.append(offset == endOffset)
            }
        }
        var outcome = Outcome(reads: Array(repeating: 0, count: bursts.count), lateness: [])
        var now = 0.0
        var next = 0
        while next < bytes.count {
            if times[next] > now { now = times[next] }  // woken by bytes
            var end = next
            while end < bytes.count, times[end] <= now { end += 1 }
            outcome.reads[burstOf[end - 1]] += 1
            var ended = 0
            var group: [Double] = []
            for index in next..<end where endsCycle[index] {
                ended += 1
                outcome.lateness.append(now - times[index])
                group.append(now - times[index])
            }
            if !group.isEmpty { outcome.groups.append(group) }
            let burstPause = Array(bytes[next..<end]).withUnsafeBytes { arrival.observe($0, at: now) }
            let pause =
                burstsOnly
                ? burstPause
                : pacer.observe(
                    cyclesEnded: ended, at: now, burstPause: burstPause, quietCyclesAhead: quiet(burstOf[end - 1]))
            if !burstsOnly, !pacer.isLocked { outcome.unlockedReads += 1 }
            next = end
            guard let pause else { continue }
            now += pause
            if !burstsOnly, next < bytes.count, times[next] > now {
                // The reader's `ReadSchedule.wokeToNothing()`.
                pacer.noteNothingAtWake()
                outcome.emptyWakes += 1
            }
        }
        return outcome
    }

    func steady(_ count: Int, period: Double = 0.1, from start: Double = 0) -> [(start: Double, bytes: [UInt8])] {
        (0..<count).map { (start + Double($0) * period, Self.epoch) }
    }

    @Test func steadyCyclesAreReadInAboutOneWakeUpEachAndOnTime() {
        var pacer = ReadSchedule.CyclePace()
        var arrival = ReadSchedule.BurstPace(bytesPerSecond: Self.rate)
        let learning = play(&pacer, &arrival, steady(30))
        #expect(pacer.isLocked)
        #expect(abs((pacer.period ?? 0) - 0.1) < 0.001)
        #expect(learning.lateness.count == 30)
        let outcome = play(&pacer, &arrival, steady(200, from: 3.0))
        let reads = outcome.reads.reduce(0, +)
        // `BurstPace` alone: two or three a burst. Paced: one, and two for each check of the
        // phase, one cycle in sixteen, 1.5 ms early: 224 (one in eight, 3 ms early, before: 262).
        #expect(reads <= 230, "\(reads) reads for 200 cycles: \(outcome.reads)")
        #expect(outcome.lateness.count == 200)
        #expect(outcome.lateness.allSatisfy { $0 <= 0.001 }, "\(outcome.lateness.max() ?? 0)")
    }

    /// `BurstPace` alone sleeps to the end of the burst, so the fix, complete halfway through it,
    /// waited for the satellites in view; the pacer reads it when its cycle ends.
    @Test func theFixIsNotHeldBackByTheSentencesAfterIt() {
        var unused = ReadSchedule.CyclePace()
        var arrival = ReadSchedule.BurstPace(bytesPerSecond: Self.rate)
        let before = play(&unused, &arrival, steady(70), burstsOnly: true)
        #expect(before.lateness.suffix(40).allSatisfy { $0 > 0.015 }, "the old pacing was late: \(before.lateness)")
        var pacer = ReadSchedule.CyclePace()
        var paced = ReadSchedule.BurstPace(bytesPerSecond: Self.rate)
        _ = play(&pacer, &paced, steady(30))
        let outcome = play(&pacer, &paced, steady(40, from: 3.0))
        #expect(outcome.lateness.allSatisfy { $0 <= 0.001 }, "\(outcome.lateness)")
    }

    /// A cycle that comes late is read as it comes, not a period later, and the pace holds. It
    /// stretches the period measured across it a little, so the cycles after it may be read up to a
    /// few milliseconds late until the next check.
    @Test func aLateCycleIsWaitedFor() {
        var pacer = ReadSchedule.CyclePace()
        var arrival = ReadSchedule.BurstPace(bytesPerSecond: Self.rate)
        _ = play(&pacer, &arrival, steady(30))
        var bursts = steady(60, from: 3.0)
        bursts[20].start += 0.008
        let outcome = play(&pacer, &arrival, bursts)
        #expect(outcome.lateness[20] <= 0.001, "\(outcome.lateness)")
        #expect(outcome.lateness.allSatisfy { $0 <= 0.005 }, "\(outcome.lateness)")
        #expect(outcome.lateness.suffix(20).allSatisfy { $0 <= 0.001 }, "\(outcome.lateness)")
        #expect(pacer.isLocked)
    }

    /// A read held up as the period is learned (the reader's thread kept waiting, or a cycle's
    /// bytes delayed) is an end seen late, never early: whichever cycle it is, even the first one
    /// measured once the period is known, the cycles slept on after it are read within a
    /// millisecond of their end, not as late as it was until the next check.
    @Test func aReadHeldUpWhileLearningDoesNotSkewThePeriod() {
        for held in 0..<12 {
            var pacer = ReadSchedule.CyclePace()
            var arrival = ReadSchedule.BurstPace(bytesPerSecond: Self.rate)
            var bursts = steady(40)
            bursts[held].start += 0.003
            let outcome = play(&pacer, &arrival, bursts)
            #expect(pacer.isLocked, "\(held)")
            #expect(abs((pacer.period ?? 0) - 0.1) < 0.0001, "\(held): \(pacer.period ?? 0)")
            let after = outcome.lateness.dropFirst(12)
            #expect(after.allSatisfy { $0 <= 0.001 }, "\(held): \(after.max() ?? 0)")
        }
    }

    /// A receiver set to another rate: the old period is let go of and the new one learned; no
    /// cycle is read more than a period late meanwhile.
    @Test func aNewRateIsLearned() {
        for newPeriod in [0.2, 0.05] {
            var pacer = ReadSchedule.CyclePace()
            var arrival = ReadSchedule.BurstPace(bytesPerSecond: Self.rate)
            _ = play(&pacer, &arrival, steady(30))
            let outcome = play(&pacer, &arrival, steady(80, period: newPeriod, from: 3.0))
            #expect(pacer.isLocked, "\(newPeriod)")
            #expect(abs((pacer.period ?? 0) - newPeriod) < 0.002, "\(newPeriod): \(pacer.period ?? 0)")
            #expect(outcome.lateness.allSatisfy { $0 <= 0.1 }, "\(newPeriod): \(outcome.lateness.max() ?? 0)")
            #expect(outcome.lateness.suffix(20).allSatisfy { $0 <= 0.001 }, "\(newPeriod): \(outcome.lateness)")
        }
    }

    /// Cycles written all at once at no steady pace (a program feeding a pseudo-terminal) are never
    /// slept on.
    @Test func cyclesAtNoSteadyPaceAreNotSleptOn() {
        var pacer = ReadSchedule.CyclePace()
        var arrival = ReadSchedule.BurstPace(bytesPerSecond: Self.rate)
        var start = 0.0
        var bursts: [(start: Double, bytes: [UInt8])] = []
        for index in 0..<60 {
            bursts.append((start, Self.epoch))
            start += [0.03, 0.11, 0.07, 0.2][index % 4]
        }
        let outcome = play(&pacer, &arrival, bursts, paced: false)
        #expect(!pacer.isLocked)
        #expect(outcome.lateness.allSatisfy { $0 == 0 })
    }

    /// Cycles written whole at a steady pace (a program writing each epoch to a pseudo-terminal at
    /// once) are read as they come, one wake-up each: a sleep would read each late by its slack,
    /// and one that came later than foretold in two wake-ups.
    @Test func cyclesThatComeWholeAreReadAsTheyCome() {
        var pacer = ReadSchedule.CyclePace()
        var arrival = ReadSchedule.BurstPace(bytesPerSecond: Self.rate)
        var random = SplitMix(seed: 3)
        let bursts = (0..<300).map { (Double($0) * 0.1 + random.next() * 0.001, Self.epoch) }
        let outcome = play(&pacer, &arrival, bursts, paced: false)
        #expect(pacer.isLocked)
        #expect(pacer.comesWhole)
        #expect(outcome.lateness.count == 300)
        #expect(outcome.lateness.allSatisfy { $0 == 0 }, "\(outcome.lateness.max() ?? 0)")
        #expect(outcome.reads.allSatisfy { $0 == 1 }, "\(outcome.reads)")
        #expect(outcome.emptyWakes == 0)
    }

    /// A receiver that handed its cycles over in two pieces 0.2 ms apart while the period was
    /// learned (so it is slept on), then whole: its next check wakes before a cycle and finds
    /// nothing. The cycle then read has been measured on its bytes, not found ended before the
    /// check: the pace holds, and the cycles seen whole so are waited for on the descriptor from
    /// then on. Taken for an early end, it doubled the check's margin at each following cycle
    /// until the period was let go of and learned again.
    @Test func aCheckThatFindsNothingMeasuresTheCycleAsItComes() {
        var pacer = ReadSchedule.CyclePace()
        var arrival = ReadSchedule.BurstPace(bytesPerSecond: Self.rate)
        let split = 40
        var pieces: [(start: Double, bytes: [UInt8])] = []
        for index in 0..<20 {
            let start = Double(index) * 0.1
            pieces.append((start, Array(Self.cycle[..<split])))
            pieces.append((start + 0.0002, Array(Self.cycle[split...])))
        }
        let lastOfSecondPiece = Self.cycle.count - split - 1
        _ = play(&pacer, &arrival, pieces, paced: false, cycleEnd: { $0 % 2 == 1 ? lastOfSecondPiece : nil })
        #expect(pacer.isLocked)
        #expect(!pacer.comesWhole)
        let whole: [(start: Double, bytes: [UInt8])] = (20..<220).map { (Double($0) * 0.1 + 0.0002, Self.cycle) }
        let outcome = play(&pacer, &arrival, whole, paced: false)
        #expect(outcome.emptyWakes > 0, "no check woke before a cycle")
        #expect(outcome.unlockedReads == 0, "\(outcome.unlockedReads) reads while the period was not known")
        #expect(pacer.isLocked)
        #expect(pacer.comesWhole)
        #expect(outcome.lateness.suffix(100).allSatisfy { $0 == 0 }, "\(outcome.lateness.suffix(100))")
    }

    @Test func silenceLetsGoOfThePeriod() {
        var pacer = ReadSchedule.CyclePace()
        var arrival = ReadSchedule.BurstPace(bytesPerSecond: Self.rate)
        _ = play(&pacer, &arrival, steady(30))
        #expect(pacer.isLocked)
        pacer.noteSilence()
        #expect(!pacer.isLocked)
    }
}

extension ReadScheduleCyclePaceTests {
    /// A loaded machine: each burst starts up to `jitter` late (a simulator or a driver delayed).
    /// No cycle is read later than the jitter and 2 ms (`BurstPace` alone: the whole tail of the
    /// burst, 24 ms here), in at most two and a half wake-ups a cycle.
    @Test func jitteryCyclesStayCheapAndNearlyOnTime() {
        for jitter in [0.002, 0.005, 0.010] {
            var pacer = ReadSchedule.CyclePace()
            var arrival = ReadSchedule.BurstPace(bytesPerSecond: Self.rate)
            var random = SplitMix(seed: 7)
            let bursts = (0..<400).map { (Double($0) * 0.1 + random.next() * jitter, Self.epoch) }
            let outcome = play(&pacer, &arrival, bursts)
            let reads = outcome.reads.dropFirst(40).reduce(0, +)
            #expect(Double(reads) / 360 <= 2.5, "\(jitter): \(reads) reads")
            #expect(outcome.lateness.dropFirst(40).allSatisfy { $0 <= jitter + 0.002 }, "\(jitter)")
        }
    }
}

/// Reproducible jitter.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
}

/// Cycles the engine foresees quiet are slept through and read with the cycle after, in one wake-up
/// (`ReadSchedule.Cues.foreseeQuietCycles`): at most `longestSleep` at a time, never across a
/// check.
extension ReadScheduleCyclePaceTests {
    @Test func quietCyclesAreReadTogetherAndTheLastOfThemOnTime() {
        var pacer = ReadSchedule.CyclePace()
        var arrival = ReadSchedule.BurstPace(bytesPerSecond: Self.rate)
        _ = play(&pacer, &arrival, steady(30))
        let outcome = play(&pacer, &arrival, steady(200, from: 3.0), quiet: { _ in 4 })
        let reads = outcome.reads.reduce(0, +)
        // Five cycles a read, and a check (two reads of one cycle) in every sixteen: about 60,
        // where every cycle foreseen eventful takes 224 (`steadyCyclesAreReadInAboutOneWakeUpEachAndOnTime`).
        #expect(reads <= 75, "\(reads) reads for 200 cycles")
        #expect(outcome.lateness.count == 200)
        #expect(outcome.groups.allSatisfy { $0.count <= 5 })
        // The last sleep outlasts the bytes played: its cycles are read at its end.
        #expect(outcome.groups.dropLast().allSatisfy { ($0.last ?? 1) <= 0.001 }, "\(outcome.groups)")
        #expect(outcome.lateness.allSatisfy { $0 <= 0.401 }, "\(outcome.lateness.max() ?? 0)")
        #expect(pacer.isLocked)
    }

    /// Once the engine no longer foresees quiet, the next cycle is read as it ends.
    @Test func aQuietStretchEndsAtTheCycleItIsToldOf() {
        var pacer = ReadSchedule.CyclePace()
        var arrival = ReadSchedule.BurstPace(bytesPerSecond: Self.rate)
        _ = play(&pacer, &arrival, steady(30))
        let outcome = play(&pacer, &arrival, steady(200, from: 3.0), quiet: { $0 < 100 ? 4 : 0 })
        #expect(outcome.lateness.count == 200)
        // Cycle 100 may be in the sleep begun after cycle 99; from 105 on each is read as it ends.
        #expect(outcome.lateness.suffix(95).allSatisfy { $0 <= 0.001 }, "\(outcome.lateness.suffix(95))")
        #expect(pacer.isLocked)
    }

    /// A cycle later than foretold at the end of a quiet sleep is waited for on its bytes, and the
    /// period is kept.
    @Test func aLateCycleEndingAQuietSleepIsWaitedFor() {
        var pacer = ReadSchedule.CyclePace()
        var arrival = ReadSchedule.BurstPace(bytesPerSecond: Self.rate)
        _ = play(&pacer, &arrival, steady(30))
        var bursts = steady(100, from: 3.0)
        for late in [24, 52, 77] { bursts[late].start += 0.008 }
        let outcome = play(&pacer, &arrival, bursts, quiet: { _ in 4 })
        #expect(outcome.lateness.count == 100)
        #expect(outcome.groups.dropLast().allSatisfy { ($0.last ?? 1) <= 0.005 }, "\(outcome.groups)")
        #expect(outcome.reads.reduce(0, +) <= 45)
        #expect(pacer.isLocked)
    }

    /// A slower receiver is slept through for no more than `longestSleep`: two cycles at 4 Hz.
    @Test func aQuietSleepIsNeverLongerThanHalfASecond() {
        var pacer = ReadSchedule.CyclePace()
        var arrival = ReadSchedule.BurstPace(bytesPerSecond: Self.rate)
        _ = play(&pacer, &arrival, steady(30, period: 0.25))
        #expect(pacer.isLocked)
        let outcome = play(&pacer, &arrival, steady(60, period: 0.25, from: 8.0), quiet: { _ in 4 })
        #expect(outcome.groups.allSatisfy { $0.count <= 2 }, "\(outcome.groups.map(\.count))")
        #expect(outcome.groups.contains { $0.count == 2 })
        #expect(outcome.lateness.allSatisfy { $0 <= 0.251 })
    }
}
