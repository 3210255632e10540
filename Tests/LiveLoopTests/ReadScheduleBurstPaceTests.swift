import Receivers
import Testing

@testable import LiveLoop

/// The reader sleeps through the rest of an epoch's burst of sentences, and through whole epochs once
/// their period is steady (docs/performance.md, "Live cost"). Each test plays a wire: bursts of
/// sentences at the line rate, handed over every `granularity` seconds as a UART driver does, read
/// by a loop that sleeps where `BurstPace` says and otherwise wakes when bytes come.
@Suite struct ReadScheduleBurstPaceTests {
    static let rmc = Array("$GPRMC,081836,A,3751.65,S,14507.36,E,000.0,360.0,130998,011.3,E*62\r\n".utf8)
    static let gga = Array("$GPGGA,081836,3751.65,S,14507.36,E,1,05,1.5,280.2,M,-34.0,M,,*75\r\n".utf8)
    static let epoch = rmc + gga
    /// 57600 baud.
    static let rate = 5760.0

    struct Outcome {
        /// Reads per burst, and how long after its last byte came each burst was read whole.
        var reads: [Int]
        var lateness: [Double]
    }

    /// Plays `bursts` (start time, bytes); `paced`: at the line rate, else each burst all at once.
    func play(
        _ arrival: inout ReadSchedule.BurstPace, _ bursts: [(start: Double, bytes: [UInt8])], paced: Bool = true,
        granularity: Double = 0.002
    ) -> Outcome {
        let rate = arrival.bytesPerSecond
        // When each byte is handed over, and which burst it ends (if it is a burst's last).
        var times: [Double] = []
        var bytes: [UInt8] = []
        var burstOf: [Int] = []
        for (index, burst) in bursts.enumerated() {
            for offset in burst.bytes.indices {
                let onWire = paced ? burst.start + Double(offset + 1) / rate : burst.start
                times.append(paced ? (onWire / granularity).rounded(.up) * granularity : onWire)
                bytes.append(burst.bytes[offset])
                burstOf.append(index)
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
            for index in next..<end where index == bytes.count - 1 || burstOf[index + 1] != burstOf[index] {
                outcome.lateness.append(now - times[index])
            }
            let pause = Array(bytes[next..<end]).withUnsafeBytes { arrival.observe($0, at: now) }
            next = end
            now += pause ?? 0
        }
        return outcome
    }

    func steady(_ count: Int, period: Double = 0.1, from start: Double = 0, _ bytes: [UInt8] = epoch)
        -> [(start: Double, bytes: [UInt8])]
    {
        (0..<count).map { (start + Double($0) * period, bytes) }
    }

    @Test func aBurstSeenBeforeIsReadInTwoWakeUpsAndNotLate() {
        var arrival = ReadSchedule.BurstPace(bytesPerSecond: Self.rate)
        let warmUp = play(&arrival, steady(3))
        #expect(warmUp.reads[0] == (Self.epoch.count + 11) / 12, "the first burst is read as it comes")
        #expect(arrival.expectedBurst == Self.epoch.count)
        let outcome = play(&arrival, steady(40, from: 0.3))
        // The first bytes, the foretold end, and the last chunk the driver held back a little longer.
        #expect(outcome.reads.filter { $0 > 3 }.isEmpty && outcome.reads.reduce(0, +) >= 80, "\(outcome.reads)")
        #expect(outcome.lateness.allSatisfy { $0 <= 1e-9 }, "\(outcome.lateness)")
    }

    /// Opened in the middle of a burst, the reader does not take the part it saw for an epoch.
    @Test func aBurstJoinedHalfwayForetellsNothing() {
        var arrival = ReadSchedule.BurstPace(bytesPerSecond: Self.rate)
        let half = Array(Self.epoch[60...])
        _ = play(&arrival, [(0, half)] + steady(3, from: 0.1))
        #expect(arrival.expectedBurst == Self.epoch.count)
    }

    @Test func aBurstThatComesLateOrLongerIsReadAsItsRestComes() {
        var arrival = ReadSchedule.BurstPace(bytesPerSecond: Self.rate)
        _ = play(&arrival, steady(8))
        // The receiver's clock jumps 30 ms; every fifth epoch carries one more sentence.
        let bursts = (0..<40).map { index in
            (0.83 + Double(index) * 0.1, index % 5 == 0 ? Self.epoch + Self.rmc : Self.epoch)
        }
        let outcome = play(&arrival, bursts)
        #expect(outcome.lateness.allSatisfy { $0 <= 1e-9 }, "\(outcome.lateness)")
        #expect(arrival.expectedBurst == Self.epoch.count, "the shorter epochs are not waited on for the longer")
        // Three reads an epoch, and those for the rest of the longer ones as it comes.
        #expect(outcome.reads.reduce(0, +) <= 40 * 3 + 8 * (Self.rmc.count + 11) / 12, "\(outcome.reads)")
    }

    /// What a program writes to a pseudo-terminal all at once (the latency benchmark) foretells
    /// nothing about the next write: sleeping would only delay it.
    @Test func burstsThatCameAllAtOnceForetellNothing() {
        var arrival = ReadSchedule.BurstPace(bytesPerSecond: Self.rate)
        let outcome = play(&arrival, steady(20, period: 0.01), paced: false)
        #expect(outcome.reads == Array(repeating: 1, count: 20))
        #expect(outcome.lateness.allSatisfy { $0 == 0 })
        #expect(arrival.expectedBurst == nil)
        // Also when the kernel hands the same write over in two pieces.
        var split = ReadSchedule.BurstPace(bytesPerSecond: Self.rate)
        for index in 0..<6 {
            let time = Double(index) * 0.05
            let first = Array(Self.epoch[0..<30]).withUnsafeBytes { split.observe($0, at: time) }
            let rest = Array(Self.epoch[30...]).withUnsafeBytes { split.observe($0, at: time + 0.0001) }
            #expect(first == nil && rest == nil, "epoch \(index)")
        }
    }

    @Test func noLineRateOrASaturatedLineForetellsNothing() {
        var usb = ReadSchedule.BurstPace(bytesPerSecond: 0)
        #expect(Self.epoch.withUnsafeBytes { usb.observe($0, at: 0) } == nil)
        // A line that never falls silent is one endless burst: nothing to learn, each chunk read.
        var saturated = ReadSchedule.BurstPace(bytesPerSecond: Self.rate)
        let wire = Double(Self.epoch.count) / Self.rate
        let outcome = play(&saturated, steady(20, period: wire))
        #expect(outcome.lateness.allSatisfy { $0 == 0 })
        #expect(saturated.expectedBurst == nil)
        // Sleeps are capped so that stop() is seen.
        var slow = ReadSchedule.BurstPace(bytesPerSecond: 10)
        _ = play(&slow, steady(3, period: 100), granularity: 0.1)
        #expect(slow.expectedBurst == Self.epoch.count)
        #expect(
            Self.epoch[0..<1].withUnsafeBytes { slow.observe($0, at: 300.1) } == ReadSchedule.BurstPace.longestSleep)
    }
}
