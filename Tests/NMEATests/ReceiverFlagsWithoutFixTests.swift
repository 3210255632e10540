import Testing

@testable import NMEA

/// A jammed receiver says so most when its fix is gone: the cycles without a fix carry the flags
/// of the UBX reports sent between their sentences (`EpochTime.receiverFlags`), as fixes do
/// (docs/nmea.md), and reports that stop coming are forgotten after ten cycles, fix or none.
@Suite struct ReceiverFlagsWithoutFixTests {
    let flagsTests = ReceiverIntegrityFlagsTests()

    /// A cycle without a fix: GGA of quality 0 and a void RMC, with the time.
    func noFix(_ second: Int) -> [UInt8] {
        let time = "1235\(second < 10 ? "0" : "")\(second).00"
        return SentenceWriter.sentence("GPRMC,\(time),V,,,,,,,230394,,,N")
            + SentenceWriter.sentence("GPGGA,\(time),,,,,0,00,99.9,,M,,M,,")
    }

    /// What each cycle carried, in order: a fix's flags or a cycle's, and whether it had a fix.
    func cycles(_ bytes: [UInt8], chunk: Int = 4096) -> [(fix: Bool, flags: ReceiverIntegrityFlags)] {
        let decoder = Decoder()
        var seen: [(fix: Bool, flags: ReceiverIntegrityFlags)] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            Array(bytes[start..<end]).withUnsafeBytes {
                decoder.push(
                    $0, onFix: { seen.append((true, $0.receiverFlags)) },
                    onNoFix: { seen.append((false, $0.receiverFlags)) })
            }
            start = end
        }
        decoder.finish(
            onFix: { seen.append((true, $0.receiverFlags)) }, onNoFix: { seen.append((false, $0.receiverFlags)) })
        return seen
    }

    /// A fix, then the jam: MON-RF says `critical` before each cycle, which has no fix any more.
    @Test func theJammingReportsOfCyclesWithoutAFixReachThem() {
        var bytes = flagsTests.warmUp + flagsTests.monRF([(1, 10)]) + flagsTests.epoch(10)
        for second in 11..<15 { bytes += flagsTests.monRF([(3, 220)]) + noFix(second) }
        for chunk in [1, 5, 4096] {
            let seen = cycles(bytes, chunk: chunk).dropFirst(3)
            #expect(seen.map(\.fix) == [true, false, false, false, false], "chunk \(chunk)")
            #expect(seen.first?.flags.jamming == ReceiverIntegrityFlags.Jamming.none, "chunk \(chunk)")
            #expect(
                seen.dropFirst().allSatisfy { $0.flags.jamming == .critical && $0.flags.jammingIndicator == 220 },
                "chunk \(chunk): \(seen.map(\.flags))")
        }
    }

    /// One report, then cycles without a fix and without reports: ten carry it, the rest not.
    @Test func reportsThatStopComingAreForgottenAfterTenCyclesWithoutAFixToo() {
        var bytes = flagsTests.warmUp + flagsTests.monRF([(3, 200)])
        for second in 10..<25 { bytes += noFix(second) }
        let seen = Array(cycles(bytes).dropFirst(3))
        #expect(seen.count == 15 && seen.allSatisfy { !$0.fix })
        #expect(seen.prefix(Decoder.receiverFlagsLastFor).allSatisfy { $0.flags.jamming == .critical })
        #expect(seen.dropFirst(Decoder.receiverFlagsLastFor).allSatisfy { $0.flags == .unknown })
    }
}
