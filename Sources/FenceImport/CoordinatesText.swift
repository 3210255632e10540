import JSONInput

/// KML's `coordinates` text: tuples `lon,lat[,altitude]` separated by white space, read over the
/// text's bytes with the one decimal reader (`DecimalText`), to the same correctly rounded doubles
/// as `Double(String)` and without a `String` or `Substring` per number: in a large KML this text is
/// most of the file, and reading it through `String.split` cost three times the whole XML parse.
/// The altitude is passed over unread (fences are flat); only its presence is checked.
enum CoordinatesText {
    /// The positions of `text`, or the first tuple that is not `lon,lat[,altitude]` with numbers in
    /// range.
    static func positions(_ text: inout String) -> Result<[Position], Refused> {
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return .success([]) }
            return positions(base, bytes.count)
        }
    }

    struct Refused: Error {
        /// The tuple as written.
        var tuple: String
    }

    private static func positions(_ base: UnsafePointer<UInt8>, _ end: Int) -> Result<[Position], Refused> {
        var positions: [Position] = []
        var p = 0
        while true {
            while p < end && isSpace(base[p]) { p += 1 }
            if p == end { return .success(positions) }
            let start = p
            while p < end && !isSpace(base[p]) { p += 1 }
            guard let position = tuple(base, start, p) else {
                let written = UnsafeBufferPointer(start: base + start, count: p - start)
                return .failure(Refused(tuple: String(decoding: written, as: UTF8.self)))
            }
            positions.append(position)
        }
    }

    @inline(__always)
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    /// `lon,lat` or `lon,lat,altitude` filling `start ..< end`.
    private static func tuple(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Position? {
        guard let (lon, afterLon) = number(base, start, end), afterLon < end, base[afterLon] == 0x2C,
            let (lat, afterLat) = number(base, afterLon + 1, end), abs(lon) <= 180, abs(lat) <= 90
        else { return nil }
        if afterLat < end {
            guard base[afterLat] == 0x2C else { return nil }
            for p in (afterLat + 1)..<end where base[p] == 0x2C { return nil }
        }
        return Position(lon: lon, lat: lat)
    }

    /// A decimal number at `from` (`[+-]?D*(.D*)?([eE][+-]?D+)?` with a digit): its value and the
    /// offset after it.
    private static func number(_ base: UnsafePointer<UInt8>, _ from: Int, _ end: Int) -> (Double, Int)? {
        let parts = DecimalText.scan(base, from, end)
        guard parts.hasDigits, parts.exponentDigits.map({ $0 > 0 }) ?? true else { return nil }
        return (parts.value(base, from: from), parts.end)
    }
}
