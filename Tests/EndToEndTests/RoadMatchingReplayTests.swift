import Foundation
import Testing

/// The road being driven, through the real binary: `fences import --speed-limits --clearances` of
/// an OSM file written here (a street that crosses a bridge over a tunnel at a shallow angle, the
/// tunnel's approach roads, a 30 road crossing the street at a junction), then `replay` of NMEA
/// written here at 10 fixes a second. A 3.5 m truck on the street is inside the tunnel's corridor
/// for 150 m and is told nothing of its 3 m clearance; one driving through the tunnel is warned
/// before it and told on entering it. A car at 90 % of the street's 50 passes the 30 road's
/// junction without `speeding`.
@Suite struct RoadMatchingReplayTests {
    static let centre = (lat: 48.137, lon: 11.575)
    static let earthRadius = 6_371_008.8

    static func position(_ east: Double, _ north: Double) -> (lat: Double, lon: Double) {
        let lat = centre.lat + north / (earthRadius * .pi / 180)
        return (lat, centre.lon + east / (earthRadius * .pi / 180 * cos(centre.lat * .pi / 180)))
    }

    /// Nodes (id, east, north) and ways (id, node ids, tags).
    static let nodes: [(Int, Double, Double)] = [
        (1, -400, 0), (2, -60, 0), (3, 60, 0), (4, 250, 0), (5, 400, 0),
        (10, -400, -16), (11, -150, -6), (12, 150, 6), (13, 400, 16),
        (20, 250, -300), (21, 250, 300),
    ]
    static let ways: [(Int, [Int], KeyValuePairs<String, String>)] = [
        (100, [1, 2], ["highway": "secondary", "maxspeed": "50", "name": "Bridge Street"]),
        (
            101, [2, 3],
            ["highway": "secondary", "maxspeed": "50", "bridge": "yes", "layer": "1", "name": "Bridge Street"]
        ),
        (102, [3, 4, 5], ["highway": "secondary", "maxspeed": "50", "name": "Bridge Street"]),
        (200, [10, 11], ["highway": "primary", "maxspeed": "70", "ref": "B 2"]),
        (
            201, [11, 12],
            ["highway": "primary", "maxspeed": "70", "ref": "B 2", "tunnel": "yes", "layer": "-1", "maxheight": "3.0"]
        ),
        (202, [12, 13], ["highway": "primary", "maxspeed": "70", "ref": "B 2"]),
        (300, [20, 4, 21], ["highway": "residential", "maxspeed": "30", "name": "Side Street"]),
    ]

    static var osm: String { osmFile(nodes: nodes, ways: ways) }

    /// The OSM XML of the nodes (with the tags of those in `nodeTags`) and ways.
    static func osmFile(
        nodes: [(Int, Double, Double)], ways: [(Int, [Int], KeyValuePairs<String, String>)],
        nodeTags: [Int: KeyValuePairs<String, String>] = [:]
    ) -> String {
        let nodeLines = nodes.map { node in
            let p = position(node.1, node.2)
            let head = String(format: #"<node id="%d" lat="%.7f" lon="%.7f""#, node.0, p.lat, p.lon)
            guard let tags = nodeTags[node.0] else { return head + "/>" }
            return head + ">" + tags.map { #"<tag k="\#($0.key)" v="\#($0.value)"/>"# }.joined() + "</node>"
        }
        let wayLines = ways.map { way in
            #"<way id="\#(way.0)">"# + way.1.map { #"<nd ref="\#($0)"/>"# }.joined()
                + way.2.map { #"<tag k="\#($0.key)" v="\#($0.value)"/>"# }.joined() + "</way>"
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<osm version=\"0.6\" generator=\"test\">\n"
            + (nodeLines + wayLines).joined(separator: "\n") + "\n</osm>\n"
    }

    /// NMEA at 10 fixes a second from 10:00:00 along the points (metres east, north) at `speed` m/s.
    static func capture(_ points: [(Double, Double)], speed: Double) -> String {
        func checksummed(_ body: String) -> String {
            String(format: "$%@*%02X\r\n", body, body.utf8.reduce(0) { $0 ^ $1 })
        }
        func minutes(_ degrees: Double, width: Int) -> String {
            let whole = Int(degrees.rounded(.down))
            return String(format: "%0\(width)d%08.5f", whole, (degrees - Double(whole)) * 60)
        }
        var text = ""
        var tenth = 0
        for (from, to) in zip(points, points.dropFirst()) {
            let dx = to.0 - from.0
            let dy = to.1 - from.1
            let length = (dx * dx + dy * dy).squareRoot()
            let track = (atan2(dx, dy) * 180 / .pi + 360).truncatingRemainder(dividingBy: 360)
            var along = 0.0
            while along < length {
                let p = position(from.0 + dx * along / length, from.1 + dy * along / length)
                let time = String(format: "10%02d%02d.%02d", tenth / 600, tenth / 10 % 60, tenth % 10 * 10)
                let lat = minutes(p.lat, width: 2)
                let lon = minutes(p.lon, width: 3)
                text += checksummed("GPGGA,\(time),\(lat),N,\(lon),E,1,09,0.9,520.0,M,47.0,M,,")
                text += checksummed(
                    String(
                        format: "GPRMC,%@,A,%@,N,%@,E,%.2f,%.1f,030226,,,A", time, lat, lon, speed / 0.514444, track))
                tenth += 1
                along += speed / 10
            }
        }
        return text
    }

    static func imported(in folder: URL, osm text: String? = nil) throws -> String {
        let source = folder.appendingPathComponent("town.osm")
        try (text ?? osm).write(to: source, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("town.geojson").path
        let result = try runGPSFence([
            "fences", "import", source.path, "--speed-limits", "--clearances", "--output", output,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        return output
    }

    static func replay(_ capture: String, fences: String, in folder: URL, _ options: [String]) throws
        -> [[String: Any]]
    {
        let file = folder.appendingPathComponent("drive-\(capture.count).nmea")
        try capture.write(to: file, atomically: true, encoding: .utf8)
        return try FenceRulesTests.events(["replay", file.path, "--fences", fences] + options)
    }

    static func fence(_ event: [String: Any]) -> String? { (event["fence"] as? [String: Any])?["id"] as? String }

    @Test func aTruckOverTheTunnelIsToldNothingAndOneThroughItIsWarned() throws {
        let folder = temporaryDirectory()
        let fences = try Self.imported(in: folder)
        let truck = ["--vehicle-height", "3.5", "--approach", "200"]
        // Eastbound in the street's lane, 1.75 m south of its line: inside the tunnel's corridor
        // (5.25 m, a primary road's) from about 140 m before the bridge to 40 m after it.
        let street = try Self.replay(
            Self.capture([(-390, -1.75), (390, -1.75)], speed: 12.5), fences: fences, in: folder, truck)
        #expect(!street.contains { $0["too_low"] != nil }, "\(street)")
        #expect(!street.contains { Self.fence($0) == "osm:way/201" }, "\(street)")
        #expect(street.contains { $0["type"] as? String == "enter" && Self.fence($0) == "osm:way/101" })

        let through = try Self.replay(
            Self.capture([(-390, -15.6), (-150, -6), (150, 6), (390, 15.6)], speed: 12.5), fences: fences,
            in: folder, truck)
        let approach = try #require(
            through.first { $0["type"] as? String == "approach" && Self.fence($0) == "osm:way/201" }, "\(through)")
        #expect(approach["too_low"] as? Bool == true)
        let enter = try #require(
            through.first { $0["type"] as? String == "enter" && Self.fence($0) == "osm:way/201" }, "\(through)")
        #expect(enter["too_low"] as? Bool == true)
        #expect(!through.contains { $0["type"] as? String == "speeding" })
    }

    /// A bridge road east-west (way 400, layer 1) over a street north-south (way 500, 3 m clearance
    /// under the bridge), mapped with a node of each at the same place (41 and 51), and a side road
    /// with a 3 m underpass (way 600) leaving the bridge road at its east end (node 42, in both).
    static let overpass: String = {
        let nodes: [(Int, Double, Double)] = [
            (40, -400, 0), (41, 0, 0), (42, 400, 0), (50, 0, -400), (51, 0, 0), (52, 0, 400), (61, 400, 300),
        ]
        let ways: [(Int, [Int], KeyValuePairs<String, String>)] = [
            (400, [40, 41, 42], ["highway": "primary", "maxspeed": "50", "bridge": "yes", "layer": "1"]),
            (500, [50, 51, 52], ["highway": "primary", "maxspeed": "50", "maxheight": "3.0"]),
            (600, [42, 61], ["highway": "residential", "maxheight": "3.0"]),
        ]
        return RoadMatchingReplayTests.osmFile(nodes: nodes, ways: ways)
    }()

    /// The import keeps where the roads meet (`shared_nodes`: the vertex and the node), and a 3.5 m
    /// truck on the bridge is warned of the side road's underpass ahead, never of the street
    /// below, whose vertex lies under the bridge's.
    @Test func roadsJoinAtTheirSharedNodesNotWhereTheirVerticesMeet() throws {
        let folder = temporaryDirectory()
        let fences = try Self.imported(in: folder, osm: Self.overpass)
        let collection = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: fences))) as? [String: Any])
        var shared: [String: [[Int]]] = [:]
        for feature in collection["features"] as? [[String: Any]] ?? [] {
            let properties = feature["properties"] as? [String: Any]
            shared[feature["id"] as? String ?? ""] = properties?["shared_nodes"] as? [[Int]]
        }
        #expect(shared == ["osm:way/400": [[2, 42]], "osm:way/500": [], "osm:way/600": [[0, 42]]])

        let truck = try Self.replay(
            Self.capture([(-390, 1.75), (390, 1.75)], speed: 12.5), fences: fences, in: folder,
            ["--vehicle-height", "3.5", "--approach", "200"])
        #expect(!truck.contains { Self.fence($0) == "osm:way/500" }, "\(truck)")
        let approach = try #require(
            truck.first { $0["type"] as? String == "approach" && Self.fence($0) == "osm:way/600" }, "\(truck)")
        #expect(approach["too_low"] as? Bool == true)
    }

    @Test func aCarAtNinetyPercentOfTheStreetsLimitPassesTheJunctionOfA30Road() throws {
        let folder = temporaryDirectory()
        let fences = try Self.imported(in: folder)
        let car = try Self.replay(
            Self.capture([(100, -1.75), (390, -1.75)], speed: 0.9 * 50 / 3.6), fences: fences, in: folder, [])
        #expect(!car.contains { $0["type"] as? String == "speeding" }, "\(car)")
        #expect(!car.contains { Self.fence($0) == "osm:way/300" }, "\(car)")
        let fast = try Self.replay(
            Self.capture([(100, -1.75), (390, -1.75)], speed: 1.3 * 50 / 3.6), fences: fences, in: folder, [])
        let speeding = fast.filter { $0["type"] as? String == "speeding" }
        #expect(speeding.count == 1, "\(fast)")
        #expect(speeding.first.map(Self.fence) == "osm:way/102")
        #expect(abs((speeding.first?["limit"] as? Double ?? 0) - 50 / 3.6) < 0.001)
    }
}
