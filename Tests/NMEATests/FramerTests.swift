import Foundation
import Testing

@testable import NMEA

/// Frames `text` delivered in chunks of `chunk` bytes and returns the sentences as strings.
func frame(_ text: String, chunk: Int = 4096, framer: Framer = Framer()) -> [String] {
    frame(bytes: Array(text.utf8), chunk: chunk, framer: framer)
}

/// The same for any bytes.
func frame(bytes: [UInt8], chunk: Int, framer: Framer) -> [String] {
    var out: [String] = []
    var start = 0
    while start < bytes.count {
        let end = min(bytes.count, start + chunk)
        bytes[start..<end].withUnsafeBytes { buffer in
            framer.push(buffer) { raw in out.append(String(decoding: raw.bytes, as: UTF8.self)) }
        }
        start = end
    }
    return out
}

@Suite struct FramerTests {
    let gga = "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47"
    let rmc = "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A"

    @Test func framesAtEveryChunkSize() {
        let stream = gga + "\r\n" + rmc + "\r\n"
        for chunk in [1, 2, 3, 7, 64, 4096] {
            #expect(frame(stream, chunk: chunk) == [gga, rmc], "chunk \(chunk)")
        }
    }

    @Test func acceptsLineFeedOrCarriageReturnAlone() {
        #expect(frame(gga + "\n" + rmc + "\r") == [gga, rmc])
    }

    @Test func dropsBadChecksumAndCountsIt() {
        let framer = Framer()
        let broken = gga.replacingOccurrences(of: "*47", with: "*48")
        #expect(frame(broken + "\r\n" + rmc + "\r\n", framer: framer) == [rmc])
        #expect(framer.counters.badChecksum == 1)
        #expect(framer.counters.sentences == 1)
    }

    @Test func checksumHexIsCaseInsensitive() {
        let lower = "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6a"
        #expect(frame(lower + "\r\n") == [lower])
    }

    @Test func acceptsSentenceWithoutChecksumAndCountsIt() {
        let framer = Framer()
        #expect(frame("$STI,IC,error=4\r\n", framer: framer) == ["$STI,IC,error=4"])
        #expect(framer.counters.withoutChecksum == 1)
    }

    @Test func resynchronisesOnGluedAndCutSentences() {
        let framer = Framer()
        // A stray byte before `$`, a doubled `$`, and a GGA cut short by the next sentence.
        let stream = "r" + rmc + "\r\n$" + gga + "\r\n$GPGGA,123519,4807.03" + rmc + "\r\n"
        #expect(frame(stream, framer: framer) == [rmc, gga, rmc])
        #expect(framer.counters.truncated == 1)
        #expect(framer.counters.junkBytes == 2)
    }

    @Test func dropsSentencesBrokenByControlBytesOrEscapes() {
        let framer = Framer()
        let escaped = "$GPGSA,A,3,26,15,21,27,24,09,18,05,29,,,,1.9,1.3,1.4*3\u{1B}[H\u{1B}[J3"
        let stream = escaped + "\r\n" + "$GPGGA,1\u{0}23" + "\r\n" + gga + "\r\n"
        #expect(frame(stream, framer: framer) == [gga])
        #expect(framer.counters.truncated == 2)
    }

    @Test func dropsOverlongLinesButKeepsTheLimit() {
        let framer = Framer()
        // 120 characters in all, `$` and `*HH` included, is the most we accept.
        func sentence(length: Int) -> String {
            let body = "GPTXT," + String(repeating: "A", count: length - 10)
            var sum: UInt8 = 0
            for byte in body.utf8 { sum ^= byte }
            let hex = String(sum, radix: 16, uppercase: true)
            return "$" + body + "*" + (hex.count == 1 ? "0" + hex : hex)
        }
        let longest = sentence(length: 120)
        let tooLong = sentence(length: 121)
        #expect(longest.utf8.count == 120)
        #expect(frame(tooLong + "\r\n" + longest + "\r\n", framer: framer) == [longest])
        #expect(framer.counters.overlong == 1)
    }

    @Test func countsJunkBetweenSentences() {
        let framer = Framer()
        #expect(frame("+ 6: 28 (.....)\r\n" + gga + "\r\n", framer: framer) == [gga])
        #expect(framer.counters.junkBytes == 15)
    }

    @Test func finishCountsPartialTail() {
        let framer = Framer()
        _ = frame(gga + "\r\n$GPRMC,1235", framer: framer)
        framer.finish()
        #expect(framer.counters.truncated == 1)
        #expect(framer.counters.sentences == 1)
    }
}

@Suite struct CommentLineTests {
    /// `#` lines are dropped whole, wherever the chunks split them; a `#` inside a line is not a
    /// comment.
    @Test func commentLinesAreSkippedAtEveryChunkSize() {
        let rmc = "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230324,003.1,W*61"
        let commented = "# Date: 2024 $GPRMC,000000,A,0101.000,N,00101.000,E,0,0,010124,,,A*4C\r\n"
        let stream =
            commented + rmc + "\r\n#\r\n" + "x#y"
            + rmc.replacingOccurrences(of: "123519", with: "123520")
            .replacingOccurrences(of: "*61", with: "*6B") + "\r\n"
        for chunk in [1, 2, 3, 5, 8, 13, 4096] {
            let decoder = Decoder(skipsCommentLines: true)
            var times: [String] = []
            let bytes = Array(stream.utf8)
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + chunk)
                bytes[start..<end].withUnsafeBytes { decoder.push($0) { times.append($0.time!.description) } }
                start = end
            }
            decoder.finish { times.append($0.time!.description) }
            #expect(times == ["2024-03-23T12:35:19.000Z", "2024-03-23T12:35:20.000Z"], "chunk \(chunk)")
            #expect(decoder.framer.counters.junkBytes == 3, "chunk \(chunk): only 'x#y' is junk")
        }
    }
}

/// The framer reads eight bytes at a time where it can (`Framer.allSentenceCharacters`); fed one
/// byte at a time it never can. Both must frame the same sentences and count the same damage, on
/// every byte value in every position of a line.
@Suite struct FramerWordAtATimeTests {
    func run(_ bytes: [UInt8], chunk: Int) -> ([String], FramerCounters) {
        let framer = Framer()
        let out = frame(bytes: bytes, chunk: chunk, framer: framer)
        framer.finish()
        return (out, framer.counters)
    }

    @Test func everyByteValueInEveryPositionFramesAsByteByByte() {
        let line = Array("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\r\n".utf8)
        var stream: [UInt8] = []
        for value in 0...255 {
            for position in stride(from: 1, to: line.count - 2, by: 5) {
                var damaged = line
                damaged[position] = UInt8(value)
                stream += damaged
            }
        }
        // over-long lines, made of sentence characters only, across the 8-byte steps
        for extra in 0..<20 { stream += Array(("$GPTXT," + String(repeating: "A", count: 100 + extra) + "\r\n").utf8) }
        let (bytewise, bytewiseCounts) = run(stream, chunk: 1)
        let (wordwise, wordwiseCounts) = run(stream, chunk: 65536)
        #expect(wordwise == bytewise)
        #expect(wordwiseCounts == bytewiseCounts)
        // the damage is seen: some lines survive (a changed byte in a field whose checksum still
        // matches is impossible, so only the unchanged ones), most are refused
        #expect(bytewise.count > 50 && bytewiseCounts.badChecksum > 1000)
    }

    @Test func classifiesEachByteLikeTheByteTest() {
        for value in 0...255 {
            for lane in 0..<8 {
                var bytes = [UInt8](repeating: 0x41, count: 8)
                bytes[lane] = UInt8(value)
                let word = bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
                #expect(Framer.allSentenceCharacters(word) == Framer.isSentenceCharacter(UInt8(value)))
            }
        }
    }
}
