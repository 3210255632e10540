import Foundation
import Testing

/// KML (as My Maps writes it: folders, styles, ExtendedData, CDATA descriptions) and GPX
/// (waypoints, a route, a track of two segments) through `fences import`, judged by GDAL's
/// `ogr2ogr` reading the same file: the same features in the same order, the same coordinates,
/// names and descriptions.
@Suite struct FenceImportFormatsTests {
    static let myMaps = """
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2">
          <Document>
            <name>Truck stops</name>
            <Style id="icon-1899-0288D1-normal"><IconStyle><color>ffd18802</color></IconStyle></Style>
            <StyleMap id="icon-1899-0288D1"><Pair><key>normal</key><styleUrl>#icon-1899-0288D1-normal</styleUrl></Pair></StyleMap>
            <Folder>
              <name>Bridges</name>
              <Placemark>
                <name>Low bridge 10'6"</name>
                <description><![CDATA[Posted <b>10'6"</b>, Main St]]></description>
                <styleUrl>#icon-1899-0288D1</styleUrl>
                <ExtendedData>
                  <Data name="radius"><value>12</value></Data>
                  <Data name="clearance"><value>3.2</value></Data>
                  <Data name="notes"><value>east side &amp; west</value></Data>
                </ExtendedData>
                <Point>
                  <coordinates>
                    -83.751891,42.280597,0
                  </coordinates>
                </Point>
              </Placemark>
              <Placemark>
                <name>Diner</name>
                <Point><coordinates>-83.751891,42.28239564,0</coordinates></Point>
              </Placemark>
            </Folder>
            <Folder>
              <name>Areas</name>
              <Placemark>
                <name>Yard</name>
                <Polygon>
                  <outerBoundaryIs><LinearRing><tessellate>1</tessellate><coordinates>
                    8.0,47.0,0 8.01,47.0,0 8.01,47.01,0 8.0,47.01,0 8.0,47.0,0
                  </coordinates></LinearRing></outerBoundaryIs>
                  <innerBoundaryIs><LinearRing><coordinates>
                    8.004,47.004,0 8.006,47.004,0 8.006,47.006,0 8.004,47.006,0 8.004,47.004,0
                  </coordinates></LinearRing></innerBoundaryIs>
                </Polygon>
              </Placemark>
              <Placemark>
                <name>Route in</name>
                <LineString><tessellate>1</tessellate><coordinates>
                  8.0,46.99,0 8.005,46.995,0 8.005,47.0,0
                </coordinates></LineString>
              </Placemark>
            </Folder>
          </Document>
        </kml>
        """

    static let trip = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
          <wpt lat="47.1" lon="8.1"><name>Depot</name><desc>Gate 3</desc></wpt>
          <wpt lat="47.2" lon="8.2"><name>Fuel</name></wpt>
          <rte><name>Morning run</name>
            <rtept lat="47.1" lon="8.1"/><rtept lat="47.15" lon="8.15"/><rtept lat="47.2" lon="8.2"/>
          </rte>
          <trk><name>Tuesday</name>
            <trkseg><trkpt lat="47.1" lon="8.1"><ele>400</ele><time>2026-02-03T10:00:00Z</time></trkpt>
              <trkpt lat="47.101" lon="8.101"/></trkseg>
            <trkseg><trkpt lat="47.2" lon="8.2"/><trkpt lat="47.201" lon="8.202"/></trkseg>
          </trk>
        </gpx>
        """

    static func imported(_ sources: [String], in folder: URL, extra: [String] = []) throws -> [[String: Any]] {
        let output = folder.appendingPathComponent("out-\(UUID().uuidString).geojson").path
        let result = try runGPSFence(["fences", "import"] + sources + ["--output", output] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output)))
        return (object as? [String: Any])?["features"] as? [[String: Any]] ?? []
    }

    /// GDAL's reading of `source`: one feature per line of GeoJSONSeq, every layer in turn.
    static func gdal(_ source: String) throws -> [[String: Any]] {
        let result = try runProgram(
            "/usr/bin/ogr2ogr", ["-f", "GeoJSONSeq", "-lco", "COORDINATE_PRECISION=9", "/vsistdout/", source])
        #expect(result.status == 0, "\(result.stderr)")
        return try result.stdout.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// A geometry's positions as [lon, lat] pairs, rings in a canonical direction (GDAL turns KML's
    /// holes clockwise; both directions are the same ring).
    static func shape(_ feature: [String: Any]) -> (type: String, lines: [[[Double]]]) {
        let geometry = feature["geometry"] as? [String: Any] ?? [:]
        let type = geometry["type"] as? String ?? ""
        func positions(_ value: Any?) -> [[Double]] {
            ((value as? [[Double]]) ?? []).map { Array($0.prefix(2)) }
        }
        func canonical(_ ring: [[Double]]) -> [[Double]] {
            let reversed = Array(ring.reversed())
            return ring.lexicographicallyPrecedes(reversed) { $0.lexicographicallyPrecedes($1) } ? ring : reversed
        }
        switch type {
        case "Point": return (type, [[Array(((geometry["coordinates"] as? [Double]) ?? []).prefix(2))]])
        case "LineString": return (type, [positions(geometry["coordinates"])])
        case "MultiLineString": return (type, ((geometry["coordinates"] as? [Any]) ?? []).map(positions))
        case "Polygon": return (type, ((geometry["coordinates"] as? [Any]) ?? []).map { canonical(positions($0)) })
        default: return (type, [])
        }
    }

    @Test func myMapsKMLMatchesGDAL() throws {
        let folder = temporaryDirectory()
        let source = folder.appendingPathComponent("Truck stops.kml")
        try Self.myMaps.write(to: source, atomically: true, encoding: .utf8)
        let ours = try Self.imported([source.path], in: folder)
        let theirs = try Self.gdal(source.path)
        #expect(ours.count == 4 && theirs.count == 4)
        for (mine, judge) in zip(ours, theirs) {
            let (a, b) = (Self.shape(mine), Self.shape(judge))
            #expect(a.type == b.type)
            #expect(a.lines == b.lines, "\(a.lines) vs \(b.lines)")
            let properties = mine["properties"] as? [String: Any] ?? [:]
            let judged = judge["properties"] as? [String: Any] ?? [:]
            #expect(properties["name"] as? String == judged["Name"] as? String)
            #expect(properties["description"] as? String == judged["description"] as? String)
        }
        let bridge = ours[0]["properties"] as? [String: Any] ?? [:]
        #expect(bridge["radius"] as? Double == 12 && bridge["clearance"] as? Double == 3.2)
        #expect(bridge["notes"] as? String == "east side & west" && bridge["folder"] as? String == "Bridges")
        #expect((ours[1]["properties"] as? [String: Any])?["radius"] as? Double == 10)
        #expect((ours[2]["properties"] as? [String: Any])?["folder"] as? String == "Areas")
        #expect(ours.map { $0["id"] as? String } == (0..<4).map { "kml:Truck stops/\($0)" })
    }

    @Test func gpxMatchesGDAL() throws {
        let folder = temporaryDirectory()
        let source = folder.appendingPathComponent("trip.gpx")
        try Self.trip.write(to: source, atomically: true, encoding: .utf8)
        let ours = try Self.imported([source.path], in: folder, extra: ["--radius", "25"])
        // GDAL's layers: waypoints, routes, tracks, then each route's and track's points.
        let theirs = Array(try Self.gdal(source.path).prefix(4))
        #expect(ours.count == 4)
        for (mine, judge) in zip(ours, theirs) {
            let (a, b) = (Self.shape(mine), Self.shape(judge))
            #expect(a.type == b.type)
            #expect(a.lines == b.lines)
            let properties = mine["properties"] as? [String: Any] ?? [:]
            #expect(properties["name"] as? String == (judge["properties"] as? [String: Any])?["name"] as? String)
            #expect(properties["radius"] as? Double == 25)
        }
        #expect((ours[0]["properties"] as? [String: Any])?["description"] as? String == "Gate 3")
        #expect(
            ours.map { $0["id"] as? String } == [
                "gpx:trip/wpt/0", "gpx:trip/wpt/1", "gpx:trip/rte/0", "gpx:trip/trk/0",
            ])
    }

    /// The imported KML loads where fences load: the bridge's circle of 12 m (from ExtendedData)
    /// holds a point 11 m north of it and not one 13 m north (a degree of latitude is 111,195 m).
    @Test func theImportedKMLIsAFenceFile() throws {
        let folder = temporaryDirectory()
        let source = folder.appendingPathComponent("stops.kml")
        try Self.myMaps.write(to: source, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("stops.geojson").path
        #expect(try runGPSFence(["fences", "import", source.path, "--output", output]).status == 0)
        func inside(_ north: Double) throws -> [String] {
            let lat = 42.280597 + north / 111_195.08
            let answer = try runGPSFence(["check", "--fences", output, "--json", "\(lat)", "-83.751891"])
            #expect(answer.status == 0, "\(answer.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(answer.stdout.utf8)) as? [String: Any]
            return (object?["inside"] as? [Any])?.compactMap { $0 as? String } ?? []
        }
        #expect(try inside(11) == ["kml:stops/0"])
        #expect(try inside(13) == [])
    }

    /// A KMZ as Google Earth saves one (`doc.kml` deflated, an icon stored beside it) holds the
    /// same fences as the KML it was made of, to the byte; cut short, it is refused.
    @Test func aKMZHoldsTheSameFencesAsItsKML() throws {
        let folder = temporaryDirectory()
        let kml = folder.appendingPathComponent("Truck stops.kml")
        try Self.myMaps.write(to: kml, atomically: true, encoding: .utf8)
        let kmz = folder.appendingPathComponent("kmz/Truck stops.kmz")
        try FileManager.default.createDirectory(
            at: kmz.deletingLastPathComponent(), withIntermediateDirectories: true)
        let zipped = try runProgram(
            "/usr/bin/python3",
            [
                "-c",
                "import sys, zipfile\n"
                    + "with zipfile.ZipFile(sys.argv[1], 'w') as z:\n"
                    + "    z.write(sys.argv[2], 'doc.kml', compress_type=zipfile.ZIP_DEFLATED)\n"
                    + "    z.writestr('files/icon.png', bytes(range(256)), compress_type=zipfile.ZIP_STORED)\n",
                kmz.path, kml.path,
            ])
        #expect(zipped.status == 0, "\(zipped.stderr)")
        var outputs: [Data] = []
        for source in [kml, kmz] {
            let output = folder.appendingPathComponent(UUID().uuidString + ".geojson")
            let result = try runGPSFence(["fences", "import", source.path, "--output", output.path])
            #expect(result.status == 0, "\(result.stderr)")
            outputs.append(try Data(contentsOf: output))
        }
        #expect(outputs[0] == outputs[1])
        #expect(String(decoding: outputs[1], as: UTF8.self).contains(#""name":"Yard""#))
        let whole = try Data(contentsOf: kmz)
        let cut = folder.appendingPathComponent("cut.kmz")
        try whole.prefix(whole.count - 30).write(to: cut)
        let refused = try runGPSFence(["fences", "import", cut.path, "--output", folder.path + "/x.geojson"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("\(cut.path): not a readable KMZ (zip) file"), "\(refused.stderr)")
    }

    /// A KML with a coordinate that is not a number is refused with its line.
    @Test func aBrokenCoordinateIsRefusedWithItsLine() throws {
        let folder = temporaryDirectory()
        let source = folder.appendingPathComponent("bad.kml")
        try "<kml><Placemark>\n<Point><coordinates>8.0,north</coordinates></Point></Placemark></kml>"
            .write(to: source, atomically: true, encoding: .utf8)
        let result = try runGPSFence(["fences", "import", source.path, "--output", folder.path + "/x.geojson"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(source.path): line 2"), "\(result.stderr)")
        #expect(result.stderr.contains("'8.0,north'"), "\(result.stderr)")
    }
}
