import JSONInput
import NMEA
import Platform

/// A points file that cannot be read, or a bad line in it: what and where (exit status 2 in the
/// CLI). `description` is its one rendering in words.
public enum PointsFileError: Error, CustomStringConvertible, Sendable {
    /// The file cannot be opened or mapped.
    case unreadable(FenceLoadError)
    /// A line that is not `lat,lon` (`found`: its first 60 bytes, as text).
    case notAPoint(file: String, line: Int, found: String)
    /// A point off the globe.
    case outOfRange(file: String, line: Int, latitude: Double, longitude: Double)

    public var description: String {
        switch self {
        case .unreadable(let error): error.description
        case .notAPoint(let file, let line, let found): "\(file): line \(line): want 'lat,lon', found '\(found)'"
        case .outOfRange(let file, let line, let latitude, let longitude):
            "\(file): line \(line): point (\(latitude), \(longitude)) is out of range "
                + "(latitude -90..90, longitude -180..180)"
        }
    }
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
        let read = readUpToProblem(path: path)
        if let problem = read.problem { throw problem }
        return read.points
    }

    /// The points before the first bad line, and that line's problem: what was good is still
    /// answered before the error is said.
    public static func readUpToProblem(path: String) -> PointsParse {
        let bytes: FileBytes
        do { bytes = try FileBytes(path: path) } catch {
            return PointsParse(points: [], problem: .unreadable(error))
        }
        var parser = PointsParser(name: path)
        return parser.parse(bytes.buffer)
    }

    public static func parse(_ buffer: UnsafeBufferPointer<UInt8>, name: String) throws(PointsFileError) -> [GeoPoint] {
        var parser = PointsParser(name: name)
        let parsed = parser.parse(buffer)
        if let problem = parsed.problem { throw problem }
        return parsed.points
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
        return .notAPoint(file: name, line: line, found: text)
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
