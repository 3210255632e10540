/// A growable byte buffer that JSON text is written into, token by token: every JSON output of the
/// tool (`decode`, `decode --sentences`, events, `check --points`, status) is built here, so there is
/// one escaper, one number formatter and one hex helper (docs/formats.md).
///
/// Nothing is built through `String`: keys are static ASCII, numbers are formatted digit by digit
/// straight into the bytes, and strings are escaped while they are copied. The separators (`,` and
/// `:`) are placed by the buffer itself, which keeps a one-bit "first member" flag per nesting level.
///
/// A class, not a struct, so that the hot writers (`decode` writes tens of thousands of objects) reach
/// the storage without copy-on-write checks; one buffer is reused for every line.
public final class JSONBuffer {
    /// The writer's state lives behind a pointer, not in stored `var`s: a class's stored
    /// properties are checked for exclusive access at run time on every write (`swift_beginAccess`),
    /// which cost a quarter of `decode`'s time before this.
    struct State {
        var storage: UnsafeMutablePointer<UInt8>
        var capacity: Int
        var count = 0
        /// Bit `d` set: the container at depth `d` has no member yet.
        var firstAtDepth: UInt64 = 1
        var depth = 0
        /// A key was just written: the next value takes no separator.
        var afterKey = false
    }

    let state: UnsafeMutablePointer<State>

    /// Bytes written so far.
    public var count: Int { state.pointee.count }
    var storage: UnsafeMutablePointer<UInt8> { state.pointee.storage }
    var capacity: Int { state.pointee.capacity }

    public init(capacity: Int = 4096) {
        let capacity = max(capacity, 64)
        state = .allocate(capacity: 1)
        state.initialize(to: State(storage: .allocate(capacity: capacity), capacity: capacity))
    }

    deinit {
        state.pointee.storage.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Forgets the content, keeps the memory.
    public func removeAll() {
        state.pointee.count = 0
        state.pointee.depth = 0
        state.pointee.firstAtDepth = 1
        state.pointee.afterKey = false
    }

    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: storage, count: count))
    }

    /// The content as text (for the callers that hand JSON on as a `String`: events, status).
    public var string: String {
        String(decoding: UnsafeBufferPointer(start: storage, count: count), as: UTF8.self)
    }

    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage, count: count)) }

    // MARK: raw bytes

    /// Makes room for `extra` more bytes.
    public func reserve(_ extra: Int) {
        if count &+ extra > capacity { grow(count &+ extra) }
    }

    func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        fresh.initialize(from: storage, count: count)
        storage.deallocate()
        state.pointee.storage = fresh
        state.pointee.capacity = newCapacity
    }

    /// One byte; the caller has reserved room.
    @inline(__always)
    func put(_ byte: UInt8) {
        let s = state
        s.pointee.storage[s.pointee.count] = byte
        s.pointee.count &+= 1
    }

    public func append(byte: UInt8) {
        reserve(1)
        put(byte)
    }

    public func append(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        reserve(bytes.count)
        (storage + count).update(from: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        state.pointee.count &+= bytes.count
    }

    public func append(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    public func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Text copied as it is (it must already be JSON, or part of a line the caller frames).
    public func append(raw text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    // MARK: structure

    /// The separator before a value or a key, if one is due.
    func separate() {
        let s = state
        if s.pointee.afterKey {
            s.pointee.afterKey = false
            return
        }
        let bit: UInt64 = 1 << UInt64(s.pointee.depth & 63)
        if s.pointee.firstAtDepth & bit != 0 {
            s.pointee.firstAtDepth &= ~bit
        } else {
            append(byte: 0x2C)
        }
    }

    func open(_ byte: UInt8) {
        separate()
        append(byte: byte)
        state.pointee.depth &+= 1
        state.pointee.firstAtDepth |= 1 << UInt64(state.pointee.depth & 63)
    }

    func close(_ byte: UInt8) {
        state.pointee.depth &-= 1
        append(byte: byte)
    }

    public func beginObject() { open(0x7B) }
    public func endObject() { close(0x7D) }
    public func beginArray() { open(0x5B) }
    public func endArray() { close(0x5D) }

    /// Ends a JSON Lines record: a line feed, and the structure state reset for the next line.
    public func endLine() {
        append(byte: 0x0A)
        state.pointee.depth = 0
        state.pointee.firstAtDepth = 1
        state.pointee.afterKey = false
    }

    /// A member name from the code (plain ASCII, needs no escaping).
    public func key(_ name: StaticString) {
        separate()
        reserve(name.utf8CodeUnitCount &+ 3)
        put(0x22)
        (storage + count).update(from: name.utf8Start, count: name.utf8CodeUnitCount)
        state.pointee.count &+= name.utf8CodeUnitCount
        put(0x22)
        put(0x3A)
        state.pointee.afterKey = true
    }

    /// A member name from data, escaped.
    public func key(_ name: String) {
        separate()
        writeEscaped(name)
        append(byte: 0x3A)
        state.pointee.afterKey = true
    }

    /// Starts a value the caller writes itself with `append` (preformatted JSON such as a fence id).
    public func beginRawValue() { separate() }

    /// The members of `object` (the text of one JSON object, `{` to `}`) written as further members
    /// of the object being written: a prefix to an object rendered elsewhere (Home Assistant's
    /// `event_type` before an event's own fields) without parsing it again.
    public func appendMembers(ofObject object: String) {
        var object = object
        object.withUTF8 { bytes in
            precondition(bytes.count >= 2 && bytes.first == 0x7B && bytes.last == 0x7D, "not one JSON object")
            let members = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[1..<(bytes.count - 1)]))
            guard !members.isEmpty else { return }
            separate()
            append(members)
        }
    }

    // MARK: values

    public func null() {
        separate()
        append("null")
    }

    public func value(_ flag: Bool) {
        separate()
        append(flag ? "true" : "false")
    }

    public func value(_ number: Int) {
        separate()
        writeInteger(Int64(number))
    }

    public func value(_ number: Int64) {
        separate()
        writeInteger(number)
    }

    public func value(_ number: Int?) {
        if let number { value(number) } else { null() }
    }

    /// A number rounded to `decimals` places and printed in its shortest form (no trailing zeros,
    /// no exponent): `60.000170000000004` with 3 decimals is `60`, `-0.0001` with 2 is `0`. NaN and
    /// infinities have no JSON form and are written as `null`.
    public func value(_ number: Double, decimals: Int) {
        separate()
        writeNumber(number, decimals: decimals)
    }

    public func value(_ number: Double?, decimals: Int) {
        if let number { value(number, decimals: decimals) } else { null() }
    }

    public func value(_ text: String) {
        separate()
        writeEscaped(text)
    }

    public func value(_ text: String?) {
        if let text { value(text) } else { null() }
    }

    /// A string from raw bytes (text received from a device): escaped; bytes that are not UTF-8
    /// become U+FFFD, as `String(decoding:as:)` makes them.
    public func value(utf8 bytes: UnsafeRawBufferPointer) {
        separate()
        var ascii = true
        for byte in bytes where byte >= 0x80 {
            ascii = false
            break
        }
        if ascii {
            writeEscapedASCII(bytes)
        } else {
            writeEscaped(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// A one-character string such as an NMEA status flag; null when absent.
    public func value(character byte: UInt8?) {
        guard let byte else { return null() }
        Swift.withUnsafeBytes(of: byte) { value(utf8: $0) }
    }

    /// `digits` lower-case hex digits of `number`, as a JSON string.
    public func hexValue(_ number: UInt64, digits: Int) {
        separate()
        reserve(digits &+ 2)
        put(0x22)
        writeHex(number, digits: digits)
        put(0x22)
    }

    // MARK: formatting

    /// Decimal digits of `value`, zero-padded to `width` (no separator, no quotes): for dates and
    /// times written inside a string.
    public func appendPadded(_ value: Int, width: Int) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 24 digits
        var magnitude = value.magnitude
        var n = 0
        withUnsafeMutableBytes(of: &digits) { scratch in
            repeat {
                scratch[23 - n] = UInt8(truncatingIfNeeded: magnitude % 10) | 0x30
                magnitude /= 10
                n += 1
            } while magnitude > 0 && n < 24
            reserve(max(n, width) + 1)
            if value < 0 { put(0x2D) }
            var pad = width - n - (value < 0 ? 1 : 0)
            while pad > 0 {
                put(0x30)
                pad -= 1
            }
            (storage + count).update(
                from: scratch.baseAddress!.assumingMemoryBound(to: UInt8.self) + (24 - n), count: n)
            state.pointee.count &+= n
        }
    }

    func writeInteger(_ value: Int64) { appendPadded(Int(value), width: 0) }

    /// `digits` lower-case hex digits, most significant first (no quotes).
    public func writeHex(_ number: UInt64, digits: Int) {
        reserve(digits)
        var shift = digits * 4
        while shift > 0 {
            shift -= 4
            put(Hex.digit(UInt8(truncatingIfNeeded: (number >> UInt64(shift)) & 0xF)))
        }
    }

    static let powersOfTen: [Double] = (0...15).map { exponent in
        var p = 1.0
        for _ in 0..<exponent { p *= 10 }
        return p
    }

    /// The one number formatter (see `value(_:decimals:)`).
    public func writeNumber(_ number: Double, decimals: Int) {
        guard number.isFinite else { return append("null") }
        let places = min(max(decimals, 0), 15)
        let scaled = (number * Self.powersOfTen[places]).rounded()
        // Beyond 2^53 the scaled value has no exact integer: print the double's own shortest
        // form, which is valid JSON (such magnitudes only come from nonsense input).
        guard scaled.magnitude < 9.0e15 else {
            return append(raw: number.description)
        }
        var units = Int64(scaled)
        if units == 0 { return append(byte: 0x30) }
        reserve(24)
        if units < 0 {
            put(0x2D)
            units = -units
        }
        var places64 = Int64(places)
        // Trailing zeros of the fraction are not printed.
        while places64 > 0 && units % 10 == 0 {
            units /= 10
            places64 -= 1
        }
        var divisor: Int64 = 1
        for _ in 0..<places64 { divisor &*= 10 }
        let whole = units / divisor
        appendPadded(Int(whole), width: 0)
        if places64 > 0 {
            put(0x2E)
            appendPadded(Int(units % divisor), width: Int(places64))
        }
    }

    /// `text` as a JSON string literal with the escapes RFC 8259 requires (quote, backslash and the
    /// control characters U+0000..U+001F; `\n`, `\r`, `\t`, `\b`, `\f` by name, the rest as `\u00XX`),
    /// and DEL and the C1 controls U+0080..U+009F as `\u00XX` too: RFC 8259 allows them raw, but a
    /// terminal that shows the JSON acts on them (U+009B is CSI), so no output carries them raw.
    public func writeEscaped(_ text: String) {
        var text = text
        text.withUTF8 { writeEscapedASCII(UnsafeRawBufferPointer($0)) }
    }

    /// Escapes bytes that are already valid UTF-8 (other bytes >= 0x80 are copied as they are).
    func writeEscapedASCII(_ bytes: UnsafeRawBufferPointer) {
        reserve(bytes.count &+ 2)
        put(0x22)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index &+= 1
            if byte >= 0x20 && byte != 0x22 && byte != 0x5C && byte != 0x7F && byte != 0xC2 {
                if count == capacity { grow(count + 1) }
                put(byte)
                continue
            }
            if byte == 0xC2 {
                // U+0080..U+009F are 0xC2 0x80..0x9F in UTF-8; other 0xC2 pairs are printable.
                let next = index < bytes.count ? bytes[index] : 0
                guard next >= 0x80 && next <= 0x9F else {
                    append(byte: byte)
                    continue
                }
                index &+= 1
                writeUnicodeEscape(next)
                continue
            }
            reserve(8)
            switch byte {
            case 0x22:
                put(0x5C)
                put(0x22)
            case 0x5C:
                put(0x5C)
                put(0x5C)
            case 0x0A:
                put(0x5C)
                put(0x6E)  // n
            case 0x0D:
                put(0x5C)
                put(0x72)  // r
            case 0x09:
                put(0x5C)
                put(0x74)  // t
            case 0x08:
                put(0x5C)
                put(0x62)  // b
            case 0x0C:
                put(0x5C)
                put(0x66)  // f
            default:
                writeUnicodeEscape(byte)
            }
        }
        append(byte: 0x22)
    }

    /// `\u00XX` for a code point below U+0100.
    public func writeUnicodeEscape(_ codePoint: UInt8) {
        reserve(6)
        put(0x5C)
        put(0x75)  // u
        put(0x30)
        put(0x30)
        writeHex(UInt64(codePoint), digits: 2)
    }
}

/// The one hex helper: lower-case digits.
public enum Hex {
    public static func digit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x57 + nibble }

    /// `number` as exactly `digits` lower-case hex digits (leading zeros kept, higher digits cut).
    public static func string(_ number: UInt64, digits: Int) -> String {
        var bytes = [UInt8](repeating: 0x30, count: digits)
        var rest = number
        for index in stride(from: digits - 1, through: 0, by: -1) {
            bytes[index] = digit(UInt8(truncatingIfNeeded: rest & 0xF))
            rest >>= 4
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
