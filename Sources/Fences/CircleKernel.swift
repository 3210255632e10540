import Platform

/// Circle containment over struct-of-arrays unit vectors, four circles per step with
/// `SIMD4<Double>`: inside when the squared chord from the point's unit vector to the centre's is
/// at most the circle's squared chord. That is `haversine <= radius` rewritten without
/// trigonometry per pair (hav θ = chord² / 4); in Double the chord is good to nanometres, far
/// inside the contract's centimetre. Runs are padded to a multiple of four with never-matching
/// lanes (threshold -1).
enum CircleKernel {
    /// Calls `hit(k)` for each entry k in `from ..< to` (whole blocks of
    /// `[x×4, y×4, z×4, chord²×4]`) whose circle contains the point.
    @inline(__always)
    static func scan(
        ux: Double, uy: Double, uz: Double, blocks: UnsafePointer<SIMD4<Double>>, from s: Int, to e: Int,
        _ hit: (Int) -> Void
    ) {
        let px = SIMD4<Double>(repeating: ux)
        let py = SIMD4<Double>(repeating: uy)
        let pz = SIMD4<Double>(repeating: uz)
        var i = s
        while i < e {
            let dx = blocks[i] - px
            let dy = blocks[i + 1] - py
            let dz = blocks[i + 2] - pz
            let inside = dx * dx + dy * dy + dz * dz .<= blocks[i + 3]
            if any(inside) {
                for lane in 0..<4 where inside[lane] { hit(i + lane) }
            }
            i += 4
        }
    }
}

/// Every circle fence: centre, radius and the precomputed unit vector and squared chord.
struct CircleStore {
    var lat: [Double] = [], lon: [Double] = [], radius: [Double] = []
    var fence: [Int32] = []
    var count: Int { fence.count }

    mutating func add(fence f: Int32, _ c: CircleShape) {
        lat.append(c.lat)
        lon.append(c.lon)
        radius.append(c.radius)
        fence.append(f)
    }

    /// The circles of `later`, after these, their fences `fenceOffset` further on.
    mutating func append(contentsOf later: CircleStore, fenceOffset: Int32) {
        lat.append(contentsOf: later.lat)
        lon.append(contentsOf: later.lon)
        radius.append(contentsOf: later.radius)
        fence.append(contentsOf: later.fence.lazy.map { $0 + fenceOffset })
    }
}

/// Degree boxes of a spherical cap, for the index: one box, or two when the cap crosses the
/// antimeridian; all longitudes when it holds a pole. Slightly widened: the kernel is exact anyway.
func circleBoxes(_ c: CircleShape) -> (BoundingBox, BoundingBox?) {
    let delta = min(c.radius / Geodesy.earthRadius, Double.pi)
    let dlat = delta / Geodesy.degree * (1 + 1e-9) + 1e-9
    let south = c.lat - dlat
    let north = c.lat + dlat
    if south <= -90 || north >= 90 {
        return (BoundingBox(minX: -180, minY: max(south, -90), maxX: 180, maxY: min(north, 90)), nil)
    }
    let ratio = sin(delta) / cos(c.lat * Geodesy.degree)
    if ratio >= 1 {
        return (BoundingBox(minX: -180, minY: south, maxX: 180, maxY: north), nil)
    }
    let dlon = asin(ratio) / Geodesy.degree * (1 + 1e-9) + 1e-9
    let west = c.lon - dlon
    let east = c.lon + dlon
    if west < -180 {
        return (
            BoundingBox(minX: -180, minY: south, maxX: east, maxY: north),
            BoundingBox(minX: west + 360, minY: south, maxX: 180, maxY: north)
        )
    }
    if east > 180 {
        return (
            BoundingBox(minX: west, minY: south, maxX: 180, maxY: north),
            BoundingBox(minX: -180, minY: south, maxX: east - 360, maxY: north)
        )
    }
    return (BoundingBox(minX: west, minY: south, maxX: east, maxY: north), nil)
}

/// An axis-aligned box in (lon, lat) degrees.
public struct BoundingBox: Sendable, Equatable {
    public var minX: Double, minY: Double, maxX: Double, maxY: Double
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }
}
