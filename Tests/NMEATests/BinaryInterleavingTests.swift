import Testing

@testable import NMEA

/// A UBX frame around `payload`, its checksum computed here the way u-blox's protocol description
/// gives it (8-bit Fletcher over class, id, length and payload).
func ubxFrame(class messageClass: UInt8, id: UInt8, payload: [UInt8]) -> [UInt8] {
    let body = [messageClass, id, UInt8(payload.count & 0xFF), UInt8(payload.count >> 8)] + payload
    var a: UInt8 = 0
    var b: UInt8 = 0
    for byte in body {
        a &+= byte
        b &+= a
    }
    return [0xB5, 0x62] + body + [a, b]
}

@Suite struct BinaryInterleavingTests {
    let gga = "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47"
    let rmc = "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A"
    /// UBX-ACK-ACK for CFG-MSG and the MON-VER poll, as printed in u-blox's protocol descriptions.
    let ackAck: [UInt8] = [0xB5, 0x62, 0x05, 0x01, 0x02, 0x00, 0x06, 0x01, 0x0F, 0x38]
    let monVerPoll: [UInt8] = [0xB5, 0x62, 0x0A, 0x04, 0x00, 0x00, 0x0E, 0x34]

    /// A binary payload that holds everything the text framer reacts to: a whole checksummed
    /// sentence, line ends, `$`, `!`, a NUL and another 0xB5.
    var trickyPayload: [UInt8] {
        Array((gga + "\r\n!$").utf8) + [0x00, 0xB5, 0x62, 0xFF, 0x0D, 0x0A]
    }

    var interleaved: [UInt8] {
        ackAck + Array((gga + "\r\n").utf8) + ubxFrame(class: 0x01, id: 0x07, payload: trickyPayload)
            + Array((rmc + "\r\n").utf8) + monVerPoll
            + ubxFrame(class: 0x04, id: 0x02, payload: Array((rmc + "\r\n").utf8))
            + Array((gga + "\r\n").utf8)
    }

    @Test func skipsFramesWithoutCountingThemAsJunkAtEveryChunkSize() {
        for chunk in [1, 2, 3, 5, 7, 64, 4096] {
            let framer = Framer()
            #expect(frame(bytes: interleaved, chunk: chunk, framer: framer) == [gga, rmc, gga], "chunk \(chunk)")
            #expect(framer.counters.binaryFrames == 4, "chunk \(chunk)")
            #expect(framer.counters.junkBytes == 0, "chunk \(chunk)")
            #expect(framer.counters.truncated == 0, "chunk \(chunk)")
            #expect(framer.counters.binaryBadChecksum == 0, "chunk \(chunk)")
        }
    }

    @Test func aFrameRightAfterASentenceBodyEndsThatSentenceAndIsStillSkipped() {
        let framer = Framer()
        let bytes = Array("$GPGSV,1,1,00".utf8) + ackAck + Array((rmc + "\r\n").utf8)
        #expect(frame(bytes: bytes, chunk: 4096, framer: framer) == [rmc])
        #expect(framer.counters.truncated == 1)
        #expect(framer.counters.binaryFrames == 1)
    }

    @Test func aDamagedFrameIsCountedAndTheSentencesAfterItSurvive() {
        let framer = Framer()
        var damaged = ackAck
        damaged[7] ^= 0x01
        let bytes = damaged + Array((rmc + "\r\n").utf8)
        #expect(frame(bytes: bytes, chunk: 4096, framer: framer) == [rmc])
        #expect(framer.counters.binaryBadChecksum == 1)
        #expect(framer.counters.binaryFrames == 0)
    }

    @Test func aLoneSyncByteIsJunkAndDoesNotEatTheNextSentence() {
        let framer = Framer()
        let bytes: [UInt8] = [0xB5] + Array((rmc + "\r\n").utf8) + [0xB5, 0x41] + Array((gga + "\r\n").utf8)
        #expect(frame(bytes: bytes, chunk: 4096, framer: framer) == [rmc, gga])
        #expect(framer.counters.junkBytes == 3)
    }

    @Test func anImplausibleLengthIsNoiseNotAFrameThatSwallowsSentences() {
        let framer = Framer()
        let bytes: [UInt8] = [0xB5, 0x62, 0x01, 0x07, 0xFF, 0xFF] + Array((rmc + "\r\n").utf8)
        #expect(frame(bytes: bytes, chunk: 4096, framer: framer) == [rmc])
        #expect(framer.counters.junkBytes == 6)
    }

    @Test func decoderBuildsTheSameFixesWithFramesBetweenTheSentences() {
        func decodedTimes(_ bytes: [UInt8]) -> [String] {
            let decoder = Decoder()
            var times: [String] = []
            bytes.withUnsafeBytes { buffer in decoder.push(buffer) { times.append($0.time?.description ?? "undated") } }
            decoder.finish { times.append($0.time?.description ?? "undated") }
            return times
        }
        let plain = Array((gga + "\r\n" + rmc + "\r\n" + gga + "\r\n").utf8)
        #expect(decodedTimes(interleaved) == decodedTimes(plain))
        #expect(!decodedTimes(plain).isEmpty)
    }
}
