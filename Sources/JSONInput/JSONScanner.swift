/// A JSON syntax error at a byte offset (counted from the first byte handed to the scanner).
public struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
    public let offset: Int
    public let problem: JSONProblem

    public init(offset: Int, problem: JSONProblem) {
        self.offset = offset
        self.problem = problem
    }

    public var description: String { "\(problem) at byte \(offset)" }
}

/// What is wrong with JSON text where a `JSONSyntaxError` points, with what stands there;
/// `description` says it.
public enum JSONProblem: Sendable, Equatable, CustomStringConvertible {
    /// A token that is not there (`':'`, `a string`, `a value`) and what stands in its place.
    case expected(String, found: JSONFound)
    /// A literal cut short by the end of the text (`true`).
    case cutShort(literal: String)
    /// Neither a `,` nor the `close` of the object or array after an element.
    case expectedCommaOr(close: UInt8, found: JSONFound)
    /// A `,` right before the `close` of an object or array.
    case trailingComma(close: UInt8)
    case controlCharacter
    case unterminatedString
    case badUnicodeEscape
    /// A `\` at the end of a string (nil), or before a byte that escapes nothing.
    case badEscape(UInt8?)
    case leadingZero
    case noFractionDigits
    case noExponentDigits
    case tooDeep(levels: Int)
    /// More than blanks after the whole of the text's value.
    case dataAfter(JSONTopLevel)

    public var description: String {
        switch self {
        case .expected(let token, let found): "expected \(token)\(found)"
        case .cutShort(let literal): "expected '\(literal)'"
        case .expectedCommaOr(let close, let found): "expected ',' or '\(Character(Unicode.Scalar(close)))'\(found)"
        case .trailingComma(let close):
            "a trailing comma before '\(Character(Unicode.Scalar(close)))': JSON allows none after the last element; remove it"
        case .controlCharacter: "control character in a string"
        case .unterminatedString: "unterminated string"
        case .badUnicodeEscape: "bad \\u escape"
        case .badEscape(nil): "bad escape"
        case .badEscape(let byte?): "bad escape '\\\(Character(Unicode.Scalar(byte)))'"
        case .leadingZero: "number with a leading zero"
        case .noFractionDigits: "expected digits after '.'"
        case .noExponentDigits: "expected digits in the exponent"
        case .tooDeep(let levels): "nesting deeper than \(levels) levels"
        case .dataAfter(let value): "unexpected data after \(value)"
        }
    }
}

/// What stands where a token was expected: the end of the text, or a byte.
public enum JSONFound: Sendable, Equatable, CustomStringConvertible {
    case end
    case byte(UInt8)

    /// `, found 'x'`: the words follow what was expected.
    public var description: String {
        switch self {
        case .end: ", found the end of the file"
        case .byte(let c) where c >= 0x21 && c < 0x7F: ", found '\(Character(Unicode.Scalar(c)))'"
        case .byte(let c): ", found byte 0x\(String(c, radix: 16))"
        }
    }
}

/// The whole value of a JSON text, as its reader names it.
public enum JSONTopLevel: Sendable, Equatable, CustomStringConvertible {
    /// Any value (`expectEnd`).
    case value
    /// A GeoJSON file's object.
    case object
    /// A route's GeoJSON value.
    case topLevelValue

    public var description: String {
        switch self {
        case .value: "the JSON value"
        case .object: "the top-level object"
        case .topLevelValue: "the top-level value"
        }
    }
}

/// The program's one JSON reader: a forward-only tokenizer over bytes in memory, strict about the
/// grammar (RFC 8259), that never builds a document tree: a reader pulls exactly the values it
/// needs and skips the rest, without an allocation per value (fence files, gpsd's reports, event
/// lines, broker messages). Numbers become the correctly rounded double, the one Python's
/// `float()` gives (`DecimalText`). Nesting is limited to 512 levels, so no input can overflow the
/// stack.
///
/// Public, with the per-byte steps `@inlinable`: the loaders live in other modules, and an
/// `@inlinable` `package` method is not inlined across modules, which cost the GeoJSON loader
/// 6-12 % more instructions.
public struct JSONScanner {
    /// A string token: the bytes between its quotes, and whether they hold escapes.
    public typealias Span = (start: Int, end: Int, escaped: Bool)

    public let base: UnsafePointer<UInt8>
    public let end: Int
    public var pos = 0

    public init(_ bytes: UnsafeBufferPointer<UInt8>) {
        base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
        end = bytes.count
        // UTF-8 byte order mark
        if end >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF { pos = 3 }
    }

    public init(_ bytes: UnsafeRawBufferPointer) {
        self.init(
            UnsafeBufferPointer(start: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), count: bytes.count))
    }

    @inlinable
    public func fail(_ problem: JSONProblem, at offset: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(offset: offset ?? pos, problem: problem)
    }

    @inlinable @inline(__always)
    public mutating func skipWhitespace() {
        while pos < end {
            let c = base[pos]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { pos += 1 } else { return }
        }
    }

    /// Next non-blank byte, not consumed; 0 at the end.
    @inlinable @inline(__always)
    public mutating func peek() -> UInt8 {
        skipWhitespace()
        return pos < end ? base[pos] : 0
    }

    @inlinable @inline(__always)
    public mutating func expect(_ c: UInt8, _ what: String) throws(JSONSyntaxError) {
        if peek() != c { throw fail(.expected(what, found: found())) }
        pos += 1
    }

    /// Consumes `c` if it is next.
    @inlinable @inline(__always)
    public mutating func consume(_ c: UInt8) -> Bool {
        if peek() == c {
            pos += 1
            return true
        }
        return false
    }

    /// What stands at the current position.
    public func found() -> JSONFound { pos >= end ? .end : .byte(base[pos]) }

    /// After an element of an object or array: true when another follows (','), false at `close`.
    /// A comma right before `close` (as JavaScript allows and JSON does not) is named as such.
    @inlinable @inline(__always)
    public mutating func next(close: UInt8) throws(JSONSyntaxError) -> Bool {
        let c = peek()
        if c == 0x2C {
            let comma = pos
            pos += 1
            if peek() == close {
                throw fail(.trailingComma(close: close), at: comma)
            }
            return true
        }
        if c == close {
            pos += 1
            return false
        }
        throw fail(.expectedCommaOr(close: close, found: found()))
    }

    /// A string token: the byte range between the quotes and whether it holds escapes.
    @inlinable
    public mutating func stringSpan() throws(JSONSyntaxError) -> Span {
        if peek() != 0x22 { throw fail(.expected("a string", found: found())) }
        pos += 1
        let start = pos
        var escaped = false
        while pos < end {
            let c = base[pos]
            if c == 0x22 {
                pos += 1
                return (start, pos - 1, escaped)
            }
            if c == 0x5C {
                escaped = true
                pos += 2
                continue
            }
            if c < 0x20 { throw fail(.controlCharacter) }
            pos += 1
        }
        throw fail(.unterminatedString, at: start - 1)
    }

    /// Whether a span without escapes equals an ASCII key.
    @inlinable @inline(__always)
    public func spanEquals(_ s: Span, _ key: StaticString) -> Bool {
        if s.escaped || s.end - s.start != key.utf8CodeUnitCount { return false }
        let k = key.utf8Start
        for i in 0..<(s.end - s.start) where base[s.start + i] != k[i] { return false }
        return true
    }

    /// Decodes a string span (escapes included) to a Swift string.
    public func string(_ s: Span) throws(JSONSyntaxError) -> String {
        let raw = UnsafeBufferPointer(start: base + s.start, count: s.end - s.start)
        if !s.escaped { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = 0
        func hex4(_ at: Int) throws(JSONSyntaxError) -> UInt32 {
            guard at + 4 <= raw.count else { throw fail(.badUnicodeEscape, at: s.start + at) }
            var v: UInt32 = 0
            for k in 0..<4 {
                let c = raw[at + k]
                let d: UInt32
                switch c {
                case 0x30...0x39: d = UInt32(c - 0x30)
                case 0x41...0x46: d = UInt32(c - 0x41 + 10)
                case 0x61...0x66: d = UInt32(c - 0x61 + 10)
                default: throw fail(.badUnicodeEscape, at: s.start + at)
                }
                v = v << 4 | d
            }
            return v
        }
        while i < raw.count {
            let c = raw[i]
            if c != 0x5C {
                out.append(c)
                i += 1
                continue
            }
            guard i + 1 < raw.count else { throw fail(.badEscape(nil), at: s.start + i) }
            let e = raw[i + 1]
            i += 2
            switch e {
            case 0x22: out.append(0x22)
            case 0x5C: out.append(0x5C)
            case 0x2F: out.append(0x2F)
            case 0x62: out.append(0x08)
            case 0x66: out.append(0x0C)
            case 0x6E: out.append(0x0A)
            case 0x72: out.append(0x0D)
            case 0x74: out.append(0x09)
            case 0x75:
                var v = try hex4(i)
                i += 4
                if v >= 0xD800 && v < 0xDC00, i + 6 <= raw.count, raw[i] == 0x5C, raw[i + 1] == 0x75 {
                    let low = try hex4(i + 2)
                    if low >= 0xDC00 && low < 0xE000 {
                        v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)
                        i += 6
                    }
                }
                let scalar = Unicode.Scalar(v) ?? "\u{FFFD}"
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            default: throw fail(.badEscape(e), at: s.start + i - 2)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether the next token starts a number.
    @inlinable @inline(__always)
    public mutating func atNumber() -> Bool {
        let c = peek()
        return c == 0x2D || (c >= 0x30 && c <= 0x39)
    }

    /// A number token (strict JSON grammar) as a correctly rounded double.
    @inlinable @inline(__always)
    public mutating func number() throws(JSONSyntaxError) -> Double {
        skipWhitespace()
        if end - pos >= 18, let (v, after) = DecimalText.short(base, pos) {
            pos = after
            return v
        }
        let start = pos
        let number = DecimalText.scan(base, pos, end)
        pos = number.end
        if number.plus || number.integerDigits == 0 {
            pos = start + (number.negative ? 1 : 0)  // what stands where the digits should be
            throw fail(.expected("a number", found: found()), at: start)
        }
        if number.leadingZero { throw fail(.leadingZero, at: start) }
        if number.fractionDigits == 0 { throw fail(.noFractionDigits, at: start) }
        if number.exponentDigits == 0 { throw fail(.noExponentDigits, at: start) }
        return number.value(base, from: start)
    }

    /// Skips one value of any kind, checking its syntax.
    @inlinable
    public mutating func skipValue(depth: Int = 0) throws(JSONSyntaxError) {
        if depth > 512 { throw fail(.tooDeep(levels: 512)) }
        let c = peek()
        switch c {
        case 0x7B:
            pos += 1
            if consume(0x7D) { return }
            repeat {
                _ = try stringSpan()
                try expect(0x3A, "':'")
                try skipValue(depth: depth + 1)
            } while try next(close: 0x7D)
        case 0x5B:
            pos += 1
            if consume(0x5D) { return }
            repeat { try skipValue(depth: depth + 1) } while try next(close: 0x5D)
        case 0x22: _ = try stringSpan()
        case 0x74: try literal("true")
        case 0x66: try literal("false")
        case 0x6E: try literal("null")
        default:
            if atNumber() { _ = try number() } else { throw fail(.expected("a value", found: found())) }
        }
    }

    @inlinable
    public mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let n = word.utf8CodeUnitCount
        guard pos + n <= end else { throw fail(.cutShort(literal: word.description)) }
        for i in 0..<n where base[pos + i] != word.utf8Start[i] { throw fail(.expected("a value", found: found())) }
        pos += n
    }

    /// Consumes `null` if it is next.
    @inlinable
    public mutating func consumeNull() -> Bool {
        if peek() == 0x6E, pos + 4 <= end, base[pos + 1] == 0x75, base[pos + 2] == 0x6C, base[pos + 3] == 0x6C {
            pos += 4
            return true
        }
        return false
    }

    /// Line and column (1-based) of a byte offset, for messages.
    public func lineColumn(_ offset: Int) -> (Int, Int) {
        var line = 1
        var lineStart = 0
        for i in 0..<min(offset, end) where base[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        return (line, offset - lineStart + 1)
    }
}
