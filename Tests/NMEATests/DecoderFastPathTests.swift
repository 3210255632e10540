import Testing
@testable import NMEA

/// The shortcuts of the "prototype for lead" speed-up must not change any output.
@Suite struct DecoderFastPathTests {
    @Test func literalSentenceTypesMatchTheirText() {
        let pairs: [(SentenceType, StaticString)] = [
            (.gga, "GGA"), (.rmc, "RMC"), (.gll, "GLL"), (.gns, "GNS"), (.gsa, "GSA"),
            (.gsv, "GSV"), (.gst, "GST"), (.vtg, "VTG"), (.zda, "ZDA"), (.txt, "TXT"),
        ]
        for (type, text) in pairs { #expect(type == SentenceType(text), "\(text)") }
    }

    /// GSV and TXT between the timed sentences of a cycle (and after its end) still open and
    /// close epochs the same way when the fixes-only path leaves them undecoded.
    let stream = """
        $GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A
        $GPGSV,3,1,11,03,03,111,00,04,15,270,00,06,01,010,00,13,06,292,00*74
        $GPTXT,01,01,02,ANTSTATUS=OK*3B
        $GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47
        $GPGSV,3,1,11,03,03,111,00,04,15,270,00,06,01,010,00,13,06,292,00*74
        $GPRMC,123520,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*60
        $GPGGA,123520,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*4D
        # a comment line, # and $GPGGA inside it
        $GPGSV,3,1,11,03,03,111,00,04,15,270,00,06,01,010,00,13,06,292,00*74
        $GPRMC,123521,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*61

        """

    func fixes(chunk: Int, sentences: Bool, comments: Bool) -> [Fix] {
        let decoder = Decoder(skipsCommentLines: comments)
        var out: [Fix] = []
        let bytes = Array(stream.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            bytes[start..<end].withUnsafeBytes { buffer in
                if sentences {
                    decoder.push(buffer, onSentence: { _, _ in }, onFix: { out.append($0) })
                } else {
                    decoder.push(buffer) { out.append($0) }
                }
            }
            start = end
        }
        decoder.finish { out.append($0) }
        return out
    }

    @Test(arguments: [1, 2, 5, 64, 4096])
    func fixesOnlyPathMatchesFullDecoding(chunk: Int) {
        for comments in [false, true] {
            let full = fixes(chunk: 4096, sentences: true, comments: comments)
            #expect(full.count == 3)
            #expect(fixes(chunk: chunk, sentences: false, comments: comments) == full)
            #expect(fixes(chunk: chunk, sentences: true, comments: comments) == full)
        }
    }
}
