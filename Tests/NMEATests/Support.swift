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

/// One u-blox style cycle at 12:00:`second`: RMC, VTG, GGA, GSA, GLL (GLL is the cycle's last
/// timed sentence).
func ubloxCycle(_ second: Int) -> [String] {
    let time = "1200" + (second < 10 ? "0" : "") + String(second) + ".00"
    return [
        nmea("GPRMC,\(time),A,4807.038,N,01131.000,E,10.0,90.0,230324,,,A"),
        nmea("GPVTG,90.0,T,,M,10.0,N,18.5,K,A"),
        nmea("GPGGA,\(time),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
        nmea("GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,0.9,2.1"),
        nmea("GPGLL,4807.038,N,01131.000,E,\(time),A,A"),
    ]
}

/// Feeds `bursts` to a decoder as a live reader would, one burst an element, saying the line went
/// quiet after each when `quiet`; returns the fixes, each with the sentences seen when it left.
/// `firstFixAtFirstPosition` as the live serial source sets it, or not.
func liveFixes(_ bursts: [[String]], quiet: Bool = true, firstFixAtFirstPosition: Bool = false)
    -> [(fix: Fix, afterSentences: UInt64)]
{
    let decoder = Decoder()
    decoder.assembler.firstFixAtFirstPosition = firstFixAtFirstPosition
    var out: [(Fix, UInt64)] = []
    for burst in bursts {
        Array(burst.map { $0 + "\r\n" }.joined().utf8).withUnsafeBytes { bytes in
            decoder.push(bytes) { out.append(($0, decoder.framer.counters.sentences)) }
        }
        if quiet {
            decoder.lineWentQuiet(onFix: { out.append(($0, decoder.framer.counters.sentences)) }, onNoFix: { _ in })
        }
    }
    decoder.finish { out.append(($0, decoder.framer.counters.sentences)) }
    return out
}
