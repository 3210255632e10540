import Foundation

/// Fences laid along a receiver's own track, so that a log exercises every way a track meets a
/// fence: circles and squares it starts in, passes through and skims, one around the whole track,
/// a polygon with a hole, and rectangles whose edge lies on a position the track holds, as a user
/// draws one from a printed position. Hysteresis is left to the command line, and dwell times
/// vary, so that a stationary log reaches them too.
struct TrackFences {
    /// The track's positions in order, as `decode` prints them.
    let positions: [(lat: Double, lon: Double)]

    /// Metres per degree of latitude on the sphere the engine measures with.
    static let metresPerDegree = 6_371_008.8 * Double.pi / 180

    /// nil when the track is too short to lay fences along.
    init?(_ positions: [(lat: Double, lon: Double)]) {
        guard positions.count >= 3 else { return nil }
        self.positions = positions
    }

    /// The GeoJSON FeatureCollection of the fences.
    var geoJSON: String {
        let count = positions.count
        let centre = (
            lat: positions.map(\.lat).reduce(0, +) / Double(count),
            lon: positions.map(\.lon).reduce(0, +) / Double(count)
        )
        let start = positions[0]
        let first = positions[count / 3]
        let middle = positions[count / 2]
        let last = positions[2 * count / 3]
        // The track's size in metres, with a floor so that a receiver standing still still gets
        // fences a few metres across.
        let size = max(20, positions.map { metres(start, $0) }.max() ?? 0)
        let spread = positions.map { metres(centre, $0) }.max() ?? 0
        let small = max(5, size / 10)
        let wide = max(50, size)

        var features = [
            circle("whole-circle", centre, radius: spread + 5),
            circle("start-0", start, radius: max(10, size / 4), dwell: 45),
            polygon("start-1", [square(start, half: max(10, size / 6))]),
        ]
        for (index, point) in [first, middle, last].enumerated() {
            features.append(circle("pass-\(index)", point, radius: small, dwell: 10))
            // The track comes within a metre of the circle's edge here, and elsewhere maybe through it.
            features.append(circle("skim-\(index)", offset(point, north: small + 1, east: 0), radius: small))
        }
        for (index, point) in [first, last].enumerated() {
            features.append(polygon("sq-\(index)", [square(point, half: small)], dwell: 20))
        }
        // South edge on the middle position's latitude; west edge on the first one's longitude.
        features.append(
            polygon(
                "edge-0",
                [
                    [
                        offset(middle, north: 0, east: -wide), offset(middle, north: 0, east: wide),
                        offset(middle, north: 20, east: wide), offset(middle, north: 20, east: -wide),
                    ]
                ]))
        features.append(
            polygon(
                "edge-1",
                [
                    [
                        offset(first, north: -wide, east: 0), offset(first, north: wide, east: 0),
                        offset(first, north: wide, east: 20), offset(first, north: -wide, east: 20),
                    ]
                ]))
        let hole = max(10, size / 5)
        features.append(polygon("hole-0", [square(last, half: hole), square(last, half: hole / 3)]))
        return #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",\n") + "]}"
    }

    private func circle(_ id: String, _ at: (lat: Double, lon: Double), radius: Double, dwell: Int? = nil) -> String {
        let properties = [#""radius":\#(radius)"#] + (dwell.map { [#""dwell":\#($0)"#] } ?? [])
        return #"{"type":"Feature","id":"\#(id)","geometry":{"type":"Point","coordinates":[\#(at.lon),\#(at.lat)]},"#
            + #""properties":{\#(properties.joined(separator: ","))}}"#
    }

    /// A polygon from rings of corners (the first ring the outline, the others holes), each closed here.
    private func polygon(_ id: String, _ rings: [[(lat: Double, lon: Double)]], dwell: Int? = nil) -> String {
        let coordinates = rings.map { ring in
            "[" + (ring + [ring[0]]).map { "[\($0.lon),\($0.lat)]" }.joined(separator: ",") + "]"
        }
        let properties = dwell.map { #""dwell":\#($0)"# } ?? ""
        return #"{"type":"Feature","id":"\#(id)","geometry":{"type":"Polygon","coordinates":["#
            + coordinates.joined(separator: ",") + #"]},"properties":{\#(properties)}}"#
    }

    private func square(_ centre: (lat: Double, lon: Double), half: Double) -> [(lat: Double, lon: Double)] {
        [
            offset(centre, north: -half, east: -half), offset(centre, north: -half, east: half),
            offset(centre, north: half, east: half), offset(centre, north: half, east: -half),
        ]
    }

    /// `point` moved by metres; a zero offset keeps the coordinate exactly.
    private func offset(_ point: (lat: Double, lon: Double), north: Double, east: Double) -> (lat: Double, lon: Double)
    {
        let lat = north == 0 ? point.lat : point.lat + north / Self.metresPerDegree
        let lon =
            east == 0 ? point.lon : point.lon + east / (Self.metresPerDegree * cos(point.lat * .pi / 180))
        return (lat, lon)
    }

    private func metres(_ a: (lat: Double, lon: Double), _ b: (lat: Double, lon: Double)) -> Double {
        let north = (a.lat - b.lat) * Self.metresPerDegree
        let east = (a.lon - b.lon) * Self.metresPerDegree * cos(a.lat * .pi / 180)
        return (north * north + east * east).squareRoot()
    }
}
