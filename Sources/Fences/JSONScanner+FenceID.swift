import JSONInput

extension JSONScanner {
    /// A number token as written (`7`, `7.0`, `1e3`): fence ids keep their text.
    package mutating func numberText() throws(JSONSyntaxError) -> String {
        skipWhitespace()
        let start = pos
        _ = try number()
        return String(decoding: UnsafeBufferPointer(start: base + start, count: pos - start), as: UTF8.self)
    }

    /// A fence id: a string or a number.
    package mutating func fenceID() throws(JSONSyntaxError) -> FenceID {
        if peek() == 0x22 { return .string(try string(stringSpan())) }
        return .number(try numberText())
    }
}
