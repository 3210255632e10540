import Testing

@testable import Serial

/// The reader sleeps through the rest of an epoch's burst of sentences when the last burst came at
/// the wire's pace (docs/performance.md, "Live cost").
@Suite struct BurstArrivalTests {
    let rmc = Array("$GPRMC,081836,A,3751.65,S,14507.36,E,000.0,360.0,130998,011.3,E*62\r\n".utf8)
    let gga = Array("$GPGGA,081836,3751.65,S,14507.36,E,1,05,1.5,280.2,M,-34.0,M,,*75\r\n".utf8)
    var epoch: [UInt8] { rmc + gga }
    /// 57600 baud.
    static let rate = 5760.0

    func observe(_ arrival: inout BurstArrival, _ bytes: ArraySlice<UInt8>, at time: Double) -> Double? {
        Array(bytes).withUnsafeBytes { arrival.observe($0, at: time) }
    }

    /// An epoch as a UART hands it over: a few bytes at a time, each read when its last byte is on
    /// the wire, sleeping where told to (then reading what came meanwhile). Returns the reads.
    @discardableResult
    func paced(_ arrival: inout BurstArrival, _ burst: [UInt8], from start: Double, chunk: Int = 12) -> Int {
        let rate = arrival.bytesPerSecond
        var reads = 0
        var offset = 0
        var now = start + Double(min(chunk, burst.count)) / rate
        while offset < burst.count {
            let onWire = min(burst.count, Int(((now - start) * rate).rounded(.down)))
            let end = max(onWire, min(offset + 1, burst.count))
            reads += 1
            let pause = observe(&arrival, burst[offset..<end], at: now)
            offset = end
            now += pause ?? Double(chunk) / rate
        }
        return reads
    }

    @Test func aBurstSeenBeforeIsReadInTwoWakeUps() {
        var arrival = BurstArrival(bytesPerSecond: Self.rate)
        let first = paced(&arrival, epoch, from: 0)
        #expect(first == (epoch.count + 11) / 12, "the first epoch is read as it comes")
        paced(&arrival, epoch, from: 0.1)
        #expect(arrival.expectedBurst == epoch.count)
        // The third epoch: woken by its first 12 bytes, asleep until its last byte is on the wire.
        let pause = observe(&arrival, epoch[0..<12], at: 0.2 + 12 / Self.rate)
        let expected = Double(epoch.count - 12) / Self.rate
        #expect(pause.map { abs($0 - expected) < 1e-9 } == true, "\(String(describing: pause))")
        #expect(observe(&arrival, epoch[12...], at: 0.2 + Double(epoch.count) / Self.rate) == nil)
        #expect(paced(&arrival, epoch, from: 0.3) == 2)
    }

    @Test func aLongerBurstIsReadAsItsRestComesAndAShorterOneAtTheForetoldEnd() {
        var arrival = BurstArrival(bytesPerSecond: Self.rate)
        paced(&arrival, epoch, from: 0)
        paced(&arrival, epoch, from: 0.1)
        // One more sentence this epoch: after the sleep, its rest is read as it comes, not slept on.
        let longer = epoch + rmc
        #expect(paced(&arrival, longer, from: 0.2) == 2 + (rmc.count + 11) / 12)
        #expect(paced(&arrival, epoch, from: 0.3) == 2, "the shorter epochs are not waited on for it")
        #expect(arrival.expectedBurst == epoch.count)
        // A sentence fewer: one sleep to where the epoch would have ended, no more.
        let start = 0.4
        let pause = observe(&arrival, rmc[0..<12], at: start + 12 / Self.rate)
        #expect(pause.map { abs($0 - Double(epoch.count - 12) / Self.rate) < 1e-9 } == true)
        #expect(observe(&arrival, rmc[12...], at: start + Double(epoch.count) / Self.rate) == nil)
    }

    /// What a program writes to a pseudo-terminal all at once (the latency benchmark) foretells
    /// nothing about the next write: sleeping would only delay it.
    @Test func burstsThatCameAllAtOnceForetellNothing() {
        var arrival = BurstArrival(bytesPerSecond: Self.rate)
        for index in 0..<4 {
            let time = Double(index) * 0.05
            #expect(observe(&arrival, epoch[...], at: time) == nil, "epoch \(index)")
            // Also when the kernel hands the same write over in two pieces.
            #expect(observe(&arrival, epoch[0..<30], at: time + 0.02) == nil, "epoch \(index), split")
            #expect(observe(&arrival, epoch[30...], at: time + 0.0201) == nil)
        }
        #expect(arrival.expectedBurst == nil)
    }

    @Test func noLineRateOrASaturatedLineForetellsNothing() {
        var usb = BurstArrival(bytesPerSecond: 0)
        #expect(observe(&usb, epoch[...], at: 0) == nil)
        // A line that never falls silent has no burst to learn: one endless burst.
        var saturated = BurstArrival(bytesPerSecond: Self.rate)
        var time = 0.0
        for _ in 0..<10 {
            #expect(paced(&saturated, epoch, from: time) == (epoch.count + 11) / 12)
            time += Double(epoch.count) / Self.rate
        }
        #expect(saturated.expectedBurst == nil)
        // Sleeps are capped so that stop() is seen.
        var slow = BurstArrival(bytesPerSecond: 10)
        paced(&slow, epoch, from: 0, chunk: 1)
        paced(&slow, epoch, from: 100, chunk: 1)
        #expect(slow.expectedBurst == epoch.count)
        #expect(observe(&slow, epoch[0..<1], at: 200.1) == BurstArrival.longestSleep)
    }
}
