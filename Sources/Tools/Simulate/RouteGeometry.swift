import Fences

/// Route arithmetic on the sphere of docs/fences.md (`Geodesy`): enough to walk a route at a given speed
/// and to report the track a receiver would.
extension RoutePoint {
    /// Haversine distance in metres.
    func distance(to other: RoutePoint) -> Double {
        Geodesy.haversine(lat1: latitude, lon1: longitude, lat2: other.latitude, lon2: other.longitude)
    }

    /// Initial bearing towards `other`, degrees true in [0, 360).
    func bearing(to other: RoutePoint) -> Double {
        Geodesy.bearing(lat1: latitude, lon1: longitude, lat2: other.latitude, lon2: other.longitude)
    }

    /// The point a `fraction` of the way to `other` along the great circle; altitude linear. The
    /// ends are exactly the vertices, which a test (and a fence at a vertex) compares with.
    func interpolated(to other: RoutePoint, fraction: Double) -> RoutePoint {
        var altitude = fraction >= 1 ? other.altitude : self.altitude
        if let altitudeA = self.altitude, let altitudeB = other.altitude {
            altitude = altitudeA + (altitudeB - altitudeA) * min(max(fraction, 0), 1)
        }
        let point = Geodesy.intermediate(
            lat1: latitude, lon1: longitude, lat2: other.latitude, lon2: other.longitude, fraction: fraction)
        return RoutePoint(latitude: point.lat, longitude: point.lon, altitude: altitude)
    }
}
