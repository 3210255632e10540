/// The comma-separated fields of one sentence body, located in a single pass.
///
/// Field 0 is the address ("GPGGA"); data fields start at 1, as in the NMEA tables, so a decoder
/// reads `fields.latitude(2, 3)` straight from the layout of its sentence. Offsets live inline:
/// no allocation.
public struct Fields {
    /// More than a 120-character sentence can hold.
    public static let capacity = 64

    /// `ends[i]` is the offset of the comma (or the end) after field `i`; field `i` starts one past
    /// the end of field `i - 1`. One byte per field, filled as the body is scanned once.
    private var ends = InlineArray<64, UInt8>(repeating: 0)
    public private(set) var count = 0
    private let body: UnsafeBufferPointer<UInt8>

    public init(_ body: UnsafeBufferPointer<UInt8>) {
        self.body = body
        // Every index below is < capacity by the loop's own bound; bodies are at most 120 bytes.
        var count = 0
        var index = 0
        // Eight bytes at a time: a mask of the commas in the word, taken bit by bit.
        if let base = body.baseAddress {
            while index + 8 <= body.count {
                var commas = Self.commaMask(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                while commas != 0 {
                    guard count < Self.capacity - 1 else { break }
                    ends[unchecked: count] = UInt8(truncatingIfNeeded: index + commas.trailingZeroBitCount / 8)
                    count += 1
                    commas &= commas &- 1
                }
                index += 8
            }
        }
        while index < body.count {
            if body[index] == ASCII.comma && count < Self.capacity - 1 {
                ends[unchecked: count] = UInt8(truncatingIfNeeded: index)
                count += 1
            }
            index += 1
        }
        ends[unchecked: count] = UInt8(truncatingIfNeeded: body.count)
        self.count = count + 1
    }

    /// The high bit of each byte of `word` (in memory order, lowest first) that is a comma, and no
    /// other bit: exact per byte, since no sum below carries out of its byte.
    @inline(__always)
    static func commaMask(_ word: UInt64) -> UInt64 {
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let x = UInt64(littleEndian: word) ^ 0x2C2C_2C2C_2C2C_2C2C
        return ~(((x & low7) &+ low7) | x) & ~low7
    }

    /// Field `index` runs from one past the end of field `index - 1` to `ends[index]`; callers
    /// check `index < count`.
    @inline(__always)
    private func bounds(_ index: Int) -> Range<Int> {
        let start = index == 0 ? 0 : Int(ends[unchecked: index - 1]) + 1
        return start..<Int(ends[unchecked: index])
    }

    /// The bytes of field `index`; empty when the field is empty or absent.
    public subscript(index: Int) -> UnsafeBufferPointer<UInt8> {
        guard index >= 0, index < count else { return UnsafeBufferPointer(start: body.baseAddress, count: 0) }
        let range = bounds(index)
        return UnsafeBufferPointer(start: body.baseAddress.map { $0 + range.lowerBound }, count: range.count)
    }

    /// The byte range of field `index` within the body (for text fields that outlive decoding as ranges).
    public func range(_ index: Int) -> Range<Int> {
        guard index >= 0, index < count else { return body.count..<body.count }
        return bounds(index)
    }

    public func isEmpty(_ index: Int) -> Bool { self[index].isEmpty }

    /// A single character such as a status flag ("A", "V", "N"); nil when empty.
    public func character(_ index: Int) -> UInt8? {
        let field = self[index]
        return field.isEmpty ? nil : field[0]
    }

    public func integer(_ index: Int) -> Int? { Scan.integer(self[index]) }

    public func decimal(_ index: Int) -> Double? { Scan.decimal(self[index]) }

    /// `ddmm.mmmm` plus `N`/`S`, as signed degrees. Nil when empty, malformed or beyond 90°.
    public func latitude(_ value: Int, _ hemisphere: Int) -> Double? {
        Scan.angle(self[value], hemisphere: character(hemisphere), positive: 0x4E, negative: 0x53, limit: 90)
    }

    /// `dddmm.mmmm` plus `E`/`W`, as signed degrees. Nil when empty, malformed or beyond 180°.
    public func longitude(_ value: Int, _ hemisphere: Int) -> Double? {
        Scan.angle(self[value], hemisphere: character(hemisphere), positive: 0x45, negative: 0x57, limit: 180)
    }

    /// `hhmmss` or `hhmmss.sss`, as milliseconds since midnight.
    public func timeOfDay(_ index: Int) -> TimeOfDay? { Scan.timeOfDay(self[index]) }

    /// `ddmmyy` as a calendar date, before any century or rollover decision.
    public func date(_ index: Int) -> (day: Int, month: Int, twoDigitYear: Int)? { Scan.ddmmyy(self[index]) }
}

/// Number scanners over ASCII bytes. No Foundation, no allocation; every malformed input is nil.
enum Scan {
    static func digit(_ byte: UInt8) -> Int? {
        byte &- ASCII.zero < 10 ? Int(byte &- ASCII.zero) : nil
    }

    static func integer(_ field: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let (mantissa, fractionDigits, negative) = decimalParts(field), fractionDigits == 0 else {
            return nil
        }
        return negative ? -Int(mantissa) : Int(mantissa)
    }

    static func decimal(_ field: UnsafeBufferPointer<UInt8>) -> Double? {
        guard let (mantissa, fractionDigits, negative) = decimalParts(field) else { return nil }
        let value = Double(mantissa) / powerOfTen(fractionDigits)
        return negative ? -value : value
    }

    /// Splits `[-+]digits[.digits]` into an integer mantissa and the count of fraction digits, so
    /// that callers divide by an exact power of ten once (correctly rounded).
    static func decimalParts(_ field: UnsafeBufferPointer<UInt8>) -> (UInt64, Int, Bool)? {
        var index = 0
        var negative = false
        if let first = field.first, first == ASCII.minus || first == ASCII.plus {
            negative = first == ASCII.minus
            index = 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var seenDot = false
        while index < field.count {
            let byte = field[index]
            if byte == ASCII.dot {
                guard !seenDot else { return nil }
                seenDot = true
            } else if let value = digit(byte) {
                // 18 significant digits are more than any receiver sends; the rest cannot matter.
                if digits < 18 {
                    mantissa = mantissa &* 10 &+ UInt64(value)
                    digits += 1
                    if seenDot { fractionDigits += 1 }
                } else if !seenDot {
                    return nil
                }
            } else {
                return nil
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        return (mantissa, fractionDigits, negative)
    }

    static func powerOfTen(_ exponent: Int) -> Double {
        switch exponent {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        default: (13..<exponent).reduce(1e13) { value, _ in value * 10 }
        }
    }

    /// NMEA angles are degrees and decimal minutes run together (`4807.038` = 48° 7.038').
    /// Splitting the integer mantissa keeps the minutes exact until the angle is rounded, in
    /// integers, to the nearest 1e-9°, the step every output prints (docs/formats.md): a fence laid
    /// through a printed position then decides as the position itself, and gpsd, whose TPVs carry
    /// 9 decimals too, hands the engine the very numbers a serial receiver's sentences give it.
    static func angle(
        _ field: UnsafeBufferPointer<UInt8>, hemisphere: UInt8?, positive: UInt8, negative: UInt8, limit: Double
    ) -> Double? {
        guard let hemisphere, hemisphere == positive || hemisphere == negative,
            let parts = decimalParts(field), !parts.2
        else { return nil }
        var (mantissa, fractionDigits) = (parts.0, parts.1)
        // Twelve decimals of a minute are nanometres; beyond that `100 * scale` would overflow.
        while fractionDigits > 12 {
            mantissa /= 10
            fractionDigits -= 1
        }
        let scale = UInt64(powerOfTen(fractionDigits))
        let degrees = mantissa / (100 * scale)
        let minutesScaled = mantissa - degrees * 100 * scale
        guard minutesScaled < 60 * scale, degrees <= UInt64(limit) else { return nil }
        // Nanodegrees of the minutes, rounded half up: minutesScaled / scale / 60 * 1e9.
        let nano: UInt64 = 1_000_000_000
        let (times, per): (UInt64, UInt64) = scale <= nano ? (nano / scale, 60) : (1, 60 * (scale / nano))
        let nanodegrees = degrees * nano + (2 * minutesScaled * times + per) / (2 * per)
        let value = Double(nanodegrees) / 1e9
        guard value <= limit else { return nil }
        return hemisphere == negative ? -value : value
    }

    static func twoDigits(_ field: UnsafeBufferPointer<UInt8>, _ at: Int) -> Int? {
        guard at + 1 < field.count, let tens = digit(field[at]), let ones = digit(field[at + 1]) else { return nil }
        return tens * 10 + ones
    }

    static func timeOfDay(_ field: UnsafeBufferPointer<UInt8>) -> TimeOfDay? {
        guard field.count >= 6,
            let hours = twoDigits(field, 0), hours < 24,
            let minutes = twoDigits(field, 2), minutes < 60,
            let seconds = twoDigits(field, 4), seconds <= 60
        else { return nil }
        var milliseconds = 0
        if field.count > 6 {
            guard field[6] == ASCII.dot else { return nil }
            var scale = 100
            var remainder = 0
            for index in 7..<field.count {
                guard let value = digit(field[index]) else { return nil }
                if scale > 0 {
                    milliseconds += value * scale
                    scale /= 10
                } else if index == 10 {
                    remainder = value
                }
            }
            if remainder >= 5 { milliseconds += 1 }
        }
        return TimeOfDay(milliseconds: ((hours * 60 + minutes) * 60 + seconds) * 1000 + milliseconds)
    }

    static func ddmmyy(_ field: UnsafeBufferPointer<UInt8>) -> (day: Int, month: Int, twoDigitYear: Int)? {
        guard field.count == 6,
            let day = twoDigits(field, 0), (1...31).contains(day),
            let month = twoDigits(field, 2), (1...12).contains(month),
            let year = twoDigits(field, 4)
        else { return nil }
        return (day, month, year)
    }
}
