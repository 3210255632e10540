import Foundation
import Testing

/// A road whose two ways have their own limits, through the real binary: `fences import
/// --speed-limits` of an OSM file written here (a two-way street drawn west to east, 70 km/h
/// eastbound, `maxspeed:forward`, and 50 westbound, `maxspeed:backward`), then `replay` of NMEA
/// written here at 10 fixes a second along the lane of each way. Each driver is held to the limit
/// of the way driven: 90 % of it says nothing, 130 % of it is `speeding` with that limit.
@Suite struct DirectionalLimitReplayTests {
    static let osm = RoadMatchingReplayTests.osmFile(
        nodes: [(1, -600, 0), (2, 0, 0), (3, 600, 0)],
        ways: [
            (
                700, [1, 2, 3],
                [
                    "highway": "primary", "maxspeed:forward": "70", "maxspeed:backward": "50",
                    "name": "Two Limit Road",
                ]
            )
        ])

    static func speeding(eastbound: Bool, kmh: Double, fences: String, in folder: URL) throws -> [[String: Any]] {
        // In the lane: 1.75 m right of the line (south eastbound, north westbound).
        let path = eastbound ? [(-590.0, -1.75), (590.0, -1.75)] : [(590.0, 1.75), (-590.0, 1.75)]
        let events = try RoadMatchingReplayTests.replay(
            RoadMatchingReplayTests.capture(path, speed: kmh / 3.6), fences: fences, in: folder, [])
        return events.filter { $0["type"] as? String == "speeding" }
    }

    @Test func eachWayIsHeldToItsOwnLimit() throws {
        let folder = temporaryDirectory()
        let fences = try RoadMatchingReplayTests.imported(in: folder, osm: Self.osm)
        let written = try String(contentsOfFile: fences, encoding: .utf8)
        #expect(written.contains(#""speed_limit_forward_kmh":70"#), "\(written)")
        #expect(written.contains(#""speed_limit_backward_kmh":50"#), "\(written)")
        #expect(!written.contains(#""speed_limit_kmh""#), "no limit for both ways: \(written)")

        let eastAtNinety = try Self.speeding(eastbound: true, kmh: 63, fences: fences, in: folder)
        #expect(eastAtNinety.isEmpty, "63 km/h eastbound, where 70 holds: \(eastAtNinety)")
        let westAtNinety = try Self.speeding(eastbound: false, kmh: 45, fences: fences, in: folder)
        #expect(westAtNinety.isEmpty, "\(westAtNinety)")

        for (eastbound, kmh, limit) in [(true, 91.0, 70.0), (false, 65.0, 50.0)] {
            let fast = try Self.speeding(eastbound: eastbound, kmh: kmh, fences: fences, in: folder)
            #expect(fast.count == 1, "\(kmh) km/h: \(fast)")
            #expect(fast.first.map(RoadMatchingReplayTests.fence) == "osm:way/700")
            #expect(abs((fast.first?["limit"] as? Double ?? 0) - limit / 3.6) < 0.001, "\(fast)")
        }
    }
}
