import Platform

/// A pull reader of XML over a file read in chunks: start tags with their attributes, end tags and
/// text, one at a time, each valid until the next call. Only what fence sources use: elements,
/// attributes, text, CDATA and the five named entities with character references; comments,
/// processing instructions and the document type are passed over. The nesting is checked (an end
/// tag must close the open element, and the file must not end inside one), so a truncated or
/// broken file is refused with its line and column.
final class XMLReader {
    enum Token { case start, end, text, endOfFile }

    struct Span {
        var start: Int
        var end: Int
        /// Holds `&`: entities to decode.
        var escaped: Bool
    }

    struct Attribute {
        var key: Span
        var value: Span
    }

    let source: ByteSource
    private(set) var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var filled = 0
    private var position = 0
    /// The file offset of `buffer[0]`.
    private var bufferOffset = 0
    private var atEnd = false

    private(set) var token = Token.endOfFile
    /// The element's name (start and end tags) or the text (text tokens).
    private(set) var name = Span(start: 0, end: 0, escaped: false)
    private(set) var text = Span(start: 0, end: 0, escaped: false)
    private(set) var selfClosing = false
    private(set) var attributes: [Attribute] = []
    /// The names of the open elements, one after another, and where each starts in `openNames`.
    private var openNames: [UInt8] = []
    private var openStarts: [Int] = []
    var depth: Int { openStarts.count }

    init(source: ByteSource, chunk: Int = 1 << 20) {
        self.source = source
        capacity = chunk
        buffer = .allocate(capacity: chunk)
        attributes.reserveCapacity(16)
    }

    deinit { buffer.deallocate() }

    /// Back to the first byte, for another pass.
    func rewind() {
        source.rewind()
        filled = 0
        position = 0
        bufferOffset = 0
        atEnd = false
        openNames.removeAll(keepingCapacity: true)
        openStarts.removeAll(keepingCapacity: true)
    }

    // MARK: tokens

    /// The next token. A self-closing element gives one `start` token with `selfClosing` set.
    @discardableResult
    func next() throws(ImportError) -> Token {
        selfClosing = false
        while true {
            if position == filled {
                try refill()
                if position == filled {
                    if let open = openStarts.last {
                        throw problem(at: filled, .endsInsideElement(name: openName(open)))
                    }
                    token = .endOfFile
                    return token
                }
            }
            if buffer[position] != 0x3C {
                let end = try find(0x3C, from: position, orEndOfFile: true)
                text = Span(start: position, end: end, escaped: contains(0x26, position, end))
                let blank = isBlank(position, end)
                position = end
                if blank { continue }
                if openStarts.isEmpty { throw problem(at: text.start, .textOutsideRoot) }
                token = .text
                return token
            }
            try ensure(2, from: position)
            let second = buffer[position + 1]
            if second == 0x2F {  // </name>
                let close = try find(0x3E, from: position + 2, orEndOfFile: false)
                var end = close
                while end > position + 2, isSpace(buffer[end - 1]) { end -= 1 }
                name = Span(start: position + 2, end: end, escaped: false)
                try popOpen(at: position)
                position = close + 1
                token = .end
                return token
            }
            if second == 0x3F {  // <? ... ?>
                position = try findSequence("?>", from: position + 2) + 2
                continue
            }
            if second == 0x21 {
                if try startsWith("<!--", at: position) {
                    position = try findSequence("-->", from: position + 4) + 3
                    continue
                }
                if try startsWith("<![CDATA[", at: position) {
                    let end = try findSequence("]]>", from: position + 9)
                    text = Span(start: position + 9, end: end, escaped: false)
                    position = end + 3
                    if openStarts.isEmpty { throw problem(at: text.start, .textOutsideRoot) }
                    token = .text
                    return token
                }
                position = try find(0x3E, from: position + 2, orEndOfFile: false) + 1  // <!DOCTYPE ...>
                continue
            }
            try readStartTag()
            token = .start
            return token
        }
    }

    /// Skips the rest of the element whose start tag was just read.
    func skipElement() throws(ImportError) {
        guard token == .start, !selfClosing else { return }
        let level = depth
        while depth >= level {
            if try next() == .endOfFile { return }
        }
    }

    /// The text content of the element whose start tag was just read, up to its end tag (child
    /// elements' text included), entities decoded.
    func elementText() throws(ImportError) -> String {
        guard token == .start, !selfClosing else { return "" }
        let level = depth
        var result = ""
        while true {
            switch try next() {
            case .text: result += string(text)
            case .end where depth < level: return result
            case .endOfFile: return result
            case .start, .end: continue
            }
        }
    }

    // MARK: reading values

    func nameIs(_ expected: StaticString) -> Bool { equals(name, expected) }

    func attribute(_ key: StaticString) -> Span? {
        for attribute in attributes where equals(attribute.key, key) { return attribute.value }
        return nil
    }

    func equals(_ span: Span, _ expected: StaticString) -> Bool {
        let count = expected.utf8CodeUnitCount
        guard span.end - span.start == count else { return false }
        return memcmp(buffer + span.start, expected.utf8Start, count) == 0
    }

    func string(_ span: Span) -> String {
        let raw = UnsafeBufferPointer(start: buffer + span.start, count: span.end - span.start)
        guard span.escaped else { return String(decoding: raw, as: UTF8.self) }
        return XMLEntities.decode(raw)
    }

    /// A whole decimal number (an OSM id, a reference).
    func integer(_ span: Span) -> Int64? {
        var index = span.start
        var negative = false
        if index < span.end, buffer[index] == 0x2D {
            negative = true
            index += 1
        }
        guard index < span.end else { return nil }
        var value: Int64 = 0
        while index < span.end {
            let digit = buffer[index] &- 0x30
            guard digit < 10 else { return nil }
            value = value &* 10 &+ Int64(digit)
            index += 1
        }
        return negative ? -value : value
    }

    /// A decimal number in degrees as ten-millionths, rounded half away from zero (OSM's own
    /// resolution); nil when it is not a plain decimal.
    func degrees7(_ span: Span) -> Int64? {
        var index = span.start
        var negative = false
        if index < span.end, buffer[index] == 0x2D || buffer[index] == 0x2B {
            negative = buffer[index] == 0x2D
            index += 1
        }
        var whole: Int64 = 0
        var digits = 0
        while index < span.end, buffer[index] &- 0x30 < 10 {
            whole = whole &* 10 &+ Int64(buffer[index] &- 0x30)
            index += 1
            digits += 1
            if digits > 4 { return nil }
        }
        var fraction: Int64 = 0
        var places = 0
        var roundUp = false
        if index < span.end, buffer[index] == 0x2E {
            index += 1
            while index < span.end, buffer[index] &- 0x30 < 10 {
                let digit = Int64(buffer[index] &- 0x30)
                if places < 7 {
                    fraction = fraction * 10 + digit
                    places += 1
                } else if places == 7 {
                    roundUp = digit >= 5
                    places += 1
                }
                digits += 1
                index += 1
            }
        }
        guard index == span.end, digits > 0 else { return nil }
        while places < 7 {
            fraction *= 10
            places += 1
        }
        let value = whole * 10_000_000 + fraction + (roundUp ? 1 : 0)
        return negative ? -value : value
    }

    /// A floating-point number (`strtod`'s grammar, the whole span).
    func double(_ span: Span) -> Double? {
        let count = span.end - span.start
        guard count > 0, count < 64 else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { scratch in
            for index in 0..<count { scratch[index] = CChar(bitPattern: buffer[span.start + index]) }
            scratch[count] = 0
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(scratch.baseAddress!, &end)
            guard end == scratch.baseAddress! + count, value.isFinite else { return nil }
            return value
        }
    }

    /// Where `index` of the buffer is in the file, as a line and column (the file is read again
    /// up to there: only on the way to an error message).
    func place(ofBuffer index: Int) -> ImportPlace {
        XMLPlace.lineAndColumn(of: source, offset: bufferOffset + index)
    }

    func problem(at index: Int, _ what: XMLProblem) -> ImportError {
        ImportError(file: source.path, place: place(ofBuffer: index), problem: .xml(what))
    }

    /// Where the current token starts, for a message about its content.
    var tokenPlace: ImportPlace { place(ofMark: tokenMark) }

    /// Where the current token starts in the file, kept cheaply for a message that may come later
    /// (`place(ofMark:)` reads the file again to count lines).
    var tokenMark: Int { bufferOffset + (token == .text ? text.start : max(name.start - 1, 0)) }

    func place(ofMark mark: Int) -> ImportPlace { XMLPlace.lineAndColumn(of: source, offset: mark) }

    // MARK: the buffer

    /// Keeps the bytes from `position` on, reads more after them; grows when the buffer is full.
    private func refill() throws(ImportError) {
        guard !atEnd else { return }
        if position > 0 {
            let keep = filled - position
            if keep > 0 { memmove(buffer, buffer + position, keep) }
            bufferOffset += position
            filled = keep
            position = 0
        }
        if filled == capacity {
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            grown.update(from: buffer, count: filled)
            buffer.deallocate()
            buffer = grown
            capacity *= 2
        }
        let n = try source.read(into: buffer + filled, count: capacity - filled)
        if n == 0 { atEnd = true }
        filled += n
    }

    /// The index of the first `byte` at or after `from`, reading more as needed; at the end of the
    /// file, the end (`orEndOfFile`) or an error. Refilling moves the bytes: the index returned is
    /// valid now, `from` may not be.
    private func find(_ byte: UInt8, from: Int, orEndOfFile: Bool) throws(ImportError) -> Int {
        var relative = from - position
        while true {
            let start = position + relative
            if start < filled, let hit = memchr(buffer + start, Int32(byte), filled - start) {
                return buffer.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            }
            relative = filled - position
            if atEnd {
                if orEndOfFile { return filled }
                throw problem(at: position, .endsInsideTag)
            }
            try refill()
        }
    }

    private func findSequence(_ sequence: StaticString, from: Int) throws(ImportError) -> Int {
        let first = sequence.utf8Start.pointee
        var at = from
        while true {
            let hit = try ensure(sequence.utf8CodeUnitCount, from: try find(first, from: at, orEndOfFile: false))
            if memcmp(buffer + hit, sequence.utf8Start, sequence.utf8CodeUnitCount) == 0 { return hit }
            at = hit + 1
        }
    }

    /// Makes sure `count` bytes from `from` are in the buffer; returns where `from` is now.
    @discardableResult
    private func ensure(_ count: Int, from: Int) throws(ImportError) -> Int {
        let relative = from - position
        while position + relative + count > filled {
            if atEnd { throw problem(at: position, .endsInsideTag) }
            try refill()
        }
        return position + relative
    }

    private func startsWith(_ prefix: StaticString, at index: Int) throws(ImportError) -> Bool {
        let index = try ensure(prefix.utf8CodeUnitCount, from: index)
        return memcmp(buffer + index, prefix.utf8Start, prefix.utf8CodeUnitCount) == 0
    }

    // MARK: tags

    /// `<name key="value" ...>` or `<name .../>` from `position`.
    private func readStartTag() throws(ImportError) {
        // Find the closing '>' outside quotes first, so that every index below is in the buffer.
        var relative = 1
        var quote: UInt8 = 0
        while true {
            if position + relative >= filled {
                if atEnd { throw problem(at: position, .endsInsideTag) }
                try refill()
                continue
            }
            let byte = buffer[position + relative]
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == 0x22 || byte == 0x27 {
                quote = byte
            } else if byte == 0x3E {
                break
            } else if byte == 0x3C {
                throw problem(at: position + relative, .lessThanInsideTag)
            }
            relative += 1
        }
        let tagStart = position
        let close = position + relative
        var end = close
        selfClosing = buffer[close - 1] == 0x2F
        if selfClosing { end -= 1 }
        var index = tagStart + 1
        let nameStart = index
        while index < end, !isSpace(buffer[index]) { index += 1 }
        guard index > nameStart else { throw problem(at: tagStart, .tagWithoutName) }
        name = Span(start: nameStart, end: index, escaped: false)
        attributes.removeAll(keepingCapacity: true)
        while true {
            while index < end, isSpace(buffer[index]) { index += 1 }
            if index >= end { break }
            let keyStart = index
            while index < end, buffer[index] != 0x3D, !isSpace(buffer[index]) { index += 1 }
            let keyEnd = index
            while index < end, isSpace(buffer[index]) { index += 1 }
            guard index < end, buffer[index] == 0x3D else {
                throw problem(at: keyStart, .attributeWithoutValue)
            }
            index += 1
            while index < end, isSpace(buffer[index]) { index += 1 }
            guard index < end, buffer[index] == 0x22 || buffer[index] == 0x27 else {
                throw problem(at: keyStart, .attributeValueWithoutQuotes)
            }
            let quoteByte = buffer[index]
            index += 1
            let valueStart = index
            while index < end, buffer[index] != quoteByte { index += 1 }
            guard index < end else { throw problem(at: keyStart, .unterminatedAttributeValue) }
            attributes.append(
                Attribute(
                    key: Span(start: keyStart, end: keyEnd, escaped: false),
                    value: Span(start: valueStart, end: index, escaped: contains(0x26, valueStart, index))))
            index += 1
        }
        if !selfClosing {
            openStarts.append(openNames.count)
            openNames.append(contentsOf: UnsafeBufferPointer(start: buffer + name.start, count: name.end - name.start))
        }
        position = close + 1
    }

    private func popOpen(at index: Int) throws(ImportError) {
        guard let start = openStarts.last else {
            throw problem(at: index, .closesNothing(name: string(name)))
        }
        let length = openNames.count - start
        let matches =
            length == name.end - name.start
            && openNames.withUnsafeBufferPointer { memcmp($0.baseAddress! + start, buffer + name.start, length) == 0 }
        guard matches else {
            throw problem(at: index, .mismatchedClose(name: string(name), expected: openName(start)))
        }
        openNames.removeSubrange(start...)
        openStarts.removeLast()
    }

    private func openName(_ start: Int) -> String {
        String(decoding: openNames[start...], as: UTF8.self)
    }

    private func contains(_ byte: UInt8, _ start: Int, _ end: Int) -> Bool {
        start < end && memchr(buffer + start, Int32(byte), end - start) != nil
    }

    private func isBlank(_ start: Int, _ end: Int) -> Bool {
        var index = start
        while index < end {
            if !isSpace(buffer[index]) { return false }
            index += 1
        }
        return true
    }
}

@inline(__always) func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
}
