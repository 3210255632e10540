import Foundation
import Testing

/// `gpsfence fences import` through the real binary, on OpenStreetMap files written here: the
/// fence file it writes is loaded by `replay` and `check`, so what the import kept is judged by
/// what a run does with it.
@Suite struct FenceImportCommandTests {
    static let earthRadius = 6_371_008.8
    /// The bundled bridge capture's road: eastbound along 42.280597 N at 25 m/s, at
    /// x = -2500 + 25 t metres from -83.751891 (captures/bridge/README.md).
    static let roadLatitude = 42.280597
    static let roadLongitude = -83.751891

    static func longitude(east metres: Double) -> String {
        String(format: "%.7f", roadLongitude + metres / (earthRadius * cos(roadLatitude * .pi / 180)) * 180 / .pi)
    }

    static func node(_ id: Int, east: Double, tags: String = "") -> String {
        let position = #"id="\#(id)" lat="\#(String(format: "%.7f", roadLatitude))" lon="\#(longitude(east: east))""#
        return tags.isEmpty ? "<node \(position)/>" : "<node \(position)>\(tags)</node>"
    }

    static func osm(_ body: [String]) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<osm version=\"0.6\" generator=\"test\">\n"
            + body.joined(separator: "\n") + "\n</osm>\n"
    }

    static func tags(_ pairs: KeyValuePairs<String, String>) -> String {
        pairs.map { #"<tag k="\#($0.key)" v="\#($0.value)"/>"# }.joined()
    }

    static func write(_ text: String, _ name: String, in folder: URL) throws -> String {
        let file = folder.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// The road under the bridge as OSM maps it: three ways along the capture's road, the middle
    /// one (x from -20 to 20 m, two lanes: radius 3.5 m) under a bridge of 10'6" (3.2004 m,
    /// written 3.2), all limited to 50 km/h.
    static let bridgeRoad = osm([
        node(1, east: -1000), node(2, east: -20), node(3, east: 20), node(4, east: 1000),
        #"<way id="100"><nd ref="1"/><nd ref="2"/>"# + tags(["highway": "primary", "maxspeed": "50"]) + "</way>",
        #"<way id="101"><nd ref="2"/><nd ref="3"/>"#
            + tags(["highway": "primary", "maxspeed": "50", "maxheight": "10'6&quot;", "lanes": "2"]) + "</way>",
        #"<way id="102"><nd ref="3"/><nd ref="4"/>"# + tags(["highway": "primary", "maxspeed": "50"]) + "</way>",
    ])

    /// Values of every kind that is skipped, one way each, a height barrier and a kept way.
    static let mixed = osm([
        node(1, east: 0), node(2, east: 100),
        node(3, east: 200, tags: tags(["barrier": "height_restrictor", "maxheight": "12'"])),
        #"<way id="10"><nd ref="1"/><nd ref="2"/>"#
            + tags(["highway": "tertiary", "maxheight": "4", "maxheight:physical": "3.9", "maxspeed": "none"])
            + "</way>",
        #"<way id="11"><nd ref="1"/><nd ref="2"/>"# + tags(["highway": "service", "maxheight": "default"]) + "</way>",
        #"<way id="12"><nd ref="1"/><nd ref="2"/>"# + tags(["highway": "road", "maxheight": "below_default"])
            + "</way>",
        #"<way id="13"><nd ref="1"/><nd ref="2"/>"# + tags(["highway": "primary", "maxspeed": "XX:urban"]) + "</way>",
        #"<way id="14"><nd ref="1"/><nd ref="2"/>"# + tags(["highway": "track", "maxheight": "tall"]) + "</way>",
        #"<way id="15"><nd ref="2"/><nd ref="99"/>"# + tags(["highway": "residential", "maxspeed": "30 mph"])
            + "</way>",
        #"<way id="16"><nd ref="1"/><nd ref="2"/>"# + tags(["highway": "living_street", "maxspeed": "signals"])
            + "</way>",
    ])

    /// The ids of the fences of `fences` that `check` finds the point inside.
    static func inside(_ fences: String, _ lat: Double, _ lon: Double) throws -> [String] {
        let answer = try runGPSFence(["check", "--fences", fences, "--json", "\(lat)", "\(lon)"])
        #expect(answer.status == 0, "\(answer.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(answer.stdout.utf8)) as? [String: Any]
        return (object?["inside"] as? [Any])?.compactMap { $0 as? String } ?? []
    }

    /// Four nodes at the corners of a square of `size` degrees, ids from `first`.
    static func square(_ first: Int, _ south: Double, _ west: Double, _ size: Double) -> [String] {
        [(south, west), (south, west + size), (south + size, west + size), (south + size, west)].enumerated().map {
            #"<node id="\#(first + $0.offset)" lat="\#($0.element.0)" lon="\#($0.element.1)"/>"#
        }
    }

    /// A school's grounds as a multipolygon (two outer ways, a hole), a kindergarten's closed way
    /// inside the hole, a school as a node.
    static let schools: String = {
        return osm(
            square(1, 47.0, 8.0, 0.01) + square(5, 47.004, 8.004, 0.002) + [
                #"<node id="20" lat="47.1" lon="8.1">"# + tags(["amenity": "school", "name": "Dorfschule"])
                    + "</node>",
                #"<way id="30"><nd ref="1"/><nd ref="2"/><nd ref="3"/></way>"#,
                #"<way id="31"><nd ref="3"/><nd ref="4"/><nd ref="1"/></way>"#,
                #"<way id="32"><nd ref="5"/><nd ref="6"/><nd ref="7"/><nd ref="8"/><nd ref="5"/></way>"#,
                #"<way id="33"><nd ref="5"/><nd ref="6"/><nd ref="7"/><nd ref="5"/>"#
                    + tags(["amenity": "kindergarten"]) + "</way>",
                #"<relation id="40"><member type="way" ref="30" role="outer"/>"#
                    + #"<member type="way" ref="31" role="outer"/><member type="way" ref="32" role="inner"/>"#
                    + tags(["type": "multipolygon", "amenity": "school"]) + "</relation>",
            ])
    }()

    /// A 3.5 m truck at 25 m/s on the road of a low bridge imported from OSM. The bridge's
    /// corridor reaches from x = -23.5 to 23.5 (3.5 m around its ends at +-20 m): with a mile's
    /// look-ahead the path first reaches it at t = 35 (2500 - 875 - 23.5 = 1601.5 m <= 1609.344;
    /// t = 34 is 1626.5 m), flagged too low; the enter is at t = 100 (x = 0; t = 99 is x = -25).
    /// The way before it (x from -1000 m) is entered at t = 60, and at 90 km/h over its 50 the
    /// third fix inside (the default confirmation) is `speeding`: t = 62.
    @Test func aTallTruckIsWarnedOfAnImportedLowBridge() throws {
        let folder = temporaryDirectory()
        let source = try Self.write(Self.bridgeRoad, "bridge.osm", in: folder)
        let output = folder.appendingPathComponent("bridges.geojson").path
        let imported = try runGPSFence([
            "fences", "import", source, "--clearances", "--speed-limits", "--output", output,
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("kept 3 fences (3 corridors)"), "\(imported.stderr)")
        let arguments = [
            "replay", "captures/bridge/capture.nmea", "--fences", output, "--vehicle-height", "3.5", "--approach",
            "1609.344",
        ]
        let events = try FenceRulesTests.events(arguments)
        func event(_ type: String, _ fence: String) -> [String: Any]? {
            events.first { $0["type"] as? String == type && ($0["fence"] as? [String: Any])?["id"] as? String == fence }
        }
        let approach = try #require(event("approach", "osm:way/101"))
        #expect(approach["time"] as? String == "2026-02-03T10:15:35.000Z")
        #expect(abs((approach["distance"] as? Double ?? 0) - 1601.5) < 0.5)
        #expect(approach["too_low"] as? Bool == true)
        #expect(event("enter", "osm:way/101")?["time"] as? String == "2026-02-03T10:16:40.000Z")
        #expect(event("enter", "osm:way/101")?["too_low"] as? Bool == true)
        #expect(event("speeding", "osm:way/100")?["time"] as? String == "2026-02-03T10:16:02.000Z")
        #expect(abs((event("speeding", "osm:way/100")?["limit"] as? Double ?? 0) - 50 / 3.6) < 0.001)
        // Only the bridge is a hazard: the roads before and after it, limited to 50, are warned of
        // only when asked (`--approach-kinds`), not on every speed-limit road.
        func approached(_ events: [[String: Any]]) -> Set<String> {
            Set(
                events.filter { $0["type"] as? String == "approach" }.compactMap {
                    ($0["fence"] as? [String: Any])?["id"] as? String
                })
        }
        #expect(approached(events) == ["osm:way/101"])
        let asked = try FenceRulesTests.events(arguments + ["--approach-kinds", "restrictions,speed-limits"])
        #expect(approached(asked) == ["osm:way/100", "osm:way/101", "osm:way/102"])
        let human = try runGPSFence(arguments)
        let line = human.stdout.split(separator: "\n").first { $0.contains("approach") && $0.contains("osm:way/101") }
        #expect(line?.contains("TOO LOW: clearance 3.2 m") == true, "\(human.stdout)")
    }

    /// `--bbox` keeps the fences with a vertex inside: a box around the west end of the road (x =
    /// -1000 m) holds only the first way's. The same extract given twice keeps each id once.
    @Test func aBoxAndRepeatedSourcesKeepEachFenceOnce() throws {
        let folder = temporaryDirectory()
        let source = try Self.write(Self.bridgeRoad, "bridge.osm", in: folder)
        let output = folder.appendingPathComponent("out.geojson").path
        let west = Double(Self.longitude(east: -1000))!
        let box = "\(Self.roadLatitude - 0.001),\(west - 0.001),\(Self.roadLatitude + 0.001),\(west + 0.001)"
        let boxed = try runGPSFence(["fences", "import", source, "--speed-limits", "--bbox", box, "--output", output])
        #expect(boxed.status == 0, "\(boxed.stderr)")
        #expect(boxed.stderr.contains("kept 1 fence (1 corridor)"), "\(boxed.stderr)")
        #expect(boxed.stderr.contains("2 outside --bbox"), "\(boxed.stderr)")
        #expect(try String(contentsOfFile: output, encoding: .utf8).contains(#""id":"osm:way/100""#))
        let twice = try runGPSFence(["fences", "import", source, source, "--speed-limits", "--output", output])
        #expect(twice.status == 0, "\(twice.stderr)")
        #expect(twice.stderr.contains("kept 3 fences (3 corridors)"), "\(twice.stderr)")
        #expect(twice.stderr.contains("3 already imported from an earlier source (same id)"), "\(twice.stderr)")
        let bad = try runGPSFence([
            "fences", "import", source, "--speed-limits", "--bbox", "48,8,47,9", "--output", output,
        ])
        #expect(
            bad.status == 2 && bad.stderr.contains("--bbox wants south,west,north,east in degrees, not '48,8,47,9'"),
            "\(bad.stderr)")
    }

    /// `--bbox` written in osmium's order (west,south,east,north) keeps nothing where the
    /// south,west,north,east reading of the same numbers would keep the road: said, with the box to
    /// write, and exit 2 with the earlier output left alone.
    @Test func aBoxInOsmiumsOrderIsNamedAsSuch() throws {
        let folder = temporaryDirectory()
        let source = try Self.write(Self.bridgeRoad, "bridge.osm", in: folder)
        let output = folder.appendingPathComponent("out.geojson").path
        try "earlier".write(toFile: output, atomically: true, encoding: .utf8)
        let west = Double(Self.longitude(east: -1000))!
        let osmium = "\(west - 0.001),\(Self.roadLatitude - 0.001),\(west + 0.001),\(Self.roadLatitude + 0.001)"
        let swapped = try runGPSFence([
            // `=`: the first number (a longitude west of Greenwich) is negative.
            "fences", "import", source, "--speed-limits", "--bbox=\(osmium)", "--output", output,
        ])
        #expect(swapped.status == 2, "\(swapped.stderr)")
        #expect(swapped.stderr.contains("west,south,east,north (osmium's order) would keep 1"), "\(swapped.stderr)")
        #expect(swapped.stderr.contains("write --bbox \(Self.roadLatitude - 0.001),"), "\(swapped.stderr)")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "earlier")
    }

    /// A GPX or KML that yields no fence is an error naming the file, not an empty fence file.
    @Test func aDrawnSourceWithoutFencesIsAnError() throws {
        let folder = temporaryDirectory()
        let output = folder.appendingPathComponent("out.geojson").path
        let gpx = try Self.write(
            #"<?xml version="1.0"?><gpx version="1.1" creator="t"><metadata><name>x</name></metadata></gpx>"#,
            "empty.gpx", in: folder)
        let kml = try Self.write(
            #"<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>d</name></Document></kml>"#,
            "empty.kml", in: folder)
        for (source, words) in [(gpx, "no waypoint (wpt), route (rte) or track (trk)"), (kml, "no Placemark")] {
            let result = try runGPSFence(["fences", "import", source, "--output", output])
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains(source) && result.stderr.contains(words), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output), "no empty fence file")
        }
    }

    /// A second import of the same file writes the same bytes (ids from OSM, not from the run).
    @Test func aSecondImportIsByteIdentical() throws {
        let folder = temporaryDirectory()
        let source = try Self.write(Self.bridgeRoad, "bridge.osm", in: folder)
        var outputs: [Data] = []
        for name in ["first.geojson", "second.geojson"] {
            let output = folder.appendingPathComponent(name)
            let result = try runGPSFence(["fences", "import", source, "--speed-limits", "--output", output.path])
            #expect(result.status == 0, "\(result.stderr)")
            outputs.append(try Data(contentsOf: output))
        }
        #expect(outputs[0] == outputs[1])
        let text = String(decoding: outputs[0], as: UTF8.self)
        #expect(text.contains(#""id":"osm:way/100""#) && text.contains(#""speed_limit_kmh":50"#))
    }

    /// Every skipped value is counted under its reason; a way whose node the extract cut off is
    /// counted too; `maxheight:physical` wins over `maxheight`; a tagged node is a circle.
    @Test func theSummaryCountsWhatWasSkippedByReason() throws {
        let folder = temporaryDirectory()
        let source = try Self.write(Self.mixed, "mixed.osm", in: folder)
        let output = folder.appendingPathComponent("out.geojson").path
        let result = try runGPSFence([
            "fences", "import", source, "--clearances", "--speed-limits", "--output", output,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "gpsfence: kept 2 fences (1 circle, 1 corridor) in \(output)", "\(lines)")
        for expected in [
            "skipped 7:", "1 maxheight=default", "1 maxheight=below_default", "1 maxspeed=none",
            "1 maxspeed=signals", "1 unknown maxspeed code ('XX:urban')", "1 unreadable maxheight ('tall')",
            "1 way with nodes missing from the file (cut at the extract's edge)",
        ] {
            #expect(lines.contains { $0.hasSuffix(expected) }, "\(expected) in \(lines)")
        }
        let fences = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any])
        let features = try #require(fences["features"] as? [[String: Any]])
        #expect(features.map { $0["id"] as? String } == ["osm:node/3", "osm:way/10"])
        let wayProperties = features[1]["properties"] as? [String: Any]
        #expect(wayProperties?["clearance"] as? Double == 3.9)
        // A tertiary road without `width` or `lanes`: two lanes of 3.5 m.
        #expect(wayProperties?["radius"] as? Double == 3.5)
        let nodeProperties = features[0]["properties"] as? [String: Any]
        #expect(
            abs((nodeProperties?["clearance"] as? Double ?? 0) - 3.6576) < 1e-9, "12 ft to the tenth of a millimetre")
        #expect(nodeProperties?["radius"] as? Double == 10)
    }

    /// What `--clearances` and `--speed-limits` keep of a city's ways: its roads (a closed
    /// roundabout stays a corridor, an unnamed street is called by its class, a named one by its
    /// name, one with only a `ref` by it), a car park with a height limit as a polygon that a point
    /// inside it is in, and not the railway with a `maxspeed`, the canal, the footway under a bridge
    /// nor a way with no `highway` at all, each counted with what it is; `--select railway` keeps
    /// the railway.
    static let city: String = {
        func way(_ id: Int, _ refs: [Int], _ pairs: KeyValuePairs<String, String>) -> String {
            #"<way id="\#(id)">"# + refs.map { #"<nd ref="\#($0)"/>"# }.joined() + tags(pairs) + "</way>"
        }
        return osm(
            square(1, 48.0, 11.0, 0.001) + square(5, 48.01, 11.01, 0.001) + [
                way(100, [1, 2], ["highway": "residential", "maxspeed": "30"]),
                way(101, [2, 3], ["highway": "primary", "maxspeed": "50", "name": "Hauptstraße"]),
                way(102, [3, 4], ["highway": "secondary", "maxspeed": "70", "ref": "B 13"]),
                way(103, [5, 6, 7, 8, 5], ["highway": "primary", "junction": "roundabout", "maxspeed": "40"]),
                way(104, [1, 3], ["railway": "rail", "maxspeed": "90", "name": "Main line"]),
                way(105, [2, 4], ["waterway": "canal", "maxspeed": "8"]),
                way(106, [1, 4], ["highway": "footway", "maxheight": "2.2"]),
                way(107, [4, 2], ["maxspeed": "20"]),
                way(108, [5, 6, 7, 5], ["amenity": "parking", "maxheight": "2.1", "name": "Garage"]),
            ])
    }()

    @Test func onlyRoadsAndAreasAreKeptForClearancesAndSpeedLimits() throws {
        let folder = temporaryDirectory()
        let source = try Self.write(Self.city, "city.osm", in: folder)
        let output = folder.appendingPathComponent("city.geojson").path
        let result = try runGPSFence([
            "fences", "import", source, "--clearances", "--speed-limits", "--output", output,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "gpsfence: kept 5 fences (4 corridors, 1 polygon) in \(output)", "\(lines)")
        #expect(
            lines.contains {
                $0.contains("4 way that is not a road for vehicles (--select keeps it)")
                    && $0.contains("railway=rail") && $0.contains("waterway=canal")
            }, "\(lines)")
        let fences = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any])
        let features = try #require(fences["features"] as? [[String: Any]])
        var names: [String: String] = [:]
        var types: [String: String] = [:]
        for feature in features {
            let id = try #require(feature["id"] as? String)
            names[id] = (feature["properties"] as? [String: Any])?["name"] as? String
            types[id] = (feature["geometry"] as? [String: Any])?["type"] as? String
        }
        #expect(
            names == [
                "osm:way/100": "residential street", "osm:way/101": "Hauptstraße", "osm:way/102": "B 13",
                "osm:way/103": "primary road", "osm:way/108": "Garage",
            ])
        #expect(types["osm:way/103"] == "LineString")
        #expect(types["osm:way/108"] == "Polygon")
        #expect(try Self.inside(output, 48.01033, 11.01067) == ["osm:way/108"])

        let selected = try runGPSFence([
            "fences", "import", source, "--speed-limits", "--select", "railway", "--output", output,
        ])
        #expect(selected.status == 0, "\(selected.stderr)")
        let kept = try String(contentsOfFile: output, encoding: .utf8)
        #expect(kept.contains("osm:way/104") && kept.contains("\"railway\":\"rail\""), "\(kept)")
        #expect(!kept.contains("osm:way/105"))
    }

    /// `--select` makes a closed way and a multipolygon with a hole into polygons, a node into a
    /// circle of `--radius`; `check` finds a point in the outer ring inside and one in the hole not
    /// (but inside the kindergarten's triangle in the hole, where it is).
    @Test func selectedAreasBecomePolygonsWithTheirHoles() throws {
        let folder = temporaryDirectory()
        let source = try Self.write(Self.schools, "schools.osm", in: folder)
        let output = folder.appendingPathComponent("schools.geojson").path
        let result = try runGPSFence([
            "fences", "import", source, "--select", "amenity=school,kindergarten", "--radius", "50", "--output", output,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("kept 3 fences (1 circle, 2 polygons)"), "\(result.stderr)")
        func inside(_ lat: Double, _ lon: Double) throws -> [String] { try Self.inside(output, lat, lon) }
        #expect(try inside(47.002, 8.002) == ["osm:relation/40"])
        #expect(try inside(47.0055, 8.0045) == [])
        #expect(try inside(47.0045, 8.0055) == ["osm:way/33"])
        #expect(try inside(47.1, 8.1003) == ["osm:node/20"])
    }

    /// A missing file, a truncated one and one that is not OSM: exit status 2, the file and where
    /// named, and an earlier output left as it was, with no temporary file beside it.
    @Test func badSourcesExitTwoAndLeaveTheOutputAlone() throws {
        let folder = temporaryDirectory()
        let good = try Self.write(Self.bridgeRoad, "bridge.osm", in: folder)
        let truncated = try Self.write(String(Self.bridgeRoad.prefix(400)), "cut.osm", in: folder)
        let notOSM = try Self.write("<gpx><wpt lat=\"1\" lon=\"2\"/></gpx>", "other.osm", in: folder)
        let output = folder.appendingPathComponent("kept.geojson")
        try "earlier".write(to: output, atomically: true, encoding: .utf8)
        for (source, message) in [
            (folder.appendingPathComponent("missing.osm").path, "cannot read the file"),
            (truncated, "line "),
            (notOSM, "not an OSM XML file"),
        ] {
            let result = try runGPSFence(["fences", "import", good, source, "--clearances", "--output", output.path])
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains(source) && result.stderr.contains(message), "\(result.stderr)")
            #expect(try String(contentsOf: output, encoding: .utf8) == "earlier")
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { !$0.contains("partial") })
        }
    }
}

/// The PBF reader judged by osmium: each OSM file of the tests above converted with `osmium cat`
/// imports to the same bytes as the XML it came from; a PBF cut short is refused.
@Suite struct FenceImportPBFTests {
    static func pbf(_ xml: String, in folder: URL) throws -> String {
        let output = xml.replacingOccurrences(of: ".osm", with: ".osm.pbf")
        let result = try runProgram("/usr/bin/osmium", ["cat", xml, "-o", output, "--overwrite"])
        #expect(result.status == 0, "\(result.stderr)")
        return output
    }

    @Test(arguments: ["bridge", "mixed", "schools"])
    func pbfAndXMLImportTheSameFences(name: String) throws {
        let folder = temporaryDirectory()
        let text = [
            "bridge": FenceImportCommandTests.bridgeRoad, "mixed": FenceImportCommandTests.mixed,
            "schools": FenceImportCommandTests.schools,
        ][name]!
        let xml = try FenceImportCommandTests.write(text, "\(name).osm", in: folder)
        let pbf = try Self.pbf(xml, in: folder)
        var outputs: [Data] = []
        var summaries: [String] = []
        for source in [xml, pbf] {
            let output = folder.appendingPathComponent(UUID().uuidString + ".geojson")
            let result = try runGPSFence([
                "fences", "import", source, "--clearances", "--speed-limits", "--select", "amenity",
                "--output", output.path,
            ])
            #expect(result.status == 0, "\(result.stderr)")
            outputs.append(try Data(contentsOf: output))
            summaries.append(result.stderr.split(separator: "\n").dropFirst().joined(separator: "\n"))
        }
        #expect(outputs[0] == outputs[1], "\(String(decoding: outputs[1], as: UTF8.self))")
        #expect(summaries[0] == summaries[1])
        #expect(outputs[0].count > 100)
    }

    /// Cut inside its last blob, or inside a blob's header, the file is refused naming the blob.
    @Test(arguments: [40, 9])
    func aTruncatedPBFExitsTwoNamingTheBlob(cutFromEnd: Int) throws {
        let folder = temporaryDirectory()
        let xml = try FenceImportCommandTests.write(FenceImportCommandTests.bridgeRoad, "bridge.osm", in: folder)
        let whole = try Data(contentsOf: URL(fileURLWithPath: try Self.pbf(xml, in: folder)))
        let cut = folder.appendingPathComponent("cut.osm.pbf")
        try whole.prefix(whole.count - cutFromEnd).write(to: cut)
        let output = folder.appendingPathComponent("out.geojson")
        let result = try runGPSFence(["fences", "import", cut.path, "--speed-limits", "--output", output.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(cut.path): blob "), "\(result.stderr)")
        #expect(result.stderr.contains("the file ends inside its"), "\(result.stderr)")
        #expect(result.stderr.contains("truncated"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}
