import FenceBuilders
import Foundation
import JSONInput
import Testing

@testable import Fences

/// Every number both readers take must be the double `strtod` gives for the same text, whichever
/// path (`short`, the exact case, `strtod`) reads it; and the short path must refuse, not misread,
/// what is not its form.
@Suite struct DecimalTextTests {
    /// `text` followed by `tail` and padding, so that the 8-byte loads read what a file would hold.
    func withBytes<R>(_ text: String, tail: String = ",", _ body: (UnsafePointer<UInt8>) -> R) -> R {
        let bytes = Array((text + tail + "                        ").utf8)
        return bytes.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    @Test func digitRunCountsAndValues() {
        for (text, want) in [
            ("", 0), ("7", 7), ("0", 0), ("12", 12), ("0012", 12), ("1234567", 1_234_567), ("9999999", 9_999_999),
        ] {
            let got = withBytes(text, tail: "x") { DecimalText.digitRun($0) }
            #expect(got?.count == text.count, "\(text)")
            #expect(got?.value == UInt64(want), "\(text)")
        }
        #expect(withBytes("12345678") { DecimalText.digitRun($0) } == nil)
        // bytes just outside 0-9 on either side, and high bytes whose +6 carries
        for stop in [0x2F, 0x3A, 0x2A, 0xFA, 0xFF, 0x00, 0x40] as [UInt8] {
            let bytes: [UInt8] = [0x31, 0x32, stop, 0x33, 0x34, 0x35, 0x36, 0x37, 0, 0]
            let got = bytes.withUnsafeBufferPointer { DecimalText.digitRun($0.baseAddress!) }
            #expect(got?.count == 2 && got?.value == 12, "stop byte \(stop)")
        }
    }

    @Test func shortFormIsStrtodBitForBit() {
        var rng = SeededGenerator(seed: 21)
        var texts = [
            "0", "-0", "0.0", "-0.0000001", "180", "-180.0000000", "89.9999999", "1.5", "9999999.9999999",
            "-87.43685636", "9999999.99999999", "0.00000001", "-0.99999999", "41.00000000",
        ]
        for _ in 0..<20_000 {
            let i = Int.random(in: 0...9_999_999, using: &rng)
            let intText = String(i).prefix(Int.random(in: 1...7, using: &rng))
            var t = (Bool.random(using: &rng) ? "-" : "") + intText
            if Bool.random(using: &rng) {
                let digits = Int.random(in: 1...8, using: &rng)
                t += "." + String((0..<digits).map { _ in Character(String(Int.random(in: 0...9, using: &rng))) })
            }
            texts.append(t)
        }
        for t in texts {
            let got = withBytes(t) { DecimalText.short($0, 0) }
            let want = strtod(t, nil)
            #expect(got?.0.bitPattern == want.bitPattern, "\(t)")
            #expect(got?.1 == t.utf8.count, "\(t)")
        }
    }

    @Test func shortFormRefusesWhatIsNotItsForm() {
        for t in [
            "", "-", "+1", "01", "-01.5", "1.", ".5", "1e5", "1.5E-3", "12345678", "1.123456789", "1.12345678e1", "x",
        ] {
            #expect(withBytes(t) { DecimalText.short($0, 0) } == nil, "\(t)")
        }
    }

    /// One scanner (`DecimalText.scan`), two grammars: strict JSON for fence files, the lenient
    /// `lat,lon` of points files. What each refuses, and the words a fence file's error uses.
    @Test func eachReaderKeepsItsOwnGrammar() throws {
        func json(_ t: String) throws -> Double {
            try Array((t + "]").utf8).withUnsafeBufferPointer { buffer in
                var scanner = JSONScanner(buffer)
                return try scanner.number()
            }
        }
        func jsonProblem(_ t: String) -> String? {
            do {
                _ = try json(t)
                return nil
            } catch {
                return (error as? JSONSyntaxError)?.problem.description
            }
        }
        func points(_ t: String) -> Double? {
            let padded = Array((t + ",").utf8)
            return padded.withUnsafeBufferPointer { b in
                PointsFile.number(b.baseAddress!, 0, t.utf8.count).map { $0.1 == t.utf8.count ? $0.0 : .nan }
            }
        }
        for (text, problem) in [
            ("01", "number with a leading zero"), ("-012.5", "number with a leading zero"),
            ("1.", "expected digits after '.'"), ("1.e5", "expected digits after '.'"),
            ("1e", "expected digits in the exponent"), ("2E+", "expected digits in the exponent"),
            ("-x", "expected a number, found 'x'"), ("+1", "expected a number, found '+'"),
            (".5", "expected a number, found '.'"), ("-", "expected a number, found ']'"),
        ] {
            #expect(jsonProblem(text) == problem, "\(text)")
        }
        // a points file takes a sign, a bare point and trailing point, not an empty exponent
        for (text, want) in [("+1", 1.0), (".5", 0.5), ("1.", 1.0), ("-0.25e1", -2.5), ("01", 1.0)] {
            #expect(points(text) == want, "\(text)")
        }
        for text in ["1e", "+", "-", ".", "e5", "x"] { #expect(points(text) == nil, "\(text)") }
        #expect(try json("-0.25e1") == -2.5)
        #expect(try json("0") == 0 && json("0.5E-1") == 0.05)
    }

    @Test func bothReadersAgreeWithStrtodOnEveryPath() throws {
        // short form, exact case (long digit runs, exponents), strtod (20+ digits, big exponents)
        let texts = [
            "-73.9876543", "1.2345678", "12345678.5", "0.000000000000000000001", "1e22", "1e23", "4.9e-324",
            "2.2250738585072011e-308", "9007199254740993", "1.00000000000000011102230246251565404236316680908203125",
            "123456789012345678901234567890", "-0.1e1", "89.99999999999999999999",
        ]
        for t in texts {
            let want = strtod(t, nil)
            let points = withBytes(t, tail: "") { PointsFile.number($0, 0, t.utf8.count) }
            #expect(points?.0.bitPattern == want.bitPattern, "points: \(t)")
            let json = try Array((t + "]").utf8).withUnsafeBufferPointer { buffer in
                var scanner = JSONScanner(buffer)
                return try scanner.number()
            }
            #expect(json.bitPattern == want.bitPattern, "json: \(t)")
        }
    }
}
