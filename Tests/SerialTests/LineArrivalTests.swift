import Testing

@testable import Serial

/// The reader sleeps through the rest of a line it has seen whole before (docs/performance.md).
@Suite struct LineArrivalTests {
    let rmc = Array("$GPRMC,081836,A,3751.65,S,14507.36,E,000.0,360.0,130998,011.3,E*62\r\n".utf8)
    let gga = Array("$GPGGA,081836,3751.65,S,14507.36,E,1,05,1.5,280.2,M,-34.0,M,,*75\r\n".utf8)

    func observe(_ arrival: inout LineArrival, _ bytes: ArraySlice<UInt8>, at time: Double = 0) {
        Array(bytes).withUnsafeBytes { arrival.observe($0, at: time) }
    }

    @Test func aLineSeenBeforeForetellsItsEnd() {
        var arrival = LineArrival()
        observe(&arrival, rmc[...])
        observe(&arrival, gga[...])
        // The next epoch: ten bytes of RMC in, the rest (minus the slack) still coming.
        observe(&arrival, rmc[0..<10])
        #expect(arrival.bytesStillComing == rmc.count - 10 - LineArrival.slack)
        // At 57600 baud (5760 bytes/s) that is about 9.5 ms of sleep.
        let expected = Double(rmc.count - 10 - LineArrival.slack) / 5760
        #expect(arrival.sleep(bytesPerSecond: 5760).map { abs($0 - expected) < 1e-9 } == true)
        // Near its end nothing is slept: the last bytes are read as soon as they come.
        observe(&arrival, rmc[10..<(rmc.count - LineArrival.slack)])
        #expect(arrival.bytesStillComing == nil)
        #expect(arrival.sleep(bytesPerSecond: 5760) == nil)
    }

    @Test func unknownOrEndedLinesAreNotWaitedFor() {
        var arrival = LineArrival()
        observe(&arrival, rmc[0..<20])
        #expect(arrival.bytesStillComing == nil, "a kind not seen whole yet")
        observe(&arrival, rmc[20...])
        #expect(arrival.bytesStillComing == nil, "at a line's end")
        observe(&arrival, gga[0..<3])
        #expect(arrival.bytesStillComing == nil, "its kind not known yet")
        // A fast line: less than a millisecond left is not slept.
        observe(&arrival, gga[3...])
        observe(&arrival, gga[0..<20])
        #expect(arrival.sleep(bytesPerSecond: 11_520_000) == nil)
        #expect(arrival.sleep(bytesPerSecond: 100) == 0.1, "capped so that stop() is seen")
    }

    /// At a line's end, the kind that came straight after it last time is slept through; one that
    /// came after a pause is not waited for.
    @Test func theLineThatFollowsStraightAfterIsForetold() {
        var arrival = LineArrival()
        // Epoch one: RMC, GGA straight after it; then a pause of 100 ms before the next RMC.
        observe(&arrival, rmc[...], at: 0)
        observe(&arrival, gga[...], at: 0.001)
        observe(&arrival, rmc[...], at: 0.1)
        // Epoch two: RMC has ended, GGA is on its way.
        #expect(arrival.bytesStillComing == gga.count - LineArrival.slack)
        observe(&arrival, gga[...], at: 0.2)  // late (the reader slept), but as foretold
        // After GGA came a pause, so nothing is foretold.
        #expect(arrival.bytesStillComing == nil)
        observe(&arrival, rmc[...], at: 0.3)
        #expect(arrival.bytesStillComing == gga.count - LineArrival.slack, "still foretold after the late read")
    }
}
