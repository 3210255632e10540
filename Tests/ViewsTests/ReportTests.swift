import Events
import Fences
import Foundation
import NMEA
import Store
import Testing

@testable import Views

/// The report's pieces that are not about the browser: the simplifier, escaping, stretches.
@Suite struct ReportTests {
    @Test func eventTimesParseBack() {
        let time = UTCTime(millisecondsSinceEpoch: 1_770_113_736_123)
        #expect(UTCTime(iso: time.description) == time)
    }

    /// A straight line keeps its ends; a zigzag taller than the tolerance keeps every corner; one
    /// lower than it is flattened.
    @Test func simplifierKeepsWhatIsVisible() {
        let xs = (0..<1000).map(Double.init)
        #expect(TrackSimplifier.keep(xs, Array(repeating: 5, count: 1000), tolerance: 0.5) == [0, 999])
        let tall = (0..<101).map { $0 % 2 == 0 ? 0.0 : 2.0 }
        #expect(TrackSimplifier.keep(Array(xs[0...100]), tall, tolerance: 0.5).count == 101)
        let low = (0..<101).map { $0 % 2 == 0 ? 0.0 : 0.4 }
        #expect(TrackSimplifier.keep(Array(xs[0...100]), low, tolerance: 0.5) == [0, 100])
    }

    /// A fence name with markup and properties with a URL: the page shows the name as text and
    /// carries no address a browser would follow.
    @Test func fenceTextIsEscapedAndCarriesNoAddress() throws {
        let fences = try FenceSet.parse(
            """
            {"type":"FeatureCollection","features":[{"type":"Feature","id":"x","geometry":{"type":"Point","coordinates":[8.0,47.0]},
             "properties":{"name":"<img src=x onerror=alert(1)></script>","radius":30,"link":"https://example.com/a"}}]}
            """)
        let time = UTCTime(millisecondsSinceEpoch: 1_770_113_736_000)
        let event = GeofenceEvent(
            .enter(GeofenceEvent.Enter(fence: 0, initial: false)), time: time,
            location: GeofenceEvent.Location(latitude: 47, longitude: 8))
        let line = OutgoingEvent(event, fences: fences).json
        #expect(line.contains("https://example.com/a"), "the event itself carries the properties")
        let parsed = ReportEvent(try #require(EventRecord(json: line)), fences: FenceLookup(fences))
        #expect(parsed.fence == 0 && parsed.fenceID == "x" && parsed.type == "enter")
        let report = FieldReport(
            title: "t", fences: fences,
            points: [TrackPoint(time: time.millisecondsSinceEpoch, lat: 47, lon: 8, accuracy: 3)],
            events: [parsed], statistics: ReceiverStatistics(fixes: 1, usableFixes: 1), gapSeconds: 10)
        let page = ReportHTML.render(report)
        #expect(!page.contains("<img"))
        #expect(
            !page.contains("</script>\"") && page.components(separatedBy: "</script>").count == 3,
            "only the two script elements close")
        #expect(page.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(!page.contains("https://"))
        #expect(page.contains(#"data-event-id="\#(parsed.id)" data-event-type="enter" data-fence-id="x""#))
    }

    /// Stretches break where usable fixes pause longer than the gap time.
    @Test func stretchesBreakAtGaps() throws {
        let fences = try FenceSet.parse(#"{"type":"FeatureCollection","features":[]}"#)
        let times: [Int64] = [0, 1, 2, 3, 20, 21, 22, 40]
        let points = times.map { TrackPoint(time: $0 * 1000, lat: 47, lon: 8) }
        let report = FieldReport(
            title: "t", fences: fences, points: points, events: [],
            statistics: ReceiverStatistics(fixes: 8, usableFixes: 8),
            gapSeconds: 10)
        #expect(report.stretches.map(\.count) == [4, 3, 1])
        #expect(report.gaps.map { $0.from / 1000 } == [3, 22])
    }

    /// A jump the run went on from (a kilometre in a second) breaks the line without being a
    /// gap, and its way is not in the distance.
    @Test func stretchesBreakAtJumps() throws {
        let fences = try FenceSet.parse(#"{"type":"FeatureCollection","features":[]}"#)
        // 20 m a second east, then a kilometre on, then 20 m a second again.
        let east = [0.0, 20, 40, 60, 1060, 1080, 1100]
        let points = east.enumerated().map { second, metres in
            TrackPoint(
                time: Int64(second) * 1000, lat: 47, lon: 8 + metres / (111_195 * cos(47 * Double.pi / 180)),
                speed: 20, accuracy: 4)
        }
        let report = FieldReport(
            title: "t", fences: fences, points: points, events: [],
            statistics: ReceiverStatistics(fixes: 7, usableFixes: 7), gapSeconds: 10)
        #expect(report.stretches.map(\.count) == [4, 3])
        #expect(report.gaps.isEmpty)
        let driven = ReportHTML.pathLength(report)
        #expect(abs(driven - 100) < 2, "60 m + 40 m driven, not 1.1 km: \(driven)")
    }

    /// Every kind of event has a colour of its own rule in the page (class `ev-TYPE`, docs/report.md),
    /// so that no marker or chip is left in the neutral grey by accident; enter and exit differ.
    @Test func everyEventKindHasAColourRule() {
        func fill(_ kind: GeofenceEvent.Kind) -> Substring? {
            let selector = ".ev-\(kind.rawValue) circle"
            guard let rule = ReportHTML.css.split(separator: "\n").first(where: { $0.contains(selector) }),
                let start = rule.range(of: "fill:")?.upperBound
            else { return nil }
            return rule[start...].prefix { $0 != ";" && $0 != "}" }
        }
        for kind in GeofenceEvent.Kind.allCases {
            #expect(fill(kind)?.hasPrefix("#") == true, "\(kind.rawValue)")
        }
        #expect(fill(.enter) != fill(.exit))
    }

    /// The fence summary counts, per fence, the kinds docs/report.md lists, in its order.
    @Test func fenceSummaryHasAColumnPerCountedKind() throws {
        let fences = try FenceSet.parse(
            """
            {"type":"FeatureCollection","features":[{"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[8.0,47.0]},
             "properties":{"radius":30}}]}
            """)
        let lookup = FenceLookup(fences)
        // Inside for 1 s, then 3 s; a crossing between.
        let enter = GeofenceEvent.Payload.enter(GeofenceEvent.Enter(fence: 0, initial: false))
        let exit = GeofenceEvent.Payload.exit(GeofenceEvent.Exit(fence: 0))
        let script: [(GeofenceEvent.Payload, Int64)] = [
            (enter, 0), (exit, 1), (.cross(fence: 0), 2), (enter, 3), (exit, 6),
        ]
        let events = script.map { payload, second in
            let event = GeofenceEvent(
                payload, time: UTCTime(millisecondsSinceEpoch: 1_770_113_736_000 + second * 1000),
                location: GeofenceEvent.Location(latitude: 47, longitude: 8))
            return ReportEvent(EventRecord(OutgoingEvent(event, fences: fences), fences: fences), fences: lookup)
        }
        let report = FieldReport(
            title: "t", fences: fences, points: [], events: events,
            statistics: ReceiverStatistics(fixes: 0, usableFixes: 0), gapSeconds: 10)
        let summary = ReportHTML.fenceSummary(report)
        #expect(
            summary.contains(
                "<th>fence</th><th>visits</th><th>time inside</th><th>enter</th><th>exit</th><th>cross</th><th>approach</th><th>speeding</th>"
            ))
        #expect(summary.contains("<td>0</td><td>4 s</td><td>2</td><td>2</td><td>1</td><td>0</td><td>0</td></tr>"))
    }
}
