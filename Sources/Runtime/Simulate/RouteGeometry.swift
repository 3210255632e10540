import Foundation

/// Great-circle arithmetic on the sphere SPEC §5 uses (radius 6,371,008.8 m): enough to walk a
/// route at a given speed and to report the track a receiver would.
public enum SphereGeometry {
    public static let earthRadius = 6_371_008.8

    /// Haversine distance in metres.
    public static func distance(_ a: RoutePoint, _ b: RoutePoint) -> Double {
        let lat1 = a.latitude * .pi / 180, lat2 = b.latitude * .pi / 180
        let dLat = lat2 - lat1
        let dLon = (b.longitude - a.longitude) * .pi / 180
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadius * asin(min(1, sqrt(h)))
    }

    /// Initial bearing from `a` to `b`, degrees true in [0, 360).
    public static func bearing(_ a: RoutePoint, _ b: RoutePoint) -> Double {
        let lat1 = a.latitude * .pi / 180, lat2 = b.latitude * .pi / 180
        let dLon = (b.longitude - a.longitude) * .pi / 180
        let y = sin(dLon) * cos(lat2)
        let x = cos(lat1) * sin(lat2) - sin(lat1) * cos(lat2) * cos(dLon)
        let degrees = atan2(y, x) * 180 / .pi
        return degrees < 0 ? degrees + 360 : degrees
    }

    /// The point a `fraction` of the way from `a` to `b` along the great circle; altitude linear.
    public static func intermediate(_ a: RoutePoint, _ b: RoutePoint, fraction: Double) -> RoutePoint {
        var altitude: Double?
        if let altitudeA = a.altitude, let altitudeB = b.altitude { altitude = altitudeA + (altitudeB - altitudeA) * fraction }
        // The ends exactly, not as slerp's rounding leaves them: a route's vertices are what a test
        // (and a fence at a vertex) compares with.
        if fraction <= 0 { return RoutePoint(latitude: a.latitude, longitude: a.longitude, altitude: altitude ?? a.altitude) }
        if fraction >= 1 { return RoutePoint(latitude: b.latitude, longitude: b.longitude, altitude: altitude ?? b.altitude) }
        let angular = distance(a, b) / earthRadius
        guard angular > 1e-12 else {
            return RoutePoint(latitude: a.latitude, longitude: a.longitude, altitude: altitude ?? a.altitude)
        }
        let lat1 = a.latitude * .pi / 180, lon1 = a.longitude * .pi / 180
        let lat2 = b.latitude * .pi / 180, lon2 = b.longitude * .pi / 180
        let weightA = sin((1 - fraction) * angular) / sin(angular)
        let weightB = sin(fraction * angular) / sin(angular)
        let x = weightA * cos(lat1) * cos(lon1) + weightB * cos(lat2) * cos(lon2)
        let y = weightA * cos(lat1) * sin(lon1) + weightB * cos(lat2) * sin(lon2)
        let z = weightA * sin(lat1) + weightB * sin(lat2)
        return RoutePoint(
            latitude: atan2(z, sqrt(x * x + y * y)) * 180 / .pi, longitude: atan2(y, x) * 180 / .pi,
            altitude: altitude ?? a.altitude)
    }
}
