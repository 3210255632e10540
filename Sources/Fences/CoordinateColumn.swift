/// One coordinate of the corridors' vertices (their longitudes, or their latitudes), in degrees, in
/// vertex order: as whole ten-millionths of a degree in 4 bytes while every value added is one
/// (what `fences import` writes, 7 decimals, and most files), else as doubles, 8 bytes. Either way
/// it reads back the very double that was added: a value is kept as the integer n only when
/// n / 10^7 gives its bits back, and that division is what reading does. A country's roads have 15
/// million vertices: 120 MB of the 240 their doubles took, and half the copy that puts them in map order.
struct CoordinateColumn {
    private var fixed: [Int32] = []
    private var exact: [Double] = []
    private(set) var isFixed = true

    static let scale = 1e7
    static let inverseScale = 1 / scale

    var count: Int { isFixed ? fixed.count : exact.count }

    /// Bytes held by the values.
    var bytes: Int { isFixed ? fixed.count * 4 : exact.count * 8 }

    /// The value as added.
    @inline(__always)
    subscript(v: Int) -> Double { isFixed ? Double(fixed[v]) / Self.scale : exact[v] }

    /// The value within a few units in its last place (under 10^-13 degrees), without a division:
    /// for the cover boxes of the grid and its queries, whose margins are 10^-9 degrees or more.
    @inline(__always)
    func approximate(_ v: Int) -> Double { isFixed ? Double(fixed[v]) * Self.inverseScale : exact[v] }

    mutating func reserveCapacity(_ n: Int) {
        if isFixed { fixed.reserveCapacity(n) } else { exact.reserveCapacity(n) }
    }

    mutating func append(_ value: Double) {
        if isFixed {
            let scaled = (value * Self.scale).rounded()
            if abs(scaled) <= 2_000_000_000, (Double(Int32(scaled)) / Self.scale).bitPattern == value.bitPattern {
                fixed.append(Int32(scaled))
                return
            }
            // the first value that is not a whole ten-millionth: every value becomes a double
            becomeExact(room: fixed.count + 1)
        }
        exact.append(value)
    }

    /// The values of `later`, after these.
    mutating func append(contentsOf later: CoordinateColumn) {
        if isFixed && later.isFixed {
            fixed.append(contentsOf: later.fixed)
            return
        }
        if isFixed { becomeExact(room: fixed.count + later.count) }
        if later.isFixed {
            for n in later.fixed { exact.append(Double(n) / Self.scale) }
        } else {
            exact.append(contentsOf: later.exact)
        }
    }

    /// Every value kept as a double from now on.
    private mutating func becomeExact(room: Int) {
        var doubles: [Double] = []
        doubles.reserveCapacity(Swift.max(fixed.capacity, room))
        for n in fixed { doubles.append(Double(n) / Self.scale) }
        fixed = []
        exact = doubles
        isFixed = false
    }

    /// The values of `ranges`, one after the other.
    func gathered<Ranges: Sequence<Range<Int>>>(_ ranges: Ranges, count: Int) -> CoordinateColumn {
        var out = CoordinateColumn()
        out.isFixed = isFixed
        if isFixed {
            out.fixed.reserveCapacity(count)
            for range in ranges { out.fixed.append(contentsOf: fixed[range]) }
        } else {
            out.exact.reserveCapacity(count)
            for range in ranges { out.exact.append(contentsOf: exact[range]) }
        }
        return out
    }
}
