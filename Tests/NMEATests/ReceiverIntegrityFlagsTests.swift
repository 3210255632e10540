import Testing

@testable import NMEA

/// u-blox's own jamming and spoofing reports, read from UBX frames between the sentences and
/// carried on each fix (docs/nmea.md). Payloads are built here byte by byte from u-blox's
/// protocol descriptions.
@Suite struct ReceiverIntegrityFlagsTests {
    /// UBX-NAV-STATUS, 16 bytes: `flags2` (offset 7) holds spoofDetState in bits 3-4.
    func navStatus(spoofDetState: UInt8, length: Int = 16) -> [UInt8] {
        var payload = [UInt8](repeating: 0, count: length)
        payload[4] = 3
        if length > 7 { payload[7] = spoofDetState << 3 | 0x01 }  // psmState bit set too
        return ubxFrame(class: 0x01, id: 0x03, payload: payload)
    }

    /// UBX-MON-RF: version 0, nBlocks, two reserved bytes, then per block 24 bytes: flags
    /// (offset 1, jammingState bits 0-1) and jamInd (offset 16).
    func monRF(_ blocks: [(state: UInt8, jamInd: UInt8)], declared: Int? = nil) -> [UInt8] {
        var payload: [UInt8] = [0, UInt8(declared ?? blocks.count), 0, 0]
        for (index, block) in blocks.enumerated() {
            var bytes = [UInt8](repeating: 0, count: 24)
            bytes[0] = UInt8(index)
            bytes[1] = block.state | 0xF0  // the upper bits are other flags
            bytes[2] = 2
            bytes[16] = block.jamInd
            payload += bytes
        }
        return ubxFrame(class: 0x0A, id: 0x38, payload: payload)
    }

    /// UBX-MON-HW (generation 8), 60 bytes: flags at 22 (jammingState bits 2-3), jamInd at 45.
    func monHW(state: UInt8, jamInd: UInt8) -> [UInt8] {
        var payload = [UInt8](repeating: 0, count: 60)
        payload[22] = state << 2 | 0x01
        payload[45] = jamInd
        return ubxFrame(class: 0x0A, id: 0x09, payload: payload)
    }

    func epoch(_ second: Int) -> [UInt8] {
        let time = "1235\(second < 10 ? "0" : "")\(second).00"
        return SentenceWriter.sentence("GPRMC,\(time),A,4807.03800,N,01131.00000,E,0.0,0.0,230394,,,A")
            + SentenceWriter.sentence("GPGGA,\(time),4807.03800,N,01131.00000,E,1,08,0.9,545.4,M,,M,,")
    }

    /// Decodes `bytes` in chunks of `chunk`; the fixes, in order.
    func fixes(_ bytes: [UInt8], chunk: Int = 4096) -> (fixes: [Fix], decoder: Decoder) {
        let decoder = Decoder()
        var fixes: [Fix] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            Array(bytes[start..<end]).withUnsafeBytes { decoder.push($0) { fixes.append($0) } }
            start = end
        }
        decoder.finish { fixes.append($0) }
        return (fixes, decoder)
    }

    @Test func aReceiverThatSendsNoReportsLeavesEveryFixUnknown() {
        let (fixes, _) = fixes(epoch(10) + epoch(11) + epoch(12))
        #expect(fixes.count == 3)
        #expect(fixes.allSatisfy { $0.receiverFlags == .unknown })
    }

    /// Three epochs without reports: the decoder learns which sentence ends the receiver's cycle,
    /// and from then on each fix leaves with its last sentence, carrying the reports sent before it.
    var warmUp: [UInt8] { epoch(7) + epoch(8) + epoch(9) }

    /// The fixes after the warm-up, whose own fixes carry no report.
    func fixesAfterWarmUp(_ bytes: [UInt8], chunk: Int = 4096) -> (fixes: [Fix], decoder: Decoder) {
        let (all, decoder) = fixes(warmUp + bytes, chunk: chunk)
        #expect(all.prefix(3).allSatisfy { $0.receiverFlags == .unknown })
        return (Array(all.dropFirst(3)), decoder)
    }

    @Test func spoofingStateFromNavStatusReachesTheFixesAfterItAtEveryChunkSize() {
        let bytes = navStatus(spoofDetState: 1) + epoch(10) + navStatus(spoofDetState: 2) + epoch(11) + epoch(12)
        for chunk in [1, 3, 7, 64, 4096] {
            let (fixes, decoder) = fixesAfterWarmUp(bytes, chunk: chunk)
            #expect(fixes.map(\.receiverFlags.spoofing) == [.none, .indicated, .indicated], "chunk \(chunk)")
            #expect(fixes.allSatisfy { $0.receiverFlags.jamming == .unknown }, "chunk \(chunk)")
            #expect(decoder.framer.counters.integrityMessages == 2, "chunk \(chunk)")
            #expect(decoder.framer.counters.junkBytes == 0, "chunk \(chunk)")
        }
    }

    @Test func theWorstRFBlockSpeaksForTheReceiverWithTheHighestJammingIndicator() {
        let bytes = monRF([(1, 12), (3, 140)]) + epoch(10) + monRF([(2, 90)]) + epoch(11)
        let (fixes, _) = fixesAfterWarmUp(bytes)
        #expect(fixes.map(\.receiverFlags.jamming) == [.critical, .warning])
        #expect(fixes.map(\.receiverFlags.jammingIndicator) == [140, 90])
        #expect(fixes.allSatisfy { $0.receiverFlags.spoofing == .unknown })
    }

    @Test func monHWOfAGeneration8ReceiverGivesJammingStateAndIndicator() {
        let (fixes, _) = fixes(monHW(state: 2, jamInd: 77) + navStatus(spoofDetState: 3) + epoch(10))
        #expect(
            fixes.first?.receiverFlags
                == ReceiverIntegrityFlags(spoofing: .affirmed, jamming: .warning, jammingIndicator: 77))
    }

    @Test func secSigVersion1And2AreBothRead() {
        // Version 1: jamFlags at 4 (enabled bit 0, state bits 1-2), spfFlags at 8 (enabled bit 0,
        // state bits 1-3).
        let version1 = ubxFrame(
            class: 0x27, id: 0x09, payload: [1, 0, 0, 0, 0x01 | 3 << 1, 0, 0, 0, 0x01 | 2 << 1, 0, 0, 0])
        // Version 2: sigSecFlags at 1 (jam enabled bit 0, state bits 1-2; spoofing enabled bit 3,
        // state bits 4-6), one centre frequency of four bytes.
        let version2 = ubxFrame(
            class: 0x27, id: 0x09, payload: [2, 0x01 | 1 << 1 | 0x08 | 3 << 4, 0, 1, 0x10, 0x27, 0x00, 0x80])
        // Detection switched off: the states are unknown whatever the bits say.
        let disabled = ubxFrame(class: 0x27, id: 0x09, payload: [2, 2 << 1 | 2 << 4, 0, 0])
        let (fixes, _) = fixesAfterWarmUp(version1 + epoch(10) + version2 + epoch(11) + disabled + epoch(12))
        #expect(fixes.map(\.receiverFlags.jamming) == [.critical, .none, .unknown])
        #expect(fixes.map(\.receiverFlags.spoofing) == [.indicated, .affirmed, .unknown])
    }

    @Test func aBadChecksumOrAShortPayloadChangesNothingAndTheSentencesSurvive() {
        var damaged = navStatus(spoofDetState: 2)
        damaged[10] ^= 0x40
        let short = navStatus(spoofDetState: 2, length: 15)
        // Two blocks declared, one present.
        let truncatedRF = monRF([(3, 200)], declared: 2)
        let unknownVersion = ubxFrame(class: 0x27, id: 0x09, payload: [0, 0xFF, 0, 0, 0xFF, 0, 0, 0, 0xFF, 0, 0, 0])
        let shortSecSig = ubxFrame(class: 0x27, id: 0x09, payload: [1, 0, 0, 0, 0x07])
        let (fixes, decoder) = fixes(
            damaged + epoch(10) + short + truncatedRF + unknownVersion + shortSecSig + epoch(11))
        #expect(fixes.count == 2)
        #expect(fixes.allSatisfy { $0.receiverFlags == .unknown })
        #expect(decoder.framer.counters.integrityMessages == 0)
        #expect(decoder.framer.counters.binaryBadChecksum == 1)
        #expect(decoder.framer.counters.binaryFrames == 4)
        #expect(decoder.framer.counters.junkBytes == 0)
    }

    @Test func reportsThatStopComingAreForgottenAfterTenFixes() {
        var bytes = monRF([(2, 60)])
        for second in 10..<25 { bytes += epoch(second) }
        let (fixes, _) = fixes(bytes)
        #expect(fixes.count == 15)
        #expect(fixes.prefix(Decoder.receiverFlagsLastFor).allSatisfy { $0.receiverFlags.jamming == .warning })
        #expect(fixes.dropFirst(Decoder.receiverFlagsLastFor).allSatisfy { $0.receiverFlags == .unknown })
    }

    @Test func otherUBXMessagesAreSkippedUnread() {
        // NAV-PVT (0x01 0x07) and MON-VER: not reports; same class as one, or same id.
        let pvt = ubxFrame(class: 0x01, id: 0x07, payload: [UInt8](repeating: 0xFF, count: 92))
        let other = ubxFrame(class: 0x0A, id: 0x03, payload: [UInt8](repeating: 0xFF, count: 16))
        let (fixes, decoder) = fixes(pvt + other + epoch(10))
        #expect(fixes.first?.receiverFlags == .unknown)
        #expect(decoder.framer.counters.binaryFrames == 2)
        #expect(decoder.framer.counters.integrityMessages == 0)
    }
}
