import Testing

@testable import NMEA

/// On a live port the first fix of a connection leaves on the sentence that completes its
/// position, as gpsd reports it; every later epoch is whole, and the cycle end is learned as ever.
@Suite struct FirstFixTests {
    /// A u-blox style cycle: RMC first, GLL the last timed sentence.
    func rmcFirst(_ second: Int) -> [String] { ubloxCycle(second) }

    /// A SiRF style cycle: GGA first, RMC last.
    func ggaFirst(_ second: Int) -> [String] {
        let time = "1200" + (second < 10 ? "0" : "") + String(second) + ".00"
        return [
            nmea("GPGGA,\(time),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            nmea("GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,0.9,2.1"),
            nmea("GPRMC,\(time),A,4807.038,N,01131.000,E,10.0,90.0,230324,,,A"),
        ]
    }

    /// The fixes of a live connection: one burst an element, the line going quiet after each.
    func live(_ bursts: [[String]], early: Bool = true) -> [(fix: Fix, afterSentences: UInt64)] {
        liveFixes(bursts, firstFixAtFirstPosition: early)
    }

    @Test func theFirstFixLeavesWithItsRMCAndTheRestAreWhole() throws {
        let bursts = (1...6).map { rmcFirst($0) }
        let early = live(bursts)
        // epoch 1 on its RMC (sentence 1), epoch 2 on the quiet line, epoch 3 on, on the learned GLL
        #expect(early.map(\.afterSentences) == [1, 10, 15, 20, 25, 30])
        let first = try #require(early.first?.fix)
        #expect(first.time?.description == "2024-03-23T12:00:01.000Z")
        #expect(first.speed != nil && first.track == 90)
        #expect(first.altitude == nil && first.satellitesUsed == nil, "what came after the RMC is not in it")
        let whole = live(bursts, early: false)
        #expect(whole.map(\.afterSentences) == [5, 10, 15, 20, 25, 30])
        #expect(early.map(\.fix).dropFirst() == whole.map(\.fix).dropFirst())
        #expect(whole.first?.fix.altitude == 545.4)
    }

    @Test func aReceiverThatSendsGGAFirstGivesItsFirstFixThere() throws {
        let bursts = (1...4).map { ggaFirst($0) }
        let early = live(bursts)
        #expect(early.map(\.afterSentences) == [1, 6, 9, 12])
        let first = try #require(early.first?.fix)
        #expect(first.altitude == 545.4 && first.latitude > 48)
        #expect(first.time == nil, "no date yet: the live source dates it by the system clock")
        #expect(early.dropFirst().allSatisfy { $0.fix.time != nil && $0.fix.speed != nil })
    }

    @Test func cyclesWithoutAPositionDoNotCountAsTheFirstFix() throws {
        let noFix = [
            nmea("GPRMC,120000.00,V,,,,,,,230324,,,N"),
            nmea("GPGGA,120000.00,,,,,0,00,99.9,,,,,,"),
        ]
        let early = live([noFix] + (1...3).map { rmcFirst($0) })
        #expect(early.map(\.afterSentences) == [3, 12, 17])
        #expect(early.first?.fix.time?.description == "2024-03-23T12:00:01.000Z")
    }

    @Test func aCaptureKeepsWholeEpochs() {
        let lines = (1...4).flatMap { rmcFirst($0) }
        #expect(fixes(lines).map(\.afterSentences) == [6, 11, 15, 20])
        #expect(fixes(lines).first?.fix.altitude == 545.4)
    }
}
