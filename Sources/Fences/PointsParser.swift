/// The points of a run of whole lines, and the problem of the line that stopped them (nil when
/// every line was good).
public struct PointsParse: Sendable {
    public var points: [GeoPoint]
    public var problem: PointsFileError?

    public init(points: [GeoPoint], problem: PointsFileError?) {
        self.points = points
        self.problem = problem
    }
}

/// The `lat,lon` lines of `PointsFile`, fed in pieces that each end at a line's end: a pipe is
/// answered as its lines arrive, and line numbers and the one header stay right across pieces.
public struct PointsParser {
    public let name: String
    /// The number of the last line parsed, from 1.
    public private(set) var line = 0
    private var headerAllowed = true

    public init(name: String) { self.name = name }

    /// Parses `buffer`, whole lines (the last may lack its line feed at the end of the input), up
    /// to its first bad line.
    public mutating func parse(_ buffer: UnsafeBufferPointer<UInt8>) -> PointsParse {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return PointsParse(points: [], problem: nil) }
        let end = buffer.count
        var out: [GeoPoint] = []
        // `-dd.dddddddd,-ddd.dddddddd\n` is 26 bytes; reserving for 20-byte lines rarely regrows.
        out.reserveCapacity(end / 20 + 1)
        var pos = 0
        while pos < end {
            line += 1
            let lineStart = pos
            var p = PointsFile.skipBlanks(base, pos, end)
            if p == end || base[p] == 0x0A || base[p] == 0x23 || (base[p] == 0x0D && p + 1 < end && base[p + 1] == 0x0A)
            {
                // blank or comment line
                if let nl = PointsFile.findNewline(base, p, end) { pos = nl + 1 } else { pos = end }
                continue
            }
            if headerAllowed && PointsFile.isHeader(base, p, end) {
                headerAllowed = false  // a header such as `lat,lon`, once, before the first point
                if let nl = PointsFile.findNewline(base, p, end) { pos = nl + 1 } else { pos = end }
                continue
            }
            headerAllowed = false
            guard let (lat, afterLat) = PointsFile.number(base, p, end) else {
                return PointsParse(points: out, problem: PointsFile.bad(base, lineStart, end, line, name))
            }
            p = PointsFile.skipBlanks(base, afterLat, end)
            guard p < end, base[p] == 0x2C else {
                return PointsParse(points: out, problem: PointsFile.bad(base, lineStart, end, line, name))
            }
            p = PointsFile.skipBlanks(base, p + 1, end)
            guard let (lon, afterLon) = PointsFile.number(base, p, end) else {
                return PointsParse(points: out, problem: PointsFile.bad(base, lineStart, end, line, name))
            }
            p = PointsFile.skipBlanks(base, afterLon, end)
            if p < end && base[p] == 0x0D { p += 1 }
            guard p == end || base[p] == 0x0A else {
                return PointsParse(points: out, problem: PointsFile.bad(base, lineStart, end, line, name))
            }
            guard lat >= -90, lat <= 90, lon >= -180, lon <= 180 else {
                return PointsParse(
                    points: out,
                    problem: .outOfRange(file: name, line: line, latitude: lat, longitude: lon))
            }
            out.append(GeoPoint(lat: lat, lon: lon))
            pos = p + 1
        }
        return PointsParse(points: out, problem: nil)
    }
}
