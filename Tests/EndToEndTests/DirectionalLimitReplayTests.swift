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

    /// A school street with a 30 eastbound at school time only (`maxspeed:forward:conditional`)
    /// and a lorry limit of 40 westbound (`maxspeed:hgv:backward`), on a road of 50 both ways,
    /// imported with `--speed-limits --truck-restrictions` and replayed on a Tuesday at 10:00 UTC.
    /// The school time is read in the user's zone (`--timezone`): at 10:00 in UTC it holds, at
    /// 02:00 in Los Angeles it does not.
    static let schoolStreet = RoadMatchingReplayTests.osmFile(
        nodes: [(1, -600, 0), (2, 0, 0), (3, 600, 0)],
        ways: [
            (
                800, [1, 2, 3],
                [
                    "highway": "secondary", "maxspeed": "50",
                    "maxspeed:forward:conditional": "30 @ (Mo-Fr 07:00-19:00)", "maxspeed:hgv:backward": "40",
                    "name": "School Street",
                ]
            )
        ])

    @Test func oneWayConditionalAndLorryLimitsHoldTheirWayOnly() throws {
        let folder = temporaryDirectory()
        let source = folder.appendingPathComponent("school.osm")
        try Self.schoolStreet.write(to: source, atomically: true, encoding: .utf8)
        let fences = folder.appendingPathComponent("school.geojson").path
        let imported = try runGPSFence([
            "fences", "import", source.path, "--speed-limits", "--truck-restrictions", "--output", fences,
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        let written = try String(contentsOfFile: fences, encoding: .utf8)
        #expect(written.contains(#""maxspeed:forward:conditional":"30 @ (Mo-Fr 07:00-19:00)""#), "\(written)")
        #expect(written.contains(#""maxspeed:hgv:backward":40"#), "\(written)")

        func limits(eastbound: Bool, kmh: Double, zone: String, lorry: Bool = false) throws -> [Double] {
            let path = eastbound ? [(-590.0, -1.75), (590.0, -1.75)] : [(590.0, 1.75), (-590.0, 1.75)]
            let events = try RoadMatchingReplayTests.replay(
                RoadMatchingReplayTests.capture(path, speed: kmh / 3.6), fences: fences, in: folder,
                ["--timezone", zone] + (lorry ? ["--hgv"] : []))
            return events.filter { $0["type"] as? String == "speeding" }.map {
                (($0["limit"] as? Double ?? 0) * 3.6).rounded()
            }
        }
        #expect(try limits(eastbound: true, kmh: 40, zone: "UTC") == [30], "eastbound at school time")
        #expect(try limits(eastbound: false, kmh: 45, zone: "UTC").isEmpty, "westbound keeps its 50")
        #expect(try limits(eastbound: true, kmh: 45, zone: "America/Los_Angeles").isEmpty, "02:00 there")
        #expect(try limits(eastbound: false, kmh: 45, zone: "UTC", lorry: true) == [40], "a lorry westbound")
        #expect(try limits(eastbound: true, kmh: 45, zone: "America/Los_Angeles", lorry: true).isEmpty)
        #expect(try limits(eastbound: true, kmh: 40, zone: "UTC", lorry: true) == [30])
    }
}
