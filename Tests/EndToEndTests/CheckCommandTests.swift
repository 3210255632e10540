import Foundation
import Testing

/// `gpsfence check` through the real binary (docs/running.md).
@Suite struct CheckCommandTests {
    let fences = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","id":"gym","geometry":{"type":"Point","coordinates":[-87.6298,41.8781]},"properties":{"name":"Gym","radius":100}},
        {"type":"Feature","id":7,"geometry":{"type":"Polygon","coordinates":[[[-87.64,41.87],[-87.62,41.87],[-87.62,41.89],[-87.64,41.89],[-87.64,41.87]],[[-87.635,41.875],[-87.635,41.877],[-87.633,41.877],[-87.633,41.875],[-87.635,41.875]]]},"properties":{"name":"Loop"}},
        {"type":"Feature","geometry":{"type":"Point","coordinates":[179.999,-16.5]},"properties":{"id":2,"radius":500}}
        ]}
        """

    func temporaryFile(_ name: String, _ text: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gpsfence-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test func pointsFileGivesOneJSONArrayPerLineInFileOrder() throws {
        let f = try temporaryFile("fences.geojson", fences)
        let points = """
            41.8781,-87.6298
            41.8800,-87.6390
            41.876,-87.634
            41.875,-87.634

            # comment
            -16.5,-179.999
            0,0
            """
        let p = try temporaryFile("points.csv", points)
        let result = try runGPSFence(["check", "--fences", f, "--points", p])
        #expect(result.status == 0)
        // inside both; polygon only; in the hole; on the hole's edge; across the antimeridian; nothing
        #expect(result.stdout == "[\"gym\",7]\n[7]\n[]\n[7]\n[2]\n[]\n")
        let stdin = try runGPSFence(["check", "--fences", f, "--points", "-"], stdin: Data("41.8781,-87.6298\n".utf8))
        #expect(stdin.stdout == "[\"gym\",7]\n")
    }

    /// A CSV as a spreadsheet writes it where the comma is the decimal mark (`;` between the
    /// columns, `47,3769` in them) is read; a header of one column says how columns are separated.
    @Test func aSemicolonSeparatedCSVIsRead() throws {
        let csv = try temporaryFile("fences.csv", "id;name;lat;lon;radius_m\nhome;Home;47,3769;8,5417;50\n")
        let result = try runGPSFence(["check", "--fences", csv, "47.3769", "8.5417"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("is inside 1 fence"), "\(result.stdout)")
        let tabs = try temporaryFile("tabs.csv", "id\tlat\tlon\tradius\nhome\t47.3\t8.5\t50\n")
        let refused = try runGPSFence(["check", "--fences", tabs, "47.3", "8.5"])
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("separate the columns with commas, or with semicolons"), "\(refused.stderr)")
    }

    /// A comma after the last feature (JavaScript allows it, JSON does not) is named as such.
    @Test func aTrailingCommaInGeoJSONIsNamed() throws {
        let geojson = try temporaryFile(
            "trailing.geojson",
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[8.5,47.3]},"properties":{"radius":50}},]}"#
        )
        let result = try runGPSFence(["check", "--fences", geojson, "47.3", "8.5"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("a trailing comma before ']'"), "\(result.stderr)")
    }

    @Test func singlePointListsContainingAndNearestFences() throws {
        let f = try temporaryFile("fences.geojson", fences)
        let result = try runGPSFence(["check", "--fences", f, "41.8781", "-87.6298"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("is inside 2 fences"))
        #expect(result.stdout.contains("id \"gym\" \"Gym\" (circle r=100.0 m)"))
        #expect(result.stdout.contains("-100.0 m  id \"gym\""))
        let separated = try runGPSFence(["check", "--fences", f, "--", "41.8781", "-87.6298"])
        #expect(separated.status == 0)
        #expect(separated.stdout.contains("is inside 2 fences"))
        let outside = try runGPSFence(["check", "--fences", f, "41.8781", "-87.6", "--nearest", "1"])
        #expect(outside.stdout.hasPrefix("(41.8781, -87.6) is inside no fence"))
        // 0.02° of longitude east of the polygon at this latitude: 1,655.8 m (0.02° × 111,195 m × cos 41.8781°)
        #expect(outside.stdout.contains("  1655.8 m  id 7"))
    }

    /// A GeoJSON written [lat, lon] loads (its latitudes pass as longitudes); the point
    /// checked against it is then thousands of km away. Say so, in km, and that it looks swapped.
    @Test func swappedCoordinatesAreNamedAndFarDistancesAreInKilometres() throws {
        let swapped = try temporaryFile(
            "swapped.geojson",
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"home","geometry":{"type":"Point","coordinates":[53.8014,-1.5487]},"properties":{"radius":75}}]}"#
        )
        let result = try runGPSFence(["check", "--fences", swapped, "53.8014", "-1.5487"])
        #expect(result.status == 0)
        #expect(result.stdout.contains(" km  id \"home\""), "\(result.stdout)")
        #expect(!result.stdout.contains("7147080"))
        #expect(result.stderr.contains("latitude and longitude swapped"), "\(result.stderr)")
        // Far from every fence, not swapped: said too.
        let far = try runGPSFence(["check", "--fences", swapped, "10", "10"])
        #expect(far.stderr.contains("every fence is more than"), "\(far.stderr)")
        // Near: nothing to say.
        let near = try runGPSFence(["check", "--fences", try temporaryFile("f.geojson", fences), "41.8781", "-87.6298"])
        #expect(near.stderr.isEmpty)
        // The first fix of a replay is checked the same way.
        let replay = try runGPSFence(["replay", "captures/gym/capture.nmea", "--fences", swapped])
        #expect(replay.status == 0)
        #expect(replay.stderr.contains("first fix: every fence is more than"), "\(replay.stderr)")
    }

    @Test func csvFences() throws {
        let f = try temporaryFile(
            "gyms.csv", "id,name,lat,lon,radius_m\n1,North,41.9,-87.6,200\nb,\"South, old\",41.8,-87.6,200\n")
        let p = try temporaryFile("points.csv", "41.9,-87.6\n41.8,-87.6\n41.85,-87.6\n")
        let result = try runGPSFence(["check", "--fences", f, "--points", p])
        #expect(result.stdout == "[1]\n[\"b\"]\n[]\n")
    }

    @Test func badFenceFileIsExitTwoNamingFeatureAndID() throws {
        let bad = fences.replacingOccurrences(of: "\"radius\":500", with: "\"radius\":-5")
        let f = try temporaryFile("bad.geojson", bad)
        let result = try runGPSFence(["check", "--fences", f, "1", "1"])
        #expect(result.status == 2)
        #expect(result.stderr == "gpsfence: \(f): feature 2 (id 2): radius -5 must be a positive number of metres\n")
        #expect(result.stdout.isEmpty)
    }

    @Test func badPointsAndUsageAreExitTwo() throws {
        let f = try temporaryFile("fences.geojson", fences)
        let p = try temporaryFile("points.csv", "41.9,-87.6\n41.9;-87.6\n")
        let badLine = try runGPSFence(["check", "--fences", f, "--points", p])
        #expect(badLine.status == 2)
        #expect(badLine.stderr.contains("points.csv: line 2: want 'lat,lon', found '41.9;-87.6'"))
        let range = try runGPSFence(["check", "--fences", f, "91", "0"])
        #expect(range.status == 2)
        #expect(range.stderr.contains("latitude 91.0 is out of range"))
        let missing = try runGPSFence(["check", "--fences", f])
        #expect(missing.status == 2)
        let both = try runGPSFence(["check", "--fences", f, "--points", p, "1", "2"])
        #expect(both.status == 2)
        let noFile = try runGPSFence(["check", "--fences", "/nonexistent/f.geojson", "1", "2"])
        #expect(noFile.status == 2)
        #expect(noFile.stderr.contains("/nonexistent/f.geojson"))
    }

    @Test func helpHasAnExample() throws {
        let result = try runGPSFence(["check", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("gpsfence check --fences fences.geojson --points points.csv"))
    }
}

/// `check --json` for a single point (docs/formats.md).
@Suite struct CheckJSONTests {
    @Test func singlePointAsOneJSONObject() throws {
        let folder = temporaryDirectory()
        let file = folder.appendingPathComponent("fences.geojson")
        try CheckCommandTests().fences.write(to: file, atomically: true, encoding: .utf8)
        let result = try runGPSFence([
            "check", "--fences", file.path, "--json", "--nearest", "2", "41.8781", "-87.6298",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("}\n") && result.stdout.filter { $0 == "\n" }.count == 1)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["lat"] as? Double == 41.8781 && object["lon"] as? Double == -87.6298)
        let inside = object["inside"] as? [Any] ?? []
        #expect(inside.count == 2 && inside.first as? String == "gym" && inside.last as? Int == 7)
        // Nearest first by signed distance: 291.81 m inside the polygon's boundary, 100 m inside the circle's.
        let nearest = object["nearest"] as? [[String: Any]] ?? []
        #expect(nearest.count == 2)
        let polygon = try #require(nearest.first)
        #expect(polygon["id"] as? Int == 7 && polygon["name"] as? String == "Loop")
        #expect(polygon["shape"] as? String == "polygon" && polygon["radius"] is NSNull)
        #expect((polygon["distance"] as? Double).map { $0 < -100 } == true)
        let circle = try #require(nearest.last)
        #expect(circle["id"] as? String == "gym" && circle["name"] as? String == "Gym")
        #expect(circle["shape"] as? String == "circle" && circle["radius"] as? Double == 100)
        #expect(circle["distance"] as? Double == -100)
        #expect(object["warning"] is NSNull)

        // Far from every fence: the warning is in the object, and the distance in metres.
        let far = try runGPSFence(["check", "--fences", file.path, "--json", "--nearest", "1", "0", "0"])
        let farObject = try #require(try JSONSerialization.jsonObject(with: Data(far.stdout.utf8)) as? [String: Any])
        #expect((farObject["warning"] as? String)?.contains("every fence is more than") == true)
        #expect(((farObject["nearest"] as? [[String: Any]])?.first?["distance"] as? Double ?? 0) > 1_000_000)

        let both = try runGPSFence(["check", "--fences", file.path, "--json", "--points", "-"])
        #expect(both.status == 2 && both.stderr.contains("--json is for a single point"))
    }
}
