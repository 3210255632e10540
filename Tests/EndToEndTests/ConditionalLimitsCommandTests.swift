import Foundation
import Testing

/// A school street's conditional speed limit from OpenStreetMap through the real binary: `fences
/// import` keeps the part at a time and sets the weather's aside, and `replay` of a drive at 40
/// km/h (written here: `FenceRulesTests.capture`, along 47° N from 8° E) is speeding against 30
/// inside its hours, read in the user's zone, and not outside them.
@Suite struct ConditionalLimitsCommandTests {
    /// A node `east` metres along the drive.
    static func node(_ id: Int, east: Double) -> String {
        let lon =
            FenceRulesTests.longitude + east
            / (FenceRulesTests.earthRadius * cos(FenceRulesTests.latitude * .pi / 180)) * 180 / .pi
        return #"<node id="\#(id)" lat="\#(FenceRulesTests.latitude)" lon="\#(String(format: "%.7f", lon))"/>"#
    }

    /// The street (from 200 m west to 2 km east), 50 km/h, 30 on school days 07:00-19:00, and 20
    /// when wet.
    static let street = FenceImportCommandTests.osm([
        node(1, east: -200), node(2, east: 2000),
        #"<way id="7"><nd ref="1"/><nd ref="2"/>"#
            + FenceImportCommandTests.tags([
                "highway": "residential", "name": "School street", "maxspeed": "50",
                "maxspeed:conditional": "30 @ (Mo-Fr 07:00-19:00); 20 @ wet",
            ]) + "</way>",
    ])

    @Test func aSchoolStreetIsA30ZoneInItsHoursOnly() throws {
        let folder = try FenceRulesTests.folder()
        let source = try FenceImportCommandTests.write(Self.street, "street.osm", in: folder)
        let output = folder.appendingPathComponent("street.geojson").path
        let imported = try runGPSFence(["fences", "import", source, "--speed-limits", "--output", output])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("kept 1 fence (1 corridor)"), "\(imported.stderr)")
        #expect(
            imported.stderr.contains("1 maxspeed:conditional kept aside: the condition is not a time ('20 @ wet')"),
            "\(imported.stderr)")
        let fences = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any])
        let properties = (fences["features"] as? [[String: Any]])?.first?["properties"] as? [String: Any]
        #expect(properties?["maxspeed:conditional"] as? String == "30 @ (Mo-Fr 07:00-19:00)")

        // Tuesday 3 February 2026, eight fixes at 40 km/h (11.11 m/s) from the street's start.
        let steps = (0..<8).map { FenceRulesTests.Step(second: $0, east: Double($0) * 40 / 3.6, speed: 40 / 3.6) }
        func speeding(at start: Int, _ zone: [String]) throws -> [[String: Any]] {
            let capture = try FenceRulesTests.capture(steps, date: "030226", start: start, in: folder)
            return try FenceRulesTests.events(["replay", capture, "--fences", output] + zone).filter {
                $0["type"] as? String == "speeding"
            }
        }
        let berlin = ["--timezone", "Europe/Berlin"]
        // 06:30 UTC is 07:30 in Berlin: school time there, the third fix above 30 is speeding.
        let morning = try speeding(at: 6 * 3600 + 1800, berlin)
        #expect(morning.map { $0["time"] as? String } == ["2026-02-03T06:30:02.000Z"])
        #expect(abs((morning.first?["limit"] as? Double ?? 0) - 30 / 3.6) < 0.001)
        // The same drive read in UTC is at 06:30, before school time; 18:30 UTC is 19:30 in Berlin.
        #expect(try speeding(at: 6 * 3600 + 1800, ["--utc"]).isEmpty)
        #expect(try speeding(at: 18 * 3600 + 1800, berlin).isEmpty)
        // The console says the speed in the zone it broke (40 km/h, within a thousandth after the
        // knots of NMEA), never the excess.
        let capture = try FenceRulesTests.capture(steps, date: "030226", start: 6 * 3600 + 1800, in: folder)
        let human = try runGPSFence(["replay", capture, "--fences", output] + berlin)
        let line = human.stdout.split(separator: "\n").first { $0.contains("speeding") } ?? ""
        #expect(line.contains("School street [osm:way/7]  40 km/h in a 30 zone"), "\(human.stdout)")
        #expect(line.contains("07:30:02+01:00"), "\(human.stdout)")
    }

    /// A KML placemark's ExtendedData carries a conditional weight limit as OSM writes it: the part
    /// at a time is kept, the one about the vehicle's length is set aside and counted.
    @Test func aKMLPlacemarkKeepsThePartAtATime() throws {
        let folder = try FenceRulesTests.folder()
        let kml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><name>Old bridge</name>
            <ExtendedData><Data name="radius"><value>15</value></Data>
            <Data name="maxweight:conditional"><value>7.5 @ (22:00-06:00); 3.5 @ (length&gt;10)</value></Data>
            </ExtendedData><Point><coordinates>8,47,0</coordinates></Point></Placemark></Document></kml>
            """
        let source = try FenceImportCommandTests.write(kml, "bridges.kml", in: folder)
        let output = folder.appendingPathComponent("bridges.geojson").path
        let imported = try runGPSFence(["fences", "import", source, "--output", output])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(
            imported.stderr.contains(
                "1 maxweight:conditional kept aside: the condition is not a time ('3.5 @ (length>10)')"),
            "\(imported.stderr)")
        let fences = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any])
        let properties = (fences["features"] as? [[String: Any]])?.first?["properties"] as? [String: Any]
        #expect(properties?["maxweight:conditional"] as? String == "7.5 @ (22:00-06:00)")
    }
}
