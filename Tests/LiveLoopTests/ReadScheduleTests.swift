import Testing

@testable import LiveLoop

/// The reader's one schedule, as the reader drives it: after each read (once its handler left its
/// cues) and after each wait on the descriptor that ended without bytes. Its parts are played
/// against a wire in `ReadScheduleCyclePaceTests` and `ReadScheduleBurstPaceTests`; here, what the
/// schedule adds: the decoder's and the engine's cues taken at each read, and the quiet-line close.
@Suite struct ReadScheduleTests {
    static let epoch = ReadScheduleBurstPaceTests.epoch
    /// Part of a sentence: a stalled line, not the end of a burst.
    static let halfLine = Array(epoch[0..<20])

    func read(_ bytes: [UInt8], _ schedule: inout ReadSchedule, at time: Double) -> Double? {
        bytes.withUnsafeBytes { schedule.pause(after: $0, readAt: time) }
    }

    @Test func aCycleLeftOpenIsClosedByQuietGapOfSilence() {
        let cues = ReadSchedule.Cues()
        var schedule = ReadSchedule(cues: cues, bytesPerSecond: nil, leadingBytesEndALine: false, at: 0)
        #expect(schedule.longestWait(at: 0) == ReadSchedule.idleWake)
        cues.noteCycleOpen()
        _ = read(Self.epoch, &schedule, at: 10)
        #expect(abs(schedule.longestWait(at: 10.03) - (ReadSchedule.quietGap - 0.03)) < 1e-9)
        #expect(schedule.timedOut(at: 10.05) == .waitsForClose)
        #expect(schedule.timedOut(at: 10 + ReadSchedule.quietGap) == .closesCycle)
        // Closed once: the next silence is the idle wake's.
        #expect(schedule.longestWait(at: 10.2) == ReadSchedule.idleWake)
        #expect(schedule.timedOut(at: 10.6) == .idle)
    }

    @Test func silenceAfterPartOfALineClosesNothing() {
        let cues = ReadSchedule.Cues()
        var schedule = ReadSchedule(cues: cues, bytesPerSecond: nil, leadingBytesEndALine: false, at: 0)
        cues.noteCycleOpen()
        _ = read(Self.halfLine, &schedule, at: 1)
        #expect(schedule.longestWait(at: 1) == ReadSchedule.idleWake)
        #expect(schedule.timedOut(at: 1.5) == .idle)
        // The open cycle is a cue for the read it came with only.
        _ = read(Self.epoch, &schedule, at: 2)
        #expect(schedule.longestWait(at: 2) == ReadSchedule.idleWake)
    }

    /// A cycle left open by the bytes read while the rate was found is closed like any other.
    @Test func theLeadingBytesOfASessionMayLeaveACycleOpen() {
        let cues = ReadSchedule.Cues()
        cues.noteCycleOpen()
        var schedule = ReadSchedule(cues: cues, bytesPerSecond: nil, leadingBytesEndALine: true, at: 5)
        #expect(schedule.timedOut(at: 5 + ReadSchedule.quietGap) == .closesCycle)
    }

    /// Steady cycles at 10 Hz (no line rate), each noted ended by the decoder and handed over in
    /// two reads while the period is learned (so that it is slept on): the reader sleeps a cycle,
    /// then across the cycles the engine foresees quiet, and a cycle again once the engine thread
    /// cleared that foresight.
    @Test func theDecodersAndTheEnginesCuesSetTheSleep() {
        let cues = ReadSchedule.Cues()
        var schedule = ReadSchedule(cues: cues, bytesPerSecond: nil, leadingBytesEndALine: false, at: 0)
        // (when read, cycles ended in the read, the engine's foresight after its turn on them)
        var reads = (1...12).map { (time: Double($0) / 10, ended: 1, quiet: 0) }
        reads[11].quiet = 2
        reads += [(1.5, 3, 0), (1.6, 1, 0)]
        var pauses: [Double?] = []
        for (index, read) in reads.enumerated() {
            let learning = index < 9
            if learning { _ = self.read(Self.halfLine, &schedule, at: read.time - 0.002) }
            for _ in 0..<read.ended { cues.noteCycleEnded() }
            cues.foreseeQuietCycles(read.quiet)
            let bytes = learning ? Array(Self.epoch[Self.halfLine.count...]) : Self.epoch
            pauses.append(self.read(bytes, &schedule, at: read.time))
        }
        #expect(
            pauses[0..<9].allSatisfy { $0 == nil },
            "waits on the bytes until the period is learned and one more end is measured")
        let oneCycle = 0.1 + ReadSchedule.CyclePace.slack
        for index in [9, 10, 12, 13] {
            #expect(abs((pauses[index] ?? 0) - oneCycle) < 1e-6, "read \(index): \(pauses[index] ?? 0)")
        }
        #expect(abs((pauses[11] ?? 0) - (0.3 + ReadSchedule.CyclePace.slack)) < 1e-6, "\(pauses[11] ?? 0)")
    }

    /// Cycles each handed over in one read are waited for on the descriptor, however steady: the
    /// reader wakes once a cycle either way, and as each comes. A quiet stretch the engine foresees
    /// is still slept through.
    @Test func cyclesHandedOverWholeAreNotSleptOnUnlessQuiet() {
        let cues = ReadSchedule.Cues()
        var schedule = ReadSchedule(cues: cues, bytesPerSecond: nil, leadingBytesEndALine: false, at: 0)
        var pauses: [Double?] = []
        for index in 1...20 {
            cues.noteCycleEnded()
            cues.foreseeQuietCycles(index == 20 ? 2 : 0)
            pauses.append(read(Self.epoch, &schedule, at: Double(index) / 10))
        }
        #expect(pauses.dropLast().allSatisfy { $0 == nil }, "\(pauses)")
        #expect(abs((pauses[19] ?? 0) - (0.3 + ReadSchedule.CyclePace.slack)) < 1e-6, "\(pauses[19] ?? 0)")
    }

    /// The engine is never asked for more than a long sleep's worth of quiet cycles.
    @Test func theForesightIsBounded() {
        let cues = ReadSchedule.Cues()
        cues.foreseeQuietCycles(100)
        #expect(cues.quietCyclesAhead == ReadSchedule.Cues.mostQuietCycles)
        cues.foreseeQuietCycles(-1)
        #expect(cues.quietCyclesAhead == 0)
    }
}
