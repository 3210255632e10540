import Platform

/// Decimal text to the correctly rounded double, the one `strtod` and Python's `float()` give; the
/// pieces shared by the readers of numbers in text (`JSONScanner`, and Fences' `PointsFile` for
/// `check --points`), which differ only in grammar. NMEA's own fields use `Scan`, whose grammar
/// (no exponent, at most 18 digits kept) is the receiver's.
///
/// - `short`: the common number of a coordinate file (`-73.98765432`: up to 7 integer and 8
///   fraction digits, no exponent) in one 8-byte load per digit run, no loop per digit.
/// - `scan`: any other decimal number, read into its parts (`Parts`), on which each reader checks
///   its own grammar before taking the value:
/// - `fastPath`: Clinger's exact case, at most 19 significant digits whose value is below 2^53
///   and a power of ten up to 22: one IEEE division or multiplication of two exact doubles is
///   correctly rounded;
/// - `strtod`: everything else.
public enum DecimalText {
    /// Exact powers of ten as doubles (10^22 is the last one a double holds exactly). A literal, so
    /// it is laid out at compile time and read without a lazy-initialisation check.
    public static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
        1e18, 1e19, 1e20, 1e21, 1e22,
    ]
    public static let integerPowersOfTen: [UInt64] = [
        1, 10, 100, 1000, 10000, 100_000, 1_000_000, 10_000_000, 100_000_000,
    ]

    /// The run of ASCII digits starting at `p`, when it is shorter than 8: its value and length (0
    /// when `p` is not a digit). Nil for 8 digits or more, which the caller reads digit by digit.
    /// Reads 8 bytes from `p`, whatever they are: the caller guarantees they are there.
    @inline(__always)
    public static func digitRun(_ p: UnsafePointer<UInt8>) -> (value: UInt64, count: Int)? {
        let run = digitWord(p)
        return run.count == 8 ? nil : run
    }

    /// The first 8 bytes from `p` read as a run of digits: its value and length, up to 8 (and then
    /// the run may go on: the caller looks at byte 8). Reads 8 bytes from `p`, whatever they are.
    @inline(__always)
    public static func digitWord(_ p: UnsafePointer<UInt8>) -> (value: UInt64, count: Int) {
        let word = UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
        // A byte is a digit when its high nibble is 3 and stays 3 after adding 6 (0x30...0x39). A
        // carry out of a byte >= 0xFA only disturbs the bytes after it, which are not counted.
        let nibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
        let threes: UInt64 = 0x3030_3030_3030_3030
        let notDigit = ((word & nibbles) ^ threes) | (((word &+ 0x0606_0606_0606_0606) & nibbles) ^ threes)
        let count = notDigit.trailingZeroBitCount / 8
        if count == 0 { return (0, 0) }
        // Digits 0-9 per byte, the first digit in the lowest byte; shifting the run to the top
        // leaves zeros (leading zeros of the number) below and drops the bytes after the run (a
        // borrow out of a non-digit byte only goes up, into dropped bytes).
        var v = (word &- threes) << UInt64((8 - count) * 8)
        v = ((v & 0x0F0F_0F0F_0F0F_0F0F) &* 2561) >> 8  // pairs: 10·a + b
        v = ((v & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16  // fours: 100·ab + cd
        v = ((v & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32  // eight: 10^4·abcd + efgh
        return (v, count)
    }

    /// A number of the form `-?D+(.D+)?` with at most 7 digits before the point and 8 after it,
    /// starting at `from`: its double and the offset after it. Nil for anything else (a sign `+`, a
    /// leading zero before more digits, an exponent, longer digit runs, no digits), which the
    /// caller's general reader then handles or rejects with its own grammar. At most 7 + 8 digits
    /// are below 2^53, so the value is exact and one division rounds it correctly. (8 decimals is
    /// the millimetre precision that many point files carry, the benchmark's among them.)
    /// The caller guarantees 18 readable bytes from `from`.
    @inline(__always)
    public static func short(_ base: UnsafePointer<UInt8>, _ from: Int) -> (Double, Int)? {
        var p = from
        let negative = base[p] == 0x2D
        if negative { p += 1 }
        guard let (integer, integerDigits) = digitRun(base + p), integerDigits > 0,
            integerDigits == 1 || base[p] != 0x30
        else { return nil }
        p += integerDigits
        var v = Double(Int64(bitPattern: integer))
        if base[p] == 0x2E {
            let (fraction, fractionDigits) = digitWord(base + p + 1)
            guard fractionDigits > 0 else { return nil }
            p += 1 + fractionDigits
            if fractionDigits == 8 && base[p] &- 0x30 < 10 { return nil }  // 9 decimals or more
            // below 2^53: the signed conversion is exact and one instruction
            let digits = Int64(bitPattern: integer &* integerPowersOfTen[fractionDigits] &+ fraction)
            v = Double(digits) / powersOfTen[fractionDigits]
        }
        if base[p] | 0x20 == 0x65 { return nil }  // 'e' or 'E'
        return (negative ? -v : v, p)
    }

    /// A decimal number as written, `[+-]?D*(.D*)?([eE][+-]?D*)?`, read without judging it: each
    /// reader checks its own grammar on these parts (strict JSON: no `+`, no leading zero, digits
    /// after `.` and `e`; a points file: `+`, `.5` and `1.` allowed), then takes `value`.
    public struct Parts {
        public var negative = false
        /// Written with a `+`.
        public var plus = false
        /// The first 19 significant digits.
        public var mantissa: UInt64 = 0
        /// Power of ten of `mantissa`, the written exponent included.
        public var exponent = 0
        /// Few enough digits, and an exponent small enough, for Clinger's exact case to be tried.
        public var exact = true
        public var integerDigits = 0
        /// The integer part is a `0` followed by more digits.
        public var leadingZero = false
        /// Nil: no `.`.
        public var fractionDigits: Int?
        /// Nil: no `e` or `E`.
        public var exponentDigits: Int?
        /// The offset after the text read.
        public var end = 0

        public var hasDigits: Bool { integerDigits + (fractionDigits ?? 0) > 0 }

        /// The correctly rounded double of `start ..< end`: the exact case, else `strtod`.
        public func value(_ base: UnsafePointer<UInt8>, from start: Int) -> Double {
            if exact, let v = DecimalText.fastPath(mantissa: mantissa, exponent: exponent, negative: negative) {
                return v
            }
            return DecimalText.strtod(base, start, end)
        }
    }

    /// Reads the parts of the number at `from` (see `Parts`); reads nothing past `end`.
    public static func scan(_ base: UnsafePointer<UInt8>, _ from: Int, _ end: Int) -> Parts {
        var s = Parts()
        var p = from
        if p < end && (base[p] == 0x2D || base[p] == 0x2B) {
            s.negative = base[p] == 0x2D
            s.plus = !s.negative
            p += 1
        }
        var digits = 0
        let integerStart = p
        while p < end, base[p] &- 0x30 < 10 {
            if digits < 19 {
                s.mantissa = s.mantissa &* 10 &+ UInt64(base[p] &- 0x30)
                if s.mantissa != 0 { digits += 1 }
            } else {
                s.exponent += 1
            }
            p += 1
        }
        s.integerDigits = p - integerStart
        s.leadingZero = s.integerDigits > 1 && base[integerStart] == 0x30
        if p < end && base[p] == 0x2E {
            p += 1
            let fractionStart = p
            while p < end, base[p] &- 0x30 < 10 {
                if digits < 19 {
                    s.mantissa = s.mantissa &* 10 &+ UInt64(base[p] &- 0x30)
                    if s.mantissa != 0 { digits += 1 }
                    s.exponent -= 1
                }
                p += 1
            }
            s.fractionDigits = p - fractionStart
        }
        // 19 significant digits may already have dropped some: only strtod rounds those right.
        s.exact = digits < 19
        if p < end && (base[p] == 0x65 || base[p] == 0x45) {
            p += 1
            var exponentNegative = false
            if p < end && (base[p] == 0x2B || base[p] == 0x2D) {
                exponentNegative = base[p] == 0x2D
                p += 1
            }
            let exponentStart = p
            var e = 0
            while p < end, base[p] &- 0x30 < 10 {
                if e < 100_000 { e = e * 10 + Int(base[p] &- 0x30) }
                p += 1
            }
            s.exponentDigits = p - exponentStart
            s.exponent += exponentNegative ? -e : e
            if e >= 100_000 { s.exact = false }
        }
        s.end = p
        return s
    }

    /// Clinger's exact case: `mantissa` × 10^`exponent` from at most 19 significant digits, or nil.
    @inline(__always)
    public static func fastPath(mantissa: UInt64, exponent: Int, negative: Bool) -> Double? {
        guard mantissa <= (1 << 53) && exponent >= -22 && exponent <= 22 else { return nil }
        var v = Double(mantissa)
        if exponent < 0 { v /= powersOfTen[-exponent] } else if exponent > 0 { v *= powersOfTen[exponent] }
        return negative ? -v : v
    }

    /// `strtod` on a NUL-terminated copy of the bytes `start ..< end` (on the stack up to 63 bytes),
    /// for text the caller's grammar has already read as a number.
    public static func strtod(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Double {
        strtodCounting(base, start, end).value
    }

    /// `strtod` of the whole of `start ..< end`: nil unless all of it is the number.
    public static func strtodWhole(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        let (value, used) = strtodCounting(base, start, end)
        return used == end - start ? value : nil
    }

    /// The value and how many bytes `strtod` took.
    private static func strtodCounting(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> (
        value: Double, used: Int
    ) {
        let length = end - start
        func convert(_ text: UnsafeMutablePointer<CChar>) -> (value: Double, used: Int) {
            for i in 0..<length { text[i] = CChar(bitPattern: base[start + i]) }
            text[length] = 0
            var stop: UnsafeMutablePointer<CChar>?
            let value = Platform.strtod(text, &stop)
            return (value, stop.map { $0 - text } ?? 0)
        }
        if length < 64 {
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { convert($0.baseAddress!) }
        }
        var text = [CChar](repeating: 0, count: length + 1)
        return text.withUnsafeMutableBufferPointer { convert($0.baseAddress!) }
    }
}
