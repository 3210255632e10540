import JSONOutput
import NMEA
import Testing

/// The one JSON writer every output goes through (docs/formats.md).
@Suite struct JSONOutputTests {
    func text(_ body: (JSONBuffer) -> Void) -> String {
        let out = JSONBuffer(capacity: 8)  // tiny on purpose: every write must grow it correctly
        body(out)
        return out.string
    }

    func number(_ value: Double, _ decimals: Int) -> String { text { $0.value(value, decimals: decimals) } }

    @Test func numbersAreRoundedAndShortest() {
        #expect(number(60.000170000000004, JSONPrecision.speed) == "60")  // an event speed seen in the field
        #expect(number(60.00017, 4) == "60.0002")
        #expect(number(1.5, 3) == "1.5")
        #expect(number(-87.6298, JSONPrecision.coordinate) == "-87.6298")
        #expect(number(41.123456789, JSONPrecision.coordinate) == "41.123456789")
        // 7 decimals of a minute (a receiver's finest) survive: 4044.5136996 is 40.741894993...
        #expect(number(40 + 44.5136996 / 60, JSONPrecision.coordinate) == "40.741894993")
        #expect(number(-0.004, 2) == "0")  // rounds to zero: no "-0"
        #expect(number(-0.006, 2) == "-0.01")
        #expect(number(0.05, 2) == "0.05")  // leading zeros of the fraction kept
        #expect(number(12345678.125, 2) == "12345678.13")  // exact in binary, half away from zero
        #expect(number(100, 2) == "100")
        #expect(number(-180, 7) == "-180")
        #expect(number(1e300, 2) == "1e+300")  // beyond 2^53 units: the double's own form
        #expect(number(.nan, 2) == "null")
        #expect(number(-.infinity, 2) == "null")
        #expect(text { $0.value(Int.min) } == "-9223372036854775808")
        #expect(text { $0.value(0) } == "0")
    }

    @Test func stringsAreEscapedAsRFC8259Requires() {
        #expect(text { $0.value("a\"b\\c/d") } == #""a\"b\\c/d""#)
        #expect(text { $0.value("\n\r\t\u{08}\u{0C}") } == #""\n\r\t\b\f""#)
        #expect(text { $0.value("\u{00}\u{01}\u{1F}") } == #""\u0000\u0001\u001f""#)
        #expect(text { $0.value("héllo ✓") } == "\"héllo ✓\"")  // UTF-8 passes through
        let bytes: [UInt8] = [0x41, 0xFF, 0x22]  // invalid UTF-8 from a device becomes U+FFFD
        #expect(text { out in bytes.withUnsafeBytes { out.value(utf8: $0) } } == "\"A\u{FFFD}\\\"\"")
        #expect(JSONLine.quoted("x\"y") == #""x\"y""#)
    }

    /// DEL and the C1 controls are escaped too: JSON allows them raw, a terminal acts on them.
    @Test func deleteAndC1ControlsAreEscaped() {
        #expect(text { $0.value("a\u{7F}b\u{80}c\u{85}d\u{9B}e\u{9F}") } == #""a\u007fb\u0080c\u0085d\u009be\u009f""#)
        // The characters around C1 that share its lead byte are printable and stay as they are.
        #expect(text { $0.value("\u{A0}\u{BF}é\u{C2}") } == "\"\u{A0}\u{BF}é\u{C2}\"")
        let name = "k\u{9B}"  // a key from data, not a StaticString from the code
        #expect(text { out in out.key(name) } == #""k\u009b":"#)
        let bytes: [UInt8] = [0x41, 0xC2, 0x9B, 0x5B, 0x7F]  // from a device: `A`, CSI, `[`, DEL
        #expect(text { out in bytes.withUnsafeBytes { out.value(utf8: $0) } } == #""A\u009b[\u007f""#)
        #expect(JSONLine.quoted("x\u{85}") == #""x\u0085""#)
    }

    @Test func separatorsFollowTheNesting() {
        let json = text { out in
            out.beginObject()
            out.key("a")
            out.value(1)
            out.key("list")
            out.beginArray()
            out.value(true)
            out.null()
            out.beginObject()
            out.endObject()
            out.beginArray()
            out.endArray()
            out.endArray()
            out.key("b")
            out.value("x")
            out.endObject()
            out.endLine()
            out.beginArray()
            out.endArray()
        }
        #expect(json == "{\"a\":1,\"list\":[true,null,{},[]],\"b\":\"x\"}\n[]")
    }

    @Test func hexIsLowerCaseAndPadded() {
        #expect(Hex.string(0xAB, digits: 4) == "00ab")
        #expect(Hex.string(0xcbf2_9ce4_8422_2325, digits: 16) == "cbf29ce484222325")
        #expect(text { $0.hexValue(0x1546, digits: 4) } == "\"1546\"")
    }

    @Test func aFixPrintsEveryFieldAtItsPrecision() {
        let time = UTCTime(
            date: CivilDate(year: 2026, month: 2, day: 3), timeOfDay: TimeOfDay(milliseconds: 36_902_050))
        let fix = Fix(
            time: time, timeOfDay: TimeOfDay(milliseconds: 36_902_050), latitude: 42.28060000000001,
            longitude: -83.7519000004, altitude: 250.449, speed: 10.28888888, track: 89.999, mode: .threeD,
            quality: 1, satellitesUsed: 8, hdop: 0.9, accuracy: nil)
        // 36,902,050 ms = 10:15:02.050; 83.7519000004 to 9 decimals is 83.7519; 250.449 m to 0.01 is
        // 250.45; 10.28888888 m/s to 0.001 is 10.289; 89.999 degrees to 0.01 is 90
        #expect(
            fix.json == "{\"time\":\"2026-02-03T10:15:02.050Z\",\"lat\":42.2806,\"lon\":-83.7519,\"alt\":250.45,"
                + "\"speed\":10.289,\"track\":90,\"mode\":3,\"quality\":1,\"sats\":8,\"hdop\":0.9,\"accuracy\":null}")
    }
}
