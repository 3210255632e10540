import Foundation
import Testing

/// A bridge's clearance as signs and spreadsheets write it (`11'`, `3.4 m`, `10' 6"`), from a KML
/// placemark's ExtendedData through `fences import`, and from a CSV column, is read as GeoJSON's
/// `clearance` and `--vehicle-height` are: the bundled bridge drive (`captures/bridge`) with a
/// 3.3 m truck. 11' is 3.3528 m and 3.4 m is above the truck: not flagged; 10' 6" is 3.2004 m,
/// below it: the approach and the enter are `too_low`.
@Suite struct ClearanceAsSignsTests {
    static let bridge = (lat: "42.280597", lon: "-83.751891")

    static let signs: [(text: String, tooLow: Bool)] = [("11'", false), ("3.4 m", false), ("10' 6\"", true)]

    static func kml(clearance: String) -> String {
        let escaped = clearance.replacingOccurrences(of: "\"", with: "&quot;")
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
              <Placemark id="bridge-1">
                <name>Low bridge</name>
                <ExtendedData>
                  <Data name="radius"><value>12</value></Data>
                  <Data name="approach"><value>1609.344</value></Data>
                  <Data name="clearance"><value>\(escaped)</value></Data>
                </ExtendedData>
                <Point><coordinates>\(bridge.lon),\(bridge.lat),0</coordinates></Point>
              </Placemark>
            </Document></kml>
            """
    }

    static func csv(clearance: String) -> String {
        let quoted = "\"" + clearance.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        return "id,name,lat,lon,radius,approach,clearance\n"
            + "bridge-1,Low bridge,\(bridge.lat),\(bridge.lon),12,1609.344,\(quoted)\n"
    }

    /// The approach and enter of the bridge, each `too_low` or `unflagged` (the field left out).
    static func flags(fences: String) throws -> [String: String] {
        let result = try runGPSFence([
            "replay", "captures/bridge/capture.nmea", "--fences", fences, "--vehicle-height", "3.3", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        var flags: [String: String] = [:]
        for line in result.stdout.split(separator: "\n") {
            let event = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            guard let type = event["type"] as? String, ["approach", "enter"].contains(type) else { continue }
            let flag = event["too_low"]
            flags[type] = flag == nil ? "unflagged" : (flag as? Bool == true ? "too_low" : "too_low \(flag!)")
        }
        return flags
    }

    @Test(arguments: signs)
    func aKMLClearanceAsTheSignWritesIt(text: String, tooLow: Bool) throws {
        let folder = temporaryDirectory()
        let source = folder.appendingPathComponent("bridges.kml")
        try Self.kml(clearance: text).write(to: source, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("bridges.geojson").path
        let imported = try runGPSFence(["fences", "import", source.path, "--output", output])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("kept 1 fence"), "\(imported.stderr)")
        let flags = try Self.flags(fences: output)
        #expect(flags.count == 2, "an approach and an enter: \(flags)")
        let expected = tooLow ? "too_low" : "unflagged"
        #expect(flags == ["approach": expected, "enter": expected])
    }

    @Test(arguments: signs)
    func aCSVClearanceAsTheSignWritesIt(text: String, tooLow: Bool) throws {
        let folder = temporaryDirectory()
        let fences = folder.appendingPathComponent("bridges.csv")
        try Self.csv(clearance: text).write(to: fences, atomically: true, encoding: .utf8)
        let flags = try Self.flags(fences: fences.path)
        #expect(flags.count == 2, "an approach and an enter: \(flags)")
        let expected = tooLow ? "too_low" : "unflagged"
        #expect(flags == ["approach": expected, "enter": expected])
    }

    /// A KML clearance that is no height drops its placemark, saying why and what is read.
    @Test func aKMLClearanceThatIsNoHeightDropsItsPlacemark() throws {
        let folder = temporaryDirectory()
        let source = folder.appendingPathComponent("bridges.kml")
        try Self.kml(clearance: "low").write(to: source, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("bridges.geojson").path
        let imported = try runGPSFence(["fences", "import", source.path, "--output", output])
        #expect(imported.stderr.contains("placemark whose clearance is not a height like 3.2"), "\(imported.stderr)")
    }
}
