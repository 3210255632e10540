#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A bad line in a points file: what and where (exit status 2 in the CLI).
public struct PointsFileError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message }
}

/// `lat,lon` lines for `check --points` (docs/formats.md): decimal degrees, latitude first, one
/// point per line; blank lines and lines starting with `#` are skipped; spaces and tabs around the
/// numbers and a CR before the line feed are allowed.
///
/// The file is mapped (or read whole, for a pipe) and parsed byte by byte: a million points in a
/// few tens of milliseconds. Every number becomes the correctly rounded double, the one Python's
/// `float()` and `strtod` give: the exact fast path when it applies, `strtod` otherwise.
public enum PointsFile {
    public static func read(path: String) throws(PointsFileError) -> [GeoPoint] {
        let bytes: FileBytes
        do { bytes = try FileBytes(path: path) } catch { throw PointsFileError(message: error.description) }
        return try parse(bytes.buffer, name: path)
    }

    public static func parse(_ buffer: UnsafeBufferPointer<UInt8>, name: String) throws(PointsFileError) -> [GeoPoint] {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return [] }
        let end = buffer.count
        var out: [GeoPoint] = []
        // `-dd.dddddddd,-ddd.dddddddd\n` is 26 bytes; reserving for 20-byte lines rarely regrows.
        out.reserveCapacity(end / 20 + 1)
        var pos = 0
        var line = 0
        while pos < end {
            line += 1
            let lineStart = pos
            var p = skipBlanks(base, pos, end)
            if p == end || base[p] == 0x0A || base[p] == 0x23 || (base[p] == 0x0D && p + 1 < end && base[p + 1] == 0x0A)
            {
                // blank or comment line
                if let nl = findNewline(base, p, end) { pos = nl + 1 } else { pos = end }
                continue
            }
            guard let (lat, afterLat) = number(base, p, end) else { throw bad(base, lineStart, end, line, name) }
            p = skipBlanks(base, afterLat, end)
            guard p < end, base[p] == 0x2C else { throw bad(base, lineStart, end, line, name) }
            p = skipBlanks(base, p + 1, end)
            guard let (lon, afterLon) = number(base, p, end) else { throw bad(base, lineStart, end, line, name) }
            p = skipBlanks(base, afterLon, end)
            if p < end && base[p] == 0x0D { p += 1 }
            guard p == end || base[p] == 0x0A else { throw bad(base, lineStart, end, line, name) }
            guard lat >= -90, lat <= 90, lon >= -180, lon <= 180 else {
                throw PointsFileError(
                    message: "\(name): line \(line): point (\(lat), \(lon)) is out of range "
                        + "(latitude -90..90, longitude -180..180)")
            }
            out.append(GeoPoint(lat: lat, lon: lon))
            pos = p + 1
        }
        return out
    }

    @inline(__always)
    static func skipBlanks(_ base: UnsafePointer<UInt8>, _ from: Int, _ end: Int) -> Int {
        var p = from
        while p < end && (base[p] == 0x20 || base[p] == 0x09) { p += 1 }
        return p
    }

    static func findNewline(_ base: UnsafePointer<UInt8>, _ from: Int, _ end: Int) -> Int? {
        guard from < end, let hit = memchr(base + from, 0x0A, end - from) else { return nil }
        return UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - base
    }

    static func bad(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, _ line: Int, _ name: String)
        -> PointsFileError
    {
        let stop = findNewline(base, start, end) ?? end
        var text = String(
            decoding: UnsafeBufferPointer(start: base + start, count: min(stop - start, 60)), as: UTF8.self)
        text.removeAll { $0 == "\r" }
        return PointsFileError(message: "\(name): line \(line): want 'lat,lon', found '\(text)'")
    }

    static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
        1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// A decimal number (`-12.345`, `12`, `.5`, `1e-3`) starting at `from`: the correctly rounded
    /// double and the offset after it, or nil when there is no number there. With at most 19
    /// significant digits whose value is below 2^53 and a power of ten up to 22, one IEEE division
    /// or multiplication of two exact doubles is correctly rounded (Clinger's fast path); anything
    /// else goes to `strtod`, copied to a small stack buffer.
    @inline(__always)
    static func number(_ base: UnsafePointer<UInt8>, _ from: Int, _ end: Int) -> (Double, Int)? {
        var p = from
        var negative = false
        if p < end && (base[p] == 0x2D || base[p] == 0x2B) {
            negative = base[p] == 0x2D
            p += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var sawDigit = false
        while p < end, base[p] &- 0x30 < 10 {
            sawDigit = true
            if digits < 19 {
                mantissa = mantissa &* 10 &+ UInt64(base[p] &- 0x30)
                if mantissa != 0 { digits += 1 }
            } else {
                exponent += 1
            }
            p += 1
        }
        if p < end && base[p] == 0x2E {
            p += 1
            while p < end, base[p] &- 0x30 < 10 {
                sawDigit = true
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(base[p] &- 0x30)
                    if mantissa != 0 { digits += 1 }
                    exponent -= 1
                } else if base[p] != 0x30 {
                    digits = 20  // a non-zero digit beyond 19: only strtod rounds it right
                }
                p += 1
            }
        }
        guard sawDigit else { return nil }
        var simple = digits < 19
        if p < end && (base[p] == 0x65 || base[p] == 0x45) {
            var q = p + 1
            var expNegative = false
            if q < end && (base[q] == 0x2B || base[q] == 0x2D) {
                expNegative = base[q] == 0x2D
                q += 1
            }
            let expStart = q
            var e = 0
            while q < end, base[q] &- 0x30 < 10 {
                if e < 100_000 { e = e * 10 + Int(base[q] &- 0x30) }
                q += 1
            }
            guard q > expStart else { return nil }
            exponent += expNegative ? -e : e
            p = q
            simple = false  // rare in points files: let strtod do it
        }
        if simple && mantissa <= (1 << 53) && exponent >= -22 && exponent <= 22 {
            var v = Double(mantissa)
            if exponent < 0 { v /= powersOfTen[-exponent] } else if exponent > 0 { v *= powersOfTen[exponent] }
            return (negative ? -v : v, p)
        }
        return (slowNumber(base, from, p), p)
    }

    /// `strtod` on a NUL-terminated copy of the number's bytes (at most 63 kept; longer numbers are
    /// nonsense in a points file and are copied to the heap).
    static func slowNumber(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Double {
        let length = end - start
        if length < 64 {
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { text in
                for i in 0..<length { text[i] = CChar(bitPattern: base[start + i]) }
                text[length] = 0
                return strtod(text.baseAddress!, nil)
            }
        }
        var text = [CChar](repeating: 0, count: length + 1)
        for i in 0..<length { text[i] = CChar(bitPattern: base[start + i]) }
        return strtod(text, nil)
    }
}
