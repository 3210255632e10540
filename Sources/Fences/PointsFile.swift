import NMEA

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
/// point per line; blank lines and lines starting with `#` are skipped, and so is a header line
/// (`lat,lon`: a first line that starts with a letter and holds no digit); spaces and tabs around the numbers and a
/// CR before the line feed are allowed.
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
        var headerAllowed = true
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
            if headerAllowed && isHeader(base, p, end) {
                headerAllowed = false  // a header such as `lat,lon`, once, before the first point
                if let nl = findNewline(base, p, end) { pos = nl + 1 } else { pos = end }
                continue
            }
            headerAllowed = false
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

    /// A first line that starts with a letter and holds no digit: `lat,lon`, `latitude,longitude`
    /// (`abc,1` and `nan,0` are bad points, not headers).
    static func isHeader(_ base: UnsafePointer<UInt8>, _ from: Int, _ end: Int) -> Bool {
        guard (base[from] | 0x20) >= 0x61 && (base[from] | 0x20) <= 0x7A else { return false }
        var p = from
        while p < end && base[p] != 0x0A {
            if base[p] >= 0x30 && base[p] <= 0x39 { return false }
            p += 1
        }
        return true
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

    /// A decimal number (`-12.345`, `12`, `.5`, `1e-3`) starting at `from`: the correctly rounded
    /// double and the offset after it, or nil when there is no number there (`DecimalText`: the
    /// short form in two loads, Clinger's exact case, else `strtod`).
    @inline(__always)
    static func number(_ base: UnsafePointer<UInt8>, _ from: Int, _ end: Int) -> (Double, Int)? {
        if end - from >= 18, let short = DecimalText.short(base, from) { return short }
        let number = DecimalText.scan(base, from, end)
        guard number.hasDigits, number.exponentDigits != 0 else { return nil }
        return (number.value(base, from: from), number.end)
    }
}
