import Foundation
import Testing

/// A node's `maxheight` on the road through it, through the real binary: `fences import
/// --speed-limits --clearances` of an OSM file written here, then `replay` of NMEA written here at
/// 10 fixes a second, for a 3.5 m truck. A car park's entrance (node 80, 2.2 m) 6 m up a service
/// road that leaves the street (way 100) at node 2: the truck passing on the street, 7.75 m from
/// the node, is told nothing; the truck that turns in is told `too_low` as it enters the piece of
/// the service road at the entrance. A height barrier (node 90, 3 m) in the middle of a street
/// with a limit (way 900) warns the truck driving that street. A node on no road stays a circle.
@Suite struct NodeRestrictionReplayTests {
    static let osm = RoadMatchingReplayTests.osmFile(
        nodes: [
            (1, -300, 0), (2, 0, 0), (3, 300, 0), (80, 0, 6), (81, 0, 60),
            (92, -300, 300), (90, 0, 300), (93, 300, 300), (95, 200, 150),
        ],
        ways: [
            (100, [1, 2, 3], ["highway": "secondary", "maxspeed": "50", "name": "High Street"]),
            (800, [2, 80, 81], ["highway": "service", "service": "parking_aisle"]),
            (900, [92, 90, 93], ["highway": "tertiary", "maxspeed": "50", "name": "Low Street"]),
        ],
        nodeTags: [
            80: ["entrance": "yes", "maxheight": "2.2"], 90: ["barrier": "height_restrictor", "maxheight": "3.0"],
            95: ["maxheight": "2.5"],
        ])

    static let truck = ["--vehicle-height", "3.5"]

    static func features(_ path: String) throws -> [String: [String: Any]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let collection = try #require(
            JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        var byID: [String: [String: Any]] = [:]
        for feature in collection["features"] as? [[String: Any]] ?? [] {
            if let id = feature["id"] as? String { byID[id] = feature }
        }
        return byID
    }

    @Test func theNodesRestrictionIsAPieceOfItsRoad() throws {
        let folder = temporaryDirectory()
        let fences = try RoadMatchingReplayTests.imported(in: folder, osm: Self.osm)
        let features = try Self.features(fences)
        let entrance = try #require(features["osm:node/80"], "\(features.keys)")
        #expect((entrance["geometry"] as? [String: Any])?["type"] as? String == "LineString")
        let properties = try #require(entrance["properties"] as? [String: Any])
        #expect(properties["highway"] as? String == "service")
        #expect(properties["clearance"] as? Double == 2.2)
        #expect(properties["at_node"] as? Int == 80)
        let lone = try #require(features["osm:node/95"])
        #expect((lone["geometry"] as? [String: Any])?["type"] as? String == "Point", "on no road: a circle")
    }

    @Test func aTruckPassingTheEntranceIsToldNothingAndOneTurningInIsWarned() throws {
        let folder = temporaryDirectory()
        let fences = try RoadMatchingReplayTests.imported(in: folder, osm: Self.osm)
        // Eastbound in the street's lane, 1.75 m south of its line: 7.75 m from the entrance.
        let passing = try RoadMatchingReplayTests.replay(
            RoadMatchingReplayTests.capture([(-290, -1.75), (290, -1.75)], speed: 10), fences: fences, in: folder,
            Self.truck)
        #expect(!passing.contains { $0["too_low"] != nil }, "\(passing)")
        #expect(!passing.contains { RoadMatchingReplayTests.fence($0) == "osm:node/80" }, "\(passing)")

        let turningIn = try RoadMatchingReplayTests.replay(
            RoadMatchingReplayTests.capture([(-290, -1.75), (1.4, -1.75), (1.4, 55)], speed: 5), fences: fences,
            in: folder, Self.truck)
        let enter = try #require(
            turningIn.first {
                $0["type"] as? String == "enter" && RoadMatchingReplayTests.fence($0) == "osm:node/80"
            }, "\(turningIn)")
        #expect(enter["too_low"] as? Bool == true)
    }

    @Test func aTruckOnTheStreetThroughABarrierIsWarnedThere() throws {
        let folder = temporaryDirectory()
        let fences = try RoadMatchingReplayTests.imported(in: folder, osm: Self.osm)
        let events = try RoadMatchingReplayTests.replay(
            RoadMatchingReplayTests.capture([(-290, 298.25), (290, 298.25)], speed: 10), fences: fences, in: folder,
            Self.truck)
        let enters = events.filter { $0["type"] as? String == "enter" }.compactMap(RoadMatchingReplayTests.fence)
        #expect(enters.first == "osm:way/900", "\(events)")
        let barrier = try #require(
            events.first { $0["type"] as? String == "enter" && RoadMatchingReplayTests.fence($0) == "osm:node/90" },
            "\(events)")
        #expect(barrier["too_low"] as? Bool == true)
    }
}
