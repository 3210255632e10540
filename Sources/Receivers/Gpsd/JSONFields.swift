import Glibc
import NMEA

/// One JSON value inside a line, not decoded: its kind and its bytes (for a string, the bytes
/// between the quotes, escapes as they are). Valid while the line is.
public struct JSONValue {
    public enum Kind: Sendable { case string, number, bool, null, object, array }
    public let kind: Kind
    public let bytes: UnsafeRawBufferPointer

    /// A number as the correctly rounded double (the value Python's `json` gives): Clinger's exact
    /// case for up to 15 significant digits, `strtod` beyond (`DecimalText`).
    public var double: Double? {
        guard kind == .number else { return nil }
        return JSONNumber.parse(bytes)
    }

    /// A number without fraction or exponent that fits an `Int`.
    public var integer: Int? {
        guard kind == .number, !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var value = 0
        var negative = false
        for (index, byte) in bytes.enumerated() {
            if index == 0, byte == UInt8(ascii: "-") {
                negative = true
                continue
            }
            guard byte &- 0x30 < 10 else { return nil }
            value = value * 10 + Int(byte &- 0x30)
        }
        return negative ? -value : value
    }

    public var bool: Bool? {
        guard kind == .bool else { return nil }
        return bytes.first == UInt8(ascii: "t")
    }

    /// Whether this is a string with exactly the bytes of `text` (no escapes in it).
    public func isString(_ text: StaticString) -> Bool {
        kind == .string && JSONFields.equal(bytes, text)
    }

    /// Whether this is a string equal to `text` (compared as bytes; gpsd escapes nothing in paths).
    public func isString(_ text: [UInt8]) -> Bool {
        kind == .string && bytes.count == text.count && bytes.elementsEqual(text)
    }

    /// The string, with JSON escapes decoded; allocates, for rare reports only (VERSION, ERROR).
    public var string: String? {
        guard kind == .string else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            guard byte == UInt8(ascii: "\\"), index < bytes.count else {
                out.append(byte)
                continue
            }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "u"):
                var scalar: UInt32 = 0
                var digits = 0
                while digits < 4, index < bytes.count, let value = hexValue(bytes[index]) {
                    scalar = scalar << 4 | value
                    digits += 1
                    index += 1
                }
                out.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar) ?? "?")).utf8))
            default: out.append(escape)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The elements of an array, in order; false when the array is malformed.
    public func forEachElement(_ body: (JSONValue) -> Void) -> Bool {
        guard kind == .array else { return false }
        var cursor = JSONCursor(bytes, position: 1)
        cursor.skipWhitespace()
        if cursor.peek == UInt8(ascii: "]") { return true }
        while true {
            guard let value = cursor.value() else { return false }
            body(value)
            cursor.skipWhitespace()
            switch cursor.take() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "]"): return true
            default: return false
            }
        }
    }

    /// The members of an object; false when it is malformed.
    public func forEachMember(_ body: (UnsafeRawBufferPointer, JSONValue) -> Void) -> Bool {
        guard kind == .object else { return false }
        return JSONFields.forEachMember(bytes, body)
    }
}

/// A small field scanner for the one-object-per-line JSON of gpsd's protocol: walks the members of
/// an object and hands out each key and value as views into the line. Nested objects and arrays
/// are skipped in one pass unless asked for. No allocation, no recursion (a line of a million
/// brackets cannot overflow the stack); any malformed input gives false, never a trap.
public enum JSONFields {
    /// Calls `body` for each member of the object that `line` holds (surrounding blanks allowed);
    /// false when the line is not one well-formed object.
    public static func forEachMember(
        _ line: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer, JSONValue) -> Void
    ) -> Bool {
        var cursor = JSONCursor(line, position: 0)
        cursor.skipWhitespace()
        guard cursor.take() == UInt8(ascii: "{") else { return false }
        cursor.skipWhitespace()
        if cursor.peek == UInt8(ascii: "}") {
            cursor.position += 1
            return cursor.atEndAfterWhitespace()
        }
        while true {
            cursor.skipWhitespace()
            guard let key = cursor.value(), key.kind == .string else { return false }
            cursor.skipWhitespace()
            guard cursor.take() == UInt8(ascii: ":") else { return false }
            guard let value = cursor.value() else { return false }
            body(key.bytes, value)
            cursor.skipWhitespace()
            switch cursor.take() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"): return cursor.atEndAfterWhitespace()
            default: return false
            }
        }
    }

    static func equal(_ bytes: UnsafeRawBufferPointer, _ text: StaticString) -> Bool {
        guard bytes.count == text.utf8CodeUnitCount else { return false }
        let other = UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        return bytes.elementsEqual(other)
    }
}

@inline(__always)
private func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case 0x30...0x39: UInt32(byte - 0x30)
    case 0x41...0x46: UInt32(byte - 0x41 + 10)
    case 0x61...0x66: UInt32(byte - 0x61 + 10)
    default: nil
    }
}

/// A position in a line, and the JSON value grammar at that position.
struct JSONCursor {
    let bytes: UnsafeRawBufferPointer
    var position: Int

    init(_ bytes: UnsafeRawBufferPointer, position: Int) {
        self.bytes = bytes
        self.position = position
    }

    var peek: UInt8 { position < bytes.count ? bytes[position] : 0 }

    mutating func take() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    mutating func atEndAfterWhitespace() -> Bool {
        skipWhitespace()
        return position == bytes.count
    }

    /// The value starting at the next non-blank byte, consumed; nil when malformed.
    mutating func value() -> JSONValue? {
        skipWhitespace()
        let first = peek
        let begin = position
        switch first {
        case UInt8(ascii: "\""):
            position += 1
            guard skipStringBody() else { return nil }
            return JSONValue(kind: .string, bytes: slice(begin + 1, position - 1))
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard skipContainer() else { return nil }
            return JSONValue(kind: first == UInt8(ascii: "{") ? .object : .array, bytes: slice(begin, position))
        case UInt8(ascii: "t"): return literal("true", .bool)
        case UInt8(ascii: "f"): return literal("false", .bool)
        case UInt8(ascii: "n"): return literal("null", .null)
        case UInt8(ascii: "-"), 0x30...0x39:
            while position < bytes.count {
                switch bytes[position] {
                case 0x30...0x39, UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"),
                    UInt8(ascii: "E"):
                    position += 1
                default:
                    return JSONValue(kind: .number, bytes: slice(begin, position))
                }
            }
            return JSONValue(kind: .number, bytes: slice(begin, position))
        default:
            return nil
        }
    }

    private func slice(_ from: Int, _ to: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[from..<to])
    }

    private mutating func literal(_ word: StaticString, _ kind: JSONValue.Kind) -> JSONValue? {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count, JSONFields.equal(slice(position, position + count), word) else {
            return nil
        }
        position += count
        return JSONValue(kind: kind, bytes: slice(position - count, position))
    }

    /// Past the closing quote of a string whose opening quote is consumed.
    private mutating func skipStringBody() -> Bool {
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: "\"") { return true }
            if byte == UInt8(ascii: "\\") {
                guard position < bytes.count else { return false }
                position += 1
            } else if byte < 0x20 {
                return false
            }
        }
        return false
    }

    /// Past the bracket that closes the object or array starting here. Brackets are counted,
    /// strings skipped; the inside is checked only when a caller descends into it.
    private mutating func skipContainer() -> Bool {
        var depth = 0
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return true }
            case UInt8(ascii: "\""):
                guard skipStringBody() else { return false }
            default: break
            }
        }
        return false
    }
}

/// JSON number text to a double (`DecimalText`: Clinger's exact case, else `strtod`): nil unless
/// the whole text is one number.
enum JSONNumber {
    static func parse(_ text: UnsafeRawBufferPointer) -> Double? {
        guard let base = text.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        let number = DecimalText.scan(base, 0, text.count)
        guard number.end == text.count, number.hasDigits, !number.plus, number.exponentDigits != 0 else { return nil }
        let value = number.value(base, from: 0)
        return value.isFinite ? value : nil
    }
}
