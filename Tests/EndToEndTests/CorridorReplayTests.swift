import Foundation
import Testing

/// A truck on a route (a corridor fence: a LineString with a radius) that drifts off it, replayed
/// through the real binary. The route runs due north along the meridian 8° E, a great circle, so a
/// fix's distance from it is exact arithmetic: asin(cos φ · sin Δλ) · R (the angle between the
/// point and the meridian's plane). Which fix confirms the exit follows from docs/events.md: two
/// consecutive usable fixes farther out than the radius plus max(hysteresis 10 m, accuracy 4.5 m).
@Suite struct CorridorReplayTests {
    static let earthRadius = 6_371_008.8
    static let radius = 50.0

    /// One fix a second from 10:00:00 UTC: north at 10 m/s along 8° E from 47° N; from second 20
    /// also 7.3 m a second east, so off the route by about 7.3 m more each second.
    static func fixes() -> [(lat: Double, lon: Double)] {
        (0..<40).map { second in
            let north = Double(second) * 10
            let east = Double(max(0, second - 19)) * 7.3
            let lat = 47 + north / (earthRadius * .pi / 180)
            let lon = 8 + east / (earthRadius * .pi / 180 * cos(lat * .pi / 180))
            // as the capture writes them: minutes to 5 decimals
            func rounded(_ degrees: Double) -> Double {
                let whole = degrees.rounded(.down)
                return whole + (((degrees - whole) * 60 * 1e5).rounded() / 1e5) / 60
            }
            return (rounded(lat), rounded(lon))
        }
    }

    static func capture(_ fixes: [(lat: Double, lon: Double)]) -> String {
        func checksummed(_ body: String) -> String {
            String(format: "$%@*%02X\r\n", body, body.utf8.reduce(0) { $0 ^ $1 })
        }
        func minutes(_ degrees: Double, width: Int) -> String {
            let whole = Int(degrees.rounded(.down))
            return String(format: "%0\(width)d%08.5f", whole, (degrees - Double(whole)) * 60)
        }
        var text = ""
        for (second, fix) in fixes.enumerated() {
            let time = String(format: "10%02d%02d.00", second / 60, second % 60)
            let lat = minutes(fix.lat, width: 2)
            let lon = minutes(fix.lon, width: 3)
            text += checksummed("GPGGA,\(time),\(lat),N,\(lon),E,1,09,0.9,250.0,M,47.0,M,,")
            text += checksummed("GPRMC,\(time),A,\(lat),N,\(lon),E,23.5,20.0,030226,,,A")
        }
        return text
    }

    @Test func leavingTheRouteIsAnExitAtTheConfirmingFix() throws {
        let folder = temporaryDirectory()
        let fixes = Self.fixes()
        let capture = folder.appendingPathComponent("truck.nmea")
        try Self.capture(fixes).write(to: capture, atomically: true, encoding: .utf8)
        let fences = folder.appendingPathComponent("route.geojson")
        try """
        {"type":"FeatureCollection","features":[{"type":"Feature","id":"route-7","geometry":{"type":"LineString",
         "coordinates":[[8.0,46.99],[8.0,47.02],[8.0,47.05]]},"properties":{"name":"Route 7","radius":\(Self.radius)}}]}
        """.write(to: fences, atomically: true, encoding: .utf8)

        // distance of each fix from the meridian 8° E, and the fix that confirms the exit
        let distance = fixes.map { fix in
            asin(cos(fix.lat * .pi / 180) * sin((fix.lon - 8) * .pi / 180)) * Self.earthRadius
        }
        let beyond = Self.radius + 10
        let firstFar = try #require(distance.indices.first { distance[$0] > beyond && distance[$0 + 1] > beyond })
        let confirming = firstFar + 1
        // no fix is near enough to the thresholds for rounding to matter
        #expect(distance.allSatisfy { abs($0 - beyond) > 1 && abs($0 - Self.radius) > 1 })
        #expect(confirming == 29)  // 9 × 7.3 = 65.7 m at second 28, 73 m at second 29

        let result = try runGPSFence(["replay", capture.path, "--fences", fences.path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let events = try result.stdout.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let transitions = events.filter { ["enter", "exit"].contains($0["type"] as? String) }
        #expect(transitions.count == 2, "\(result.stdout)")
        let enter = try #require(transitions.first)
        #expect(enter["type"] as? String == "enter")
        #expect(enter["initial"] as? Bool == true)
        #expect(enter["time"] as? String == "2026-02-03T10:00:00.000Z")
        let exit = try #require(transitions.last)
        #expect(exit["type"] as? String == "exit")
        #expect(exit["time"] as? String == String(format: "2026-02-03T10:00:%02d.000Z", confirming))
        let fence = try #require(exit["fence"] as? [String: Any])
        #expect(fence["id"] as? String == "route-7")
        let location = try #require(exit["location"] as? [String: Any])
        let lon = try #require(location["lon"] as? Double)
        #expect(abs(lon - fixes[confirming].lon) < 1e-6)

        // check says what it is, and where the truck stood
        let inside = try runGPSFence(["check", "--fences", fences.path, String(fixes[25].lat), String(fixes[25].lon)])
        #expect(inside.stdout.contains("is inside 1 fence"))
        #expect(inside.stdout.contains("id \"route-7\" \"Route 7\" (corridor r=50.0 m)"))
        // 6 × 7.3 = 43.8 m off the route: 6.2 m inside its edge
        #expect(inside.stdout.contains("-6.2 m  id \"route-7\""))
        let outside = try runGPSFence([
            "check", "--fences", fences.path, String(fixes[confirming].lat), String(fixes[confirming].lon),
        ])
        #expect(outside.stdout.contains("is inside no fence"))
    }

    /// The report draws the corridor as a ring round the route at its radius: every vertex of the
    /// exported outline is 50 m from the route (to the nearer end beyond the ends, else across the
    /// meridian; the foot of a point on the meridian's great circle is at atan2(sin φ, cos φ cos Δλ)).
    @Test func reportExportsTheCorridorOutlineAtItsRadius() throws {
        let folder = temporaryDirectory()
        let capture = folder.appendingPathComponent("truck.nmea")
        try Self.capture(Self.fixes()).write(to: capture, atomically: true, encoding: .utf8)
        let fences = folder.appendingPathComponent("route.geojson")
        try #"{"type":"LineString","coordinates":[[8.0,46.99],[8.0,47.05]],"radius":50}"#.write(
            to: fences, atomically: true, encoding: .utf8)
        let geojson = folder.appendingPathComponent("export.geojson").path
        let result = try runGPSFence([
            "report", capture.path, "--fences", fences.path, "--output", folder.appendingPathComponent("r.html").path,
            "--geojson", geojson,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: geojson))) as? [String: Any])
        let features = try #require(document["features"] as? [[String: Any]])
        let fence = try #require(features.first { ($0["properties"] as? [String: Any])?["kind"] as? String == "fence" })
        #expect((fence["properties"] as? [String: Any])?["radius"] as? Double == 50)
        let geometry = try #require(fence["geometry"] as? [String: Any])
        #expect(geometry["type"] as? String == "Polygon")
        let rings = try #require(geometry["coordinates"] as? [[[Double]]])
        #expect(rings.count == 1 && rings[0].count > 20)
        let degree = Double.pi / 180
        for position in rings[0] {
            let (lon, lat) = (position[0] * degree, position[1] * degree)
            let dLon = lon - 8 * degree
            let foot = atan2(sin(lat), cos(lat) * cos(dLon))
            let distance: Double
            if foot < 46.99 * degree || foot > 47.05 * degree {
                let end = (foot < 46.99 * degree ? 46.99 : 47.05) * degree
                let h = pow(sin((lat - end) / 2), 2) + cos(lat) * cos(end) * pow(sin(dLon / 2), 2)
                distance = 2 * asin(h.squareRoot()) * Self.earthRadius
            } else {
                distance = abs(asin(cos(lat) * sin(dLon))) * Self.earthRadius
            }
            #expect(abs(distance - 50) < 0.5, "\(position): \(distance) m from the route")
        }
    }

    @Test func aCorridorWithoutARadiusIsRefused() throws {
        let folder = temporaryDirectory()
        let fences = folder.appendingPathComponent("route.geojson")
        try """
        {"type":"FeatureCollection","features":[{"type":"Feature","id":"route-7","geometry":{"type":"LineString",
         "coordinates":[[8.0,46.99],[8.0,47.05]]},"properties":{"name":"Route 7"}}]}
        """.write(to: fences, atomically: true, encoding: .utf8)
        let result = try runGPSFence(["check", "--fences", fences.path, "47", "8"])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains(
                "route.geojson: feature 0 (id \"route-7\"): a corridor (LineString) needs properties.radius in metres"))
    }
}
