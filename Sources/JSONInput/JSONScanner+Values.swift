/// The kinds of JSON value, told by a value's first byte.
public enum JSONKind: Sendable, Equatable {
    case object, array, string, number, bool, null
}

extension JSONScanner {
    /// The kind of the next value, not consumed; nil when no value can start there.
    @inlinable
    public mutating func nextKind() -> JSONKind? {
        switch peek() {
        case 0x7B: .object
        case 0x5B: .array
        case 0x22: .string
        case 0x74, 0x66: .bool
        case 0x6E: .null
        case 0x2D, 0x30...0x39: .number
        default: nil
        }
    }

    /// A number or `null`.
    @inlinable
    public mutating func optionalNumber() throws(JSONSyntaxError) -> Double? {
        consumeNull() ? nil : try number()
    }

    /// `true` or `false`.
    @inlinable
    public mutating func bool() throws(JSONSyntaxError) -> Bool {
        if peek() == 0x74 {
            try literal("true")
            return true
        }
        try literal("false")
        return false
    }

    /// A string or `null`.
    public mutating func optionalString() throws(JSONSyntaxError) -> String? {
        consumeNull() ? nil : try string(stringSpan())
    }

    /// Calls `member` with each key of an object (the scanner stands before its value, which
    /// `member` must consume).
    public mutating func object(_ member: (inout JSONScanner, String) throws(JSONSyntaxError) -> Void)
        throws(JSONSyntaxError)
    {
        try members { (scanner, key) throws(JSONSyntaxError) in try member(&scanner, scanner.string(key)) }
    }

    /// `object` without decoding the keys: each key as its span, to compare with `spanEquals`.
    @inlinable
    public mutating func members(_ member: (inout JSONScanner, Span) throws(JSONSyntaxError) -> Void)
        throws(JSONSyntaxError)
    {
        try expect(0x7B, "'{'")
        if consume(0x7D) { return }
        repeat {
            let key = try stringSpan()
            try expect(0x3A, "':'")
            try member(&self, key)
        } while try next(close: 0x7D)
    }

    /// Calls `element` for each element of an array (the scanner stands before it, and `element`
    /// must consume it).
    @inlinable
    public mutating func elements(_ element: (inout JSONScanner) throws(JSONSyntaxError) -> Void)
        throws(JSONSyntaxError)
    {
        try expect(0x5B, "'['")
        if consume(0x5D) { return }
        repeat { try element(&self) } while try next(close: 0x5D)
    }

    /// After the top-level value: only blanks may follow.
    public mutating func expectEnd() throws(JSONSyntaxError) {
        skipWhitespace()
        if pos < end { throw fail(.dataAfter(.value)) }
    }

    /// A number that is written as an integer (no fraction, no exponent) of at most 18 digits.
    /// Nil for any other number, which is consumed all the same.
    @inlinable
    public mutating func integer() throws(JSONSyntaxError) -> Int? {
        skipWhitespace()
        let start = pos
        _ = try number()
        let negative = base[start] == 0x2D
        let first = negative ? start + 1 : start
        guard pos - first <= 18 else { return nil }
        var value = 0
        for index in first..<pos {
            let digit = base[index] &- 0x30
            guard digit < 10 else { return nil }  // a fraction or an exponent
            value = value * 10 + Int(digit)
        }
        return negative ? -value : value
    }

    // Readers that want one kind and take any other as absent: the value is consumed (and its
    // syntax checked) whatever its kind.

    /// A number, or nil after skipping a value of another kind.
    @inlinable
    public mutating func numberIfNumber() throws(JSONSyntaxError) -> Double? {
        if atNumber() { return try number() }
        try skipValue()
        return nil
    }

    /// `integer()` when the value is a number; nil after skipping any other.
    @inlinable
    public mutating func integerIfNumber() throws(JSONSyntaxError) -> Int? {
        if atNumber() { return try integer() }
        try skipValue()
        return nil
    }

    /// A boolean, or nil after skipping a value of another kind.
    @inlinable
    public mutating func boolIfBool() throws(JSONSyntaxError) -> Bool? {
        if nextKind() == .bool { return try bool() }
        try skipValue()
        return nil
    }

    /// A string's span, or nil after skipping a value of another kind.
    @inlinable
    public mutating func stringSpanIfString() throws(JSONSyntaxError) -> Span? {
        if peek() == 0x22 { return try stringSpan() }
        try skipValue()
        return nil
    }

    /// The bytes of a span (escapes as written), valid while the scanned bytes are.
    @inlinable
    public func bytes(_ span: Span) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + span.start, count: span.end - span.start)
    }
}
