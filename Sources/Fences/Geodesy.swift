import Platform

/// The sphere of the containment contract (docs/fences.md) and the few formulas built on it.
public enum Geodesy {
    /// Mean Earth radius (IUGG), metres. Every distance in the module is on this sphere.
    public static let earthRadius = 6_371_008.8
    public static let degree = Double.pi / 180
    /// Metres per degree of latitude (and of longitude at the equator).
    public static let metresPerDegree = earthRadius * degree

    /// Great-circle distance in metres between two (lat, lon) points in degrees: the reference formula.
    @inlinable
    public static func haversine(lat1: Double, lon1: Double, lat2: Double, lon2: Double) -> Double {
        let p1 = lat1 * degree
        let p2 = lat2 * degree
        let dp = p2 - p1
        let dl = (lon2 - lon1) * degree
        let s1 = sin(dp * 0.5)
        let s2 = sin(dl * 0.5)
        let a = s1 * s1 + cos(p1) * cos(p2) * s2 * s2
        return 2 * earthRadius * asin(min(a, 1).squareRoot())
    }

    /// Unit vector of a point on the sphere. The squared chord between two unit vectors is
    /// 4·hav(θ), so `|p − c|² ≤ 4 sin²(r / 2R)` is the haversine test without trigonometry per pair.
    @inline(__always)
    public static func unitVector(lat: Double, lon: Double) -> (x: Double, y: Double, z: Double) {
        let p = FastTrig.sincos(lat * degree)
        let l = FastTrig.sincos(lon * degree)
        return (p.cos * l.cos, p.cos * l.sin, p.sin)
    }

    /// Squared chord length of the arc of `radius` metres.
    @inlinable
    public static func chordSquared(radius: Double) -> Double {
        let s = sin(min(radius / earthRadius, Double.pi) * 0.5)
        return 4 * s * s
    }

    /// Initial bearing in degrees (0 = north, clockwise) from point 1 to point 2.
    public static func bearing(lat1: Double, lon1: Double, lat2: Double, lon2: Double) -> Double {
        let p1 = lat1 * degree
        let p2 = lat2 * degree
        let dl = (lon2 - lon1) * degree
        let y = sin(dl) * cos(p2)
        let x = cos(p1) * sin(p2) - sin(p1) * cos(p2) * cos(dl)
        let b = atan2(y, x) / degree
        return b < 0 ? b + 360 : b
    }

    /// Point reached from (lat, lon) after `distance` metres on the great circle of `bearing` degrees.
    public static func destination(lat: Double, lon: Double, bearing: Double, distance: Double)
        -> (lat: Double, lon: Double)
    {
        let d = distance / earthRadius
        let b = bearing * degree
        let p1 = lat * degree
        let l1 = lon * degree
        let p2 = asin(sin(p1) * cos(d) + cos(p1) * sin(d) * cos(b))
        let l2 = l1 + atan2(sin(b) * sin(d) * cos(p1), cos(d) - sin(p1) * sin(p2))
        return (p2 / degree, normalizedLongitude(l2 / degree))
    }

    /// The point a `fraction` of the way from point 1 to point 2 along the great circle
    /// (spherical linear interpolation); the ends exactly, as given, for fractions 0 and 1.
    public static func intermediate(lat1: Double, lon1: Double, lat2: Double, lon2: Double, fraction: Double)
        -> (lat: Double, lon: Double)
    {
        if fraction <= 0 { return (lat1, lon1) }
        if fraction >= 1 { return (lat2, lon2) }
        let angular = haversine(lat1: lat1, lon1: lon1, lat2: lat2, lon2: lon2) / earthRadius
        guard angular > 1e-12 else { return (lat1, lon1) }
        let p1 = lat1 * degree
        let l1 = lon1 * degree
        let p2 = lat2 * degree
        let l2 = lon2 * degree
        let weight1 = sin((1 - fraction) * angular) / sin(angular)
        let weight2 = sin(fraction * angular) / sin(angular)
        let x = weight1 * cos(p1) * cos(l1) + weight2 * cos(p2) * cos(l2)
        let y = weight1 * cos(p1) * sin(l1) + weight2 * cos(p2) * sin(l2)
        let z = weight1 * sin(p1) + weight2 * sin(p2)
        return (atan2(z, (x * x + y * y).squareRoot()) / degree, atan2(y, x) / degree)
    }

    /// Longitude folded into [-180, 180].
    @inlinable
    public static func normalizedLongitude(_ lon: Double) -> Double {
        if lon >= -180 && lon <= 180 { return lon }
        var l = fmod(lon + 180, 360)
        if l < 0 { l += 360 }
        return l - 180
    }
}

/// A local east/north plane in metres around an origin: equirectangular, good to well under a
/// metre over the few kilometres the engine's look-ahead and crossing tests span.
public struct LocalPlane: Sendable {
    public let lat0: Double, lon0: Double
    public let kx: Double, ky: Double

    public init(lat0: Double, lon0: Double) {
        self.lat0 = lat0
        self.lon0 = lon0
        ky = Geodesy.metresPerDegree
        kx = Geodesy.metresPerDegree * max(cos(lat0 * Geodesy.degree), 1e-9)
    }

    /// Metres east and north of the origin; longitudes are unwrapped across the antimeridian.
    @inlinable
    public func project(lat: Double, lon: Double) -> (x: Double, y: Double) {
        var dl = lon - lon0
        if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
        return (dl * kx, (lat - lat0) * ky)
    }
}
