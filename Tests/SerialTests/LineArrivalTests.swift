import Testing

@testable import Serial

/// The reader sleeps through the rest of a line it has seen whole before (docs/performance.md).
@Suite struct LineArrivalTests {
    let rmc = Array("$GPRMC,081836,A,3751.65,S,14507.36,E,000.0,360.0,130998,011.3,E*62\r\n".utf8)
    let gga = Array("$GPGGA,081836,3751.65,S,14507.36,E,1,05,1.5,280.2,M,-34.0,M,,*75\r\n".utf8)
    /// 57600 baud.
    static let rate = 5760.0

    func observe(_ arrival: inout LineArrival, _ bytes: ArraySlice<UInt8>, at time: Double = 0) {
        Array(bytes).withUnsafeBytes { arrival.observe($0, at: time) }
    }

    /// A line as a UART hands it over: in two reads, the second when its last byte is on the wire.
    func paced(_ arrival: inout LineArrival, _ line: [UInt8], from start: Double) {
        observe(&arrival, line[0..<10], at: start + 10 / Self.rate)
        observe(&arrival, line[10...], at: start + Double(line.count) / Self.rate)
    }

    @Test func aLineSeenBeforeForetellsItsEnd() {
        var arrival = LineArrival(bytesPerSecond: Self.rate)
        paced(&arrival, rmc, from: 0)
        paced(&arrival, gga, from: 0.02)
        // The next epoch: ten bytes of RMC in, the rest (minus the slack) still coming.
        observe(&arrival, rmc[0..<10])
        #expect(arrival.bytesStillComing == rmc.count - 10 - LineArrival.slack)
        let expected = Double(rmc.count - 10 - LineArrival.slack) / Self.rate
        #expect(arrival.sleep.map { abs($0 - expected) < 1e-9 } == true)
        // Near its end nothing is slept: the last bytes are read as soon as they come.
        observe(&arrival, rmc[10..<(rmc.count - LineArrival.slack)])
        #expect(arrival.bytesStillComing == nil)
        #expect(arrival.sleep == nil)
    }

    @Test func unknownOrEndedLinesAreNotWaitedFor() {
        var arrival = LineArrival(bytesPerSecond: Self.rate)
        observe(&arrival, rmc[0..<20])
        #expect(arrival.bytesStillComing == nil, "a kind not seen whole yet")
        observe(&arrival, rmc[20...])
        #expect(arrival.bytesStillComing == nil, "at a line's end")
        observe(&arrival, gga[0..<3])
        #expect(arrival.bytesStillComing == nil, "its kind not known yet")
        observe(&arrival, gga[3...])
        observe(&arrival, gga[0..<20])
        #expect(arrival.bytesStillComing == nil, "the lines before came all at once")
        #expect(LineArrival(bytesPerSecond: 11_520_000).sleep == nil)
        var slow = LineArrival(bytesPerSecond: 100)
        observe(&slow, gga[0..<10], at: 0)
        observe(&slow, gga[10...], at: 1)
        observe(&slow, gga[0..<20], at: 1)
        #expect(slow.sleep == 0.1, "capped so that stop() is seen")
    }

    /// Lines a program writes to a pseudo-terminal all at once (the latency benchmark) foretell
    /// nothing about the next: sleeping would only delay it.
    @Test func linesThatCameAllAtOnceForetellNothing() {
        var arrival = LineArrival(bytesPerSecond: Self.rate)
        for epoch in 0..<3 {
            let time = Double(epoch) * 0.001
            observe(&arrival, (gga + rmc)[...], at: time)
            #expect(arrival.sleep == nil, "epoch \(epoch)")
            // Also when the kernel hands the same write over in two pieces.
            observe(&arrival, (gga + rmc[0..<30])[...], at: time + 0.0001)
            #expect(arrival.sleep == nil, "epoch \(epoch), split")
            observe(&arrival, rmc[30...], at: time + 0.0002)
        }
    }
}
