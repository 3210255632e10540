import Glibc
import Testing

@testable import JSONInput

/// The one JSON reader against RFC 8259: string escapes, `\u` escapes with surrogate pairs,
/// numbers, nesting, and errors that name the byte where the input goes wrong.
@Suite struct JSONScannerTests {
    /// Runs `body` on a scanner over `text`'s bytes.
    func scan<R>(_ text: String, _ body: (inout JSONScanner) throws(JSONSyntaxError) -> R) -> Result<R, JSONSyntaxError>
    {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer)
            do throws(JSONSyntaxError) {
                return .success(try body(&scanner))
            } catch {
                return .failure(error)
            }
        }
    }

    func string(_ json: String) -> Result<String, JSONSyntaxError> {
        scan(json) { (scanner) throws(JSONSyntaxError) in try scanner.string(scanner.stringSpan()) }
    }

    func error<R>(_ result: Result<R, JSONSyntaxError>) -> JSONSyntaxError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    /// A syntax error as the user is told it: its words and the byte they point at.
    func told(_ offset: Int, _ problem: String) -> String { "\(problem) at byte \(offset)" }

    @Test func namedEscapesAndTheSolidus() throws {
        #expect(try string(#""a\"b\\c\/d\b\f\n\r\t""#).get() == "a\"b\\c/d\u{08}\u{0C}\n\r\t")
        #expect(try string(#""plain""#).get() == "plain")
        #expect(try string(#""""#).get() == "")
        #expect(try string("\"caf\u{E9} \u{1F600}\"").get() == "caf\u{E9} \u{1F600}")
    }

    @Test func unicodeEscapesJoinSurrogatePairs() throws {
        #expect(try string(#""\u00e9\u00C9""#).get() == "\u{E9}\u{C9}")
        #expect(try string(#""\u0041\u20ac""#).get() == "A\u{20AC}")
        // U+1F600 is the pair D83D DE00, in either case of hex digits
        #expect(try string(#""\ud83d\ude00""#).get() == "\u{1F600}")
        #expect(try string(#""x\uD834\uDD1Ey""#).get() == "x\u{1D11E}y")
        // a half of a pair alone is not a character: U+FFFD stands for it
        #expect(try string(#""\ud83d""#).get() == "\u{FFFD}")
        #expect(try string(#""\ude00x""#).get() == "\u{FFFD}x")
        #expect(try string(#""\ud83d\u0041""#).get() == "\u{FFFD}A")
        // an escaped NUL is a character like any other
        #expect(try string(#""a\u0000b""#).get() == "a\u{0}b")
    }

    @Test func badStringsNameTheirByte() throws {
        // `"ab\x"`: the backslash is byte 3
        #expect(error(string(#""ab\x""#))?.description == told(3, "bad escape '\\x'"))
        // `"\u12G4"`: the four hex digits start at byte 3
        #expect(error(string(#""\u12G4""#))?.offset == 3)
        #expect(error(string(#""\u12""#))?.offset == 3)
        // an unterminated string is reported where it opens
        let open = error(scan(#"{"a":"bc"#) { (s) throws(JSONSyntaxError) in try s.skipValue() })
        #expect(open?.description == told(5, "unterminated string"))
        // a raw control character inside a string
        #expect(error(string("\"a\u{01}b\""))?.description == told(2, "control character in a string"))
        #expect(error(string("\"a\nb\""))?.offset == 2)
    }

    @Test func numbersAreTheDoublesStrtodGives() throws {
        // padded and not: the reader takes a fast path when 18 bytes or more follow
        for padding in ["", String(repeating: " ", count: 24)] {
            for text in [
                "0", "-0", "7", "-0.5", "1e2", "1E+2", "2.5e-3", "0.1", "-73.98765432", "179.99999999999999999",
                "9007199254740993", "4.9e-324", "1.7976931348623157e308", "123456789012345678901234567890",
            ] {
                let value = try scan(text + padding) { (s) throws(JSONSyntaxError) in try s.number() }.get()
                #expect(value.bitPattern == strtod(text, nil).bitPattern, "\(text)")
            }
        }
        #expect(try scan("1e999") { (s) throws(JSONSyntaxError) in try s.number() }.get() == .infinity)
    }

    @Test func malformedNumbersNameTheirByte() throws {
        for padding in ["", String(repeating: " ", count: 24)] {
            for (text, offset, problem) in [
                ("[01]", 1, "number with a leading zero"),
                ("[1.]", 1, "expected digits after '.'"),
                ("[1.e5]", 1, "expected digits after '.'"),
                ("[1e]", 1, "expected digits in the exponent"),
                ("[1e+]", 1, "expected digits in the exponent"),
                ("[-]", 1, "expected a number, found ']'"),
                ("[+1]", 1, "expected a value, found '+'"),
                ("[.5]", 1, "expected a value, found '.'"),
                ("[1x]", 2, "expected ',' or ']', found 'x'"),
            ] {
                let failure = error(scan(text + padding) { (s) throws(JSONSyntaxError) in try s.skipValue() })
                #expect(failure?.description == told(offset, problem), "\(text)")
            }
        }
    }

    @Test func integersAreExactOrAbsent() throws {
        func integer(_ text: String) throws -> Int? {
            try scan(text) { (s) throws(JSONSyntaxError) in try s.integer() }.get()
        }
        #expect(try integer("42") == 42)
        #expect(try integer("-7") == -7)
        #expect(try integer("0") == 0)
        // 18 digits, beyond a double's 2^53: exact
        #expect(try integer("123456789012345678") == 123_456_789_012_345_678)
        #expect(try integer("-999999999999999999") == -999_999_999_999_999_999)
        // written with a fraction or an exponent, or too long: not an integer
        #expect(try integer("3.0") == nil)
        #expect(try integer("1e3") == nil)
        #expect(try integer("1234567890123456789") == nil)
    }

    /// A document of every kind, nested, read member by member and element by element.
    @Test func nestedObjectsAndArrays() throws {
        let text = #"""
             {"name":"a\"b", "n": -1.5e1, "ok": true, "no": false, "none": null,
              "list": [1, [2, [3, {"deep": [4]}]], {}, []], "empty": {}}
            """#
        var seen: [String] = []
        var numbers: [Double] = []
        func walk(_ scanner: inout JSONScanner, _ path: String) throws(JSONSyntaxError) {
            switch scanner.nextKind() {
            case .object:
                try scanner.object { (scanner, key) throws(JSONSyntaxError) in try walk(&scanner, path + "." + key) }
            case .array:
                var index = 0
                try scanner.elements { (scanner) throws(JSONSyntaxError) in
                    try walk(&scanner, path + "[\(index)]")
                    index += 1
                }
            case .string:
                let value = try scanner.string(scanner.stringSpan())
                seen.append(path + "=" + value)
            case .number: numbers.append(try scanner.number())
            case .bool:
                let value = try scanner.bool()
                seen.append(path + "=\(value)")
            case .null:
                _ = scanner.consumeNull()
                seen.append(path + "=null")
            case nil: throw scanner.fail(.expected("a value", found: scanner.found()))
            }
        }
        try scan(text) { (scanner) throws(JSONSyntaxError) in
            try walk(&scanner, "")
            try scanner.expectEnd()
        }.get()
        #expect(seen == [".name=a\"b", ".ok=true", ".no=false", ".none=null"])
        #expect(numbers == [-15, 1, 2, 3, 4])
    }

    @Test func readersOfOneKindSkipEveryOther() throws {
        let text = #"{"a":"x","b":[1,{"c":2}],"c":7,"d":true,"e":null,"f":"s"}"#
        var numbers: [String: Double] = [:]
        var bools: [String: Bool] = [:]
        var strings: [String: String] = [:]
        try scan(text) { (scanner) throws(JSONSyntaxError) in
            try scanner.object { (scanner, key) throws(JSONSyntaxError) in
                switch key {
                case "a", "b", "c": numbers[key] = try scanner.numberIfNumber()
                case "d", "e": bools[key] = try scanner.boolIfBool()
                default:
                    if let span = try scanner.stringSpanIfString() { strings[key] = try scanner.string(span) }
                }
            }
            try scanner.expectEnd()
        }.get()
        #expect(numbers == ["c": 7])
        #expect(bools == ["d": true])
        #expect(strings == ["f": "s"])
    }

    @Test func nestingIsBoundedAndNeverOverflowsTheStack() throws {
        func skip(_ text: String) -> JSONSyntaxError? {
            error(scan(text) { (s) throws(JSONSyntaxError) in try s.skipValue() })
        }
        #expect(skip(String(repeating: "[", count: 500) + String(repeating: "]", count: 500)) == nil)
        #expect(
            skip(String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000))?.problem.description
                == "nesting deeper than 512 levels")
        #expect(
            skip(String(repeating: "{\"a\":", count: 100_000))?.problem.description == "nesting deeper than 512 levels")
    }

    @Test func structuralErrorsNameTheirByte() throws {
        func skip(_ text: String) -> JSONSyntaxError? {
            error(
                scan(text) { (s) throws(JSONSyntaxError) in
                    try s.skipValue()
                    try s.expectEnd()
                })
        }
        // A comma before the close is named, at the comma.
        #expect(
            skip(#"{"a":1,}"#)?.description
                == told(6, "a trailing comma before '}': JSON allows none after the last element; remove it"))
        #expect(skip(#"[1, ]"#)?.problem.description.hasPrefix("a trailing comma before ']'") == true)
        // The cause travels with its values: what was expected and what stands there.
        #expect(skip(#"[1, ]"#)?.problem == .trailingComma(close: UInt8(ascii: "]")))
        #expect(skip(#"{"a" 1}"#)?.problem == .expected("':'", found: .byte(UInt8(ascii: "1"))))
        #expect(skip("[1,")?.problem == .expected("a value", found: .end))
        #expect(skip(#"{"a":1, 2}"#)?.description == told(8, "expected a string, found '2'"))
        #expect(skip(#"{"a" 1}"#)?.description == told(5, "expected ':', found '1'"))
        #expect(skip(#"[1 2]"#)?.description == told(3, "expected ',' or ']', found '2'"))
        #expect(skip(#"{} x"#)?.description == told(3, "unexpected data after the JSON value"))
        #expect(skip(#"[tru]"#)?.description == told(1, "expected a value, found 't'"))
        #expect(skip("[1,")?.description == told(3, "expected a value, found the end of the file"))
        #expect(skip("[\u{7F}]")?.problem.description == "expected a value, found byte 0x7f")
        #expect(skip(#"[1 2]"#)?.description == "expected ',' or ']', found '2' at byte 3")
        // a byte order mark is skipped, and offsets still count from the first byte
        #expect(skip("\u{FEFF}[1 2]")?.offset == 6)
        #expect(skip("\u{FEFF} {\"a\": [1, 2.5, \"x\"]} ") == nil)
    }

    @Test func keysCompareWithoutDecoding() throws {
        let keys = try scan(#"{"lat":1,"l\u0061t":2,"la":3}"#) { (scanner) throws(JSONSyntaxError) in
            var matches: [Bool] = []
            try scanner.members { (scanner, key) throws(JSONSyntaxError) in
                matches.append(scanner.spanEquals(key, "lat"))
                try scanner.skipValue()
            }
            return matches
        }.get()
        // an escaped key is never equal to plain text: gpsd and the fence loader write none
        #expect(keys == [true, false, false])
    }
}
