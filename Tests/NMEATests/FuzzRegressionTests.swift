import NMEA
import Testing

/// Inputs that crashed the decoder (Fuzz/, docs/fuzzing.md), kept as regression tests.
///
/// Each input is decoded the way the fuzz target decodes it (whole, byte by byte, JSON output,
/// `finish`) inside an exit test, so a crash fails one test instead of killing the test run.
/// All three were overflow traps, fixed by bounding calendar years and angle fraction digits
/// (see Tests/NMEATests/OverflowTests.swift for the values they now decode to).
@Suite struct FuzzRegressionTests {
    /// Found first by reading the code, then by the fuzzer (fuzz run 4: crash-a0146c09… and
    /// crash-c7b5cd44…, minimized): in `Scan.angle`, 18 fraction digits make `scale` 10^18 and
    /// `100 * scale` overflows UInt64 (Fields.swift:156). The first input is the fuzzer's.
    @Test func latitudeWithEighteenFractionDigits() async {
        await #expect(processExitsWith: .success) {
            decodeEveryWay("$GGA,,.000000000000000000,N\n")
        }
        await #expect(processExitsWith: .success) {
            decodeEveryWay("$GPGGA,123519,.000000000000000000,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*77\r\n")
        }
    }

    /// Found by the fuzzer (Fuzz/crash-8cb1bf41…, minimized by libFuzzer): a ZDA year of
    /// 370951615 passes `year >= 1980` and `isValid`; the fix's `UTCTime` then multiplies about
    /// 1.35e11 days by 86,400,000 ms and overflows Int64 (CivilTime.swift:76). The GGA (no time,
    /// quality 4) supplies the position that makes a fix.
    @Test func zdaYearNineDigits() async {
        await #expect(processExitsWith: .success) {
            decodeEveryWay("$ZDA,055242,5,8,370951615\n$GGA,,5,N,3,W,4\n")
        }
    }

    /// Found by the fuzzer (Fuzz/crash-3fd6fadb… and crash-b23ef6c7…, minimized): an 18-digit ZDA
    /// year overflows `era * 146_097` in `CivilDate.daysSinceEpoch` (CivilTime.swift:52), called
    /// by `isValid` from `ZDA.date`, before any fix is made. No checksum, no talker: both accepted.
    @Test func zdaYearEighteenDigits() async {
        await #expect(processExitsWith: .success) {
            decodeEveryWay("$ZDA,,8,3,294111111111111158\r")
        }
    }
}

/// Decodes `text` as the fuzz target does: whole with JSON output, then byte by byte.
func decodeEveryWay(_ text: String) {
    let bytes = Array(text.utf8)
    for chunk in [bytes.count, 1] {
        let decoder = Decoder()
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            bytes[start..<end].withUnsafeBytes { buffer in
                decoder.push(
                    buffer, onSentence: { raw, sentence in _ = sentence.json(raw: raw) }, onFix: { _ = $0.json })
            }
            start = end
        }
        decoder.finish { _ = $0.json }
    }
}
