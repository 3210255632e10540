import Events
import Fences
import Foundation
import NMEA
import Presentation
import Store
import Testing

@testable import Views

/// `status --watch`'s recent events say a speeding as the speed in the zone it broke: 13.8 m/s
/// (49.68 km/h) over a limit of 13.7 m/s (49.32 km/h) is `50 km/h in a 49 zone` (to the nearest
/// both would read 50), and `31 mph in a 30 zone` for a limit of 30 mph.
@Suite struct WatchSpeedingTests {
    static func recentLine(speed: Double, limit: Double, units: MeasurementUnits) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gpsfence-watch-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("state.sqlite").path
        let fences = try FenceSet.parse(
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"road","geometry":{"type":"Point","#
                + #""coordinates":[8,47]},"properties":{"radius":50,"name":"Main street","speed_limit":13.7}}]}"#)
        let time = UTCTime(millisecondsSinceEpoch: 1_780_000_000_000)
        let event = GeofenceEvent(
            .speeding(GeofenceEvent.Speeding(fence: 0, speed: speed, limit: limit)), time: time,
            location: GeofenceEvent.Location(latitude: 47, longitude: 8, accuracy: 4, speed: speed, track: 90))
        let store = try StateStore(path: path)
        _ = try store.commit(events: [OutgoingEvent(event, fences: fences)], insideStates: [], fences: fences)
        let frame = try WatchReader(statePath: path).frame(now: time.millisecondsSinceEpoch + 1000)
        let text = WatchView.text(frame, interval: 1, color: false, format: HumanFormat(units: units))
        return try #require(text.split(separator: "\n").map(String.init).first { $0.contains("speeding") })
    }

    @Test func theSpeedIsShownInTheZoneItBroke() throws {
        let metric = try Self.recentLine(speed: 13.8, limit: 13.7, units: .metric)
        #expect(metric.hasSuffix("Main street [road]  50 km/h in a 49 zone"), "\(metric)")
        let imperial = try Self.recentLine(speed: 13.8, limit: 30 * 0.44704, units: .imperial)
        #expect(imperial.hasSuffix("Main street [road]  31 mph in a 30 zone"), "\(imperial)")
    }
}
