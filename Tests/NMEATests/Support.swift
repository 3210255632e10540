@testable import NMEA

/// Adds a checksum to a sentence body: `nmea("GPGGA,...")` -> `$GPGGA,...*hh`.
func nmea(_ body: String) -> String {
    var sum: UInt8 = 0
    for byte in body.utf8 { sum ^= byte }
    let hex = String(sum, radix: 16, uppercase: true)
    return "$" + body + "*" + (hex.count == 1 ? "0" + hex : hex)
}

/// Frames and decodes one sentence (which must be valid).
func decode(_ sentence: String) -> Sentence {
    var result: Sentence?
    Array((sentence + "\r\n").utf8).withUnsafeBytes { bytes in
        Framer().push(bytes) { raw in result = Sentence(raw) }
    }
    return result!
}

/// Runs a whole stream through a `Decoder` and returns the fixes, each with the number of
/// sentences the decoder had seen when it was emitted.
func fixes(_ lines: [String], chunk: Int = 4096) -> [(fix: Fix, afterSentences: UInt64)] {
    let decoder = Decoder()
    var out: [(Fix, UInt64)] = []
    let bytes = Array(lines.map { $0 + "\r\n" }.joined().utf8)
    var start = 0
    while start < bytes.count {
        let end = min(bytes.count, start + chunk)
        bytes[start..<end].withUnsafeBytes { buffer in
            decoder.push(buffer) { out.append(($0, decoder.framer.counters.sentences)) }
        }
        start = end
    }
    decoder.finish { out.append(($0, decoder.framer.counters.sentences)) }
    return out
}
