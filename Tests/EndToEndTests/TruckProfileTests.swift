import Foundation
import Testing

/// A truck's whole profile through the real binary's `replay`: the bundled bridge drive
/// (`captures/bridge`: an approach at 10:15:36, the enter at 10:16:40) past a bridge signed 7.5 t,
/// 7'6" wide (2.286 m: a width limit of 2.28 m, rounded down), 12 m long, 10 st an axle (9071.8 kg) and closed to heavy goods vehicles; and
/// a yard whose heavy goods vehicles' limit is stricter than everyone's.
@Suite struct TruckProfileTests {
    static let bridge = #"""
        {"type":"FeatureCollection","features":[{"type":"Feature","id":"bridge-1","geometry":{"type":"Point",
        "coordinates":[-83.751891,42.280597]},"properties":{"name":"Weak bridge","radius":12,"approach":1609.344,
        "maxweight":"7.5 t","maxwidth":"7'6\"","maxlength":12,"maxaxleload":"10 st","hgv":"no"}}]}
        """#

    static func bridgeFile() throws -> String {
        let file = temporaryDirectory().appendingPathComponent("bridge.geojson")
        try bridge.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// The flags of the approach and of the enter, each sorted.
    static func flags(_ arguments: [String]) throws -> [String: [String]] {
        var flags: [String: [String]] = [:]
        let known: Set = ["too_low", "too_wide", "too_long", "too_heavy", "axle_too_heavy", "no_hgv"]
        for event in try FenceRulesTests.events(arguments) {
            guard let type = event["type"] as? String, ["approach", "enter"].contains(type) else { continue }
            flags[type] = event.keys.filter { known.contains($0) && event[$0] as? Bool == true }.sorted()
        }
        return flags
    }

    /// A 12 t articulated lorry, 2.55 m wide and 16.5 m long, 19000 lbs (8618 kg) on its heaviest
    /// axle: too heavy, too wide, too long and no HGV; its axle is within 10 st (9071.8 kg).
    @Test func aLorryIsToldEveryRestrictionItBreaks() throws {
        let arguments = [
            "replay", "captures/bridge/capture.nmea", "--fences", try Self.bridgeFile(), "--vehicle-weight", "12 t",
            "--vehicle-width", "2.55", "--vehicle-length", "16.5", "--vehicle-axle-load", "19000 lbs", "--hgv",
        ]
        let expected = ["no_hgv", "too_heavy", "too_long", "too_wide"]
        #expect(try Self.flags(arguments) == ["approach": expected, "enter": expected])
        let human = try runGPSFence(arguments)
        let approach = human.stdout.split(separator: "\n").first { $0.contains("approach") } ?? ""
        #expect(
            approach.contains(
                "TOO WIDE: width limit 2.28 m, TOO LONG: length limit 12 m, TOO HEAVY: weight limit 7.5 t, NO HGV"),
            "\(human.stdout)")
    }

    /// A 3.5 t van within every measure, not a heavy goods vehicle: nothing flagged; the same van
    /// loaded to 8 t (`8`: tonnes, as OpenStreetMap reads a bare number) is too heavy only.
    @Test func aVanIsFlaggedOnlyWhenLoadedAboveTheLimit() throws {
        let fences = try Self.bridgeFile()
        let base = [
            "replay", "captures/bridge/capture.nmea", "--fences", fences, "--vehicle-width", "2.0",
            "--vehicle-length", "6",
        ]
        #expect(try Self.flags(base + ["--vehicle-weight", "3.5"]) == ["approach": [], "enter": []])
        #expect(
            try Self.flags(base + ["--vehicle-weight", "8"]) == ["approach": ["too_heavy"], "enter": ["too_heavy"]])
    }

    /// A yard with `speed_limit_kmh: 80` and `maxspeed:hgv: 60`, driven at 20 m/s (72 km/h) for
    /// five fixes: a heavy goods vehicle is speeding at the third fix, against 60 km/h; a car is not.
    @Test func anHGVSpeedLimitHoldsForHGVs() throws {
        let folder = try FenceRulesTests.folder()
        let steps = (0..<5).map { FenceRulesTests.Step(second: $0, east: Double($0) * 20, speed: 20) }
        let capture = try FenceRulesTests.capture(steps, date: "030226", start: 9 * 3600, in: folder)
        let fences = try FenceRulesTests.fences(
            [("yard", 0, 500, #","speed_limit_kmh":80,"maxspeed:hgv":60"#)], in: folder)
        let car = try FenceRulesTests.events(["replay", capture, "--fences", fences])
        #expect(!car.contains { $0["type"] as? String == "speeding" })
        let lorry = try FenceRulesTests.events(["replay", capture, "--fences", fences, "--hgv"])
        let speeding = lorry.filter { $0["type"] as? String == "speeding" }
        #expect(speeding.map { $0["time"] as? String } == ["2026-02-03T09:00:02.000Z"])
        #expect(abs((speeding.first?["limit"] as? Double ?? 0) - 60 / 3.6) < 0.01)
    }

    @Test func aWeightThatIsNoneIsRefused() throws {
        let result = try runGPSFence([
            "replay", "captures/bridge/capture.nmea", "--fences", "captures/bridge/fences.geojson",
            "--vehicle-weight", "heavy",
        ])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--vehicle-weight wants a weight like 7.5 (tonnes)"), "\(result.stderr)")
        #expect(result.stderr.contains("not 'heavy'"), "\(result.stderr)")
    }

    /// `fences import --truck-restrictions` keeps OpenStreetMap's truck tags under their own names
    /// (a bare weight in tonnes as a number, a sign's text as written, `maxspeed:hgv` in km/h),
    /// skips a value the loader could not read (`maxweight=unsigned`) and roads open to lorries
    /// (`hgv=designated`), and the file it writes loads.
    @Test func theOSMImportKeepsATrucksRestrictions() throws {
        let folder = temporaryDirectory()
        let source = folder.appendingPathComponent("roads.osm")
        try #"""
        <?xml version="1.0" encoding="UTF-8"?>
        <osm version="0.6">
         <node id="1" lat="42.2806" lon="-83.7600"/>
         <node id="2" lat="42.2806" lon="-83.7500"/>
         <node id="3" lat="42.2810" lon="-83.7600"/>
         <node id="4" lat="42.2810" lon="-83.7500"/>
         <way id="10"><nd ref="1"/><nd ref="2"/><tag k="highway" v="secondary"/><tag k="name" v="Weak bridge"/>
          <tag k="maxweight" v="7.5"/><tag k="maxwidth" v="7'6&quot;"/><tag k="hgv" v="no"/><tag k="maxspeed:hgv" v="40 mph"/></way>
         <way id="11"><nd ref="3"/><nd ref="4"/><tag k="highway" v="primary"/><tag k="hgv" v="designated"/>
          <tag k="maxweight" v="unsigned"/></way>
        </osm>
        """#.write(to: source, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("roads.geojson").path
        let imported = try runGPSFence(["fences", "import", source.path, "--truck-restrictions", "--output", output])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("maxweight that is not a weight like"), "\(imported.stderr)")
        let collection = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any])
        let features = try #require(collection["features"] as? [[String: Any]])
        #expect(features.map { $0["id"] as? String } == ["osm:way/10"])
        let properties = try #require(features.first?["properties"] as? [String: Any])
        #expect(properties["maxweight"] as? Double == 7.5)
        #expect(properties["maxwidth"] as? String == "7'6\"")
        #expect(properties["hgv"] as? String == "no")
        #expect(abs((properties["maxspeed:hgv"] as? Double ?? 0) - 64.374) < 0.001, "40 mph in km/h")
        let loaded = try runGPSFence(["check", "--fences", output, "42.2806", "-83.755"])
        #expect(loaded.status == 0 && loaded.stdout.contains("Weak bridge"), "\(loaded.stderr)")
    }
}
