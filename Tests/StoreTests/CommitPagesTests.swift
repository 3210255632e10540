import Foundation
import GRDB
import NMEA
import Testing

@testable import Events
@testable import Fences
@testable import Store

/// How many bytes an event's commit writes to the WAL (docs/performance.md, "Live cost"): each page
/// it touches is written whole, with a 24-byte header, and reaches the SD card with the event's
/// sync. Counted from the WAL file's growth over a run through 40 fences with a webhook target,
/// after a warm-up through 10 others.
@Suite struct CommitPagesTests {
    /// 50 circles of 30 m, 200 m apart along a line east.
    static var fencesText: String {
        let features = (0..<50).map { index -> String in
            let point = Geodesy.destination(lat: 47.3769, lon: 8.5417, bearing: 90, distance: Double(index) * 200)
            return
                #"{"type":"Feature","id":"f\#(index)","geometry":{"type":"Point","coordinates":[\#(point.lon),\#(point.lat)]},"properties":{"name":"Fence \#(index)","radius":30}}"#
        }
        return #"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#
    }

    func fix(_ second: Int64, east: Double) -> Fix {
        let point = Geodesy.destination(lat: 47.3769, lon: 8.5417, bearing: 90, distance: east)
        return Fix(
            time: UTCTime(millisecondsSinceEpoch: 1_770_113_700_000 + second * 1000),
            timeOfDay: TimeOfDay(milliseconds: 0), latitude: point.lat, longitude: point.lon, mode: .threeD,
            accuracy: 4)
    }

    @Test func anEventsCommitWritesFewPages() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gpsfence-pages-\(UUID().uuidString).sqlite"
        ).path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try StateStore(path: path)
        let fences = try FenceSet.parse(Self.fencesText)
        let engine = EventEngine(fences: fences)
        // As in a live run, whose checkpoints are hourly: the WAL only grows here.
        try store.database.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        let frame = Double(try store.database.read { try Int.fetchOne($0, sql: "PRAGMA page_size") ?? 0 } + 24)
        func walBytes() throws -> Double {
            Double((try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber)?.intValue ?? 0)
        }
        var frames: [GeofenceEvent.Kind: [Double]] = [:]
        var second: Int64 = 0
        for index in 0..<50 {
            // In the fence for over a minute (an enter, a dwell), then between it and the next one:
            // an exit (once confirmed by the fixes outside) and its visit.
            let inside = Double(index) * 200
            for (step, east) in [
                (10, inside), (70, inside), (10, inside + 100), (10, inside + 100), (10, inside + 100),
            ] {
                second += Int64(step)
                var events: [OutgoingEvent] = []
                engine.process(fix(second, east: east)) { events.append(OutgoingEvent($0, fences: fences)) }
                let before = try walBytes()
                try store.commit(
                    events: events, insideStates: engine.snapshot(), fences: fences,
                    outboxTargets: ["http://127.0.0.1:1/hook"])
                let kinds = Set(events.map(\.event.kind))
                if index >= 10, kinds == [.enter] || kinds == [.exit, .visit] {
                    frames[kinds.contains(.enter) ? .enter : .exit, default: []].append(
                        (try walBytes() - before) / frame)
                }
            }
        }
        let enters = try #require(frames[.enter])
        let exits = try #require(frames[.exit])
        #expect(enters.count == 40 && exits.count == 40)
        let enter = enters.reduce(0, +) / Double(enters.count) * frame
        let exit = exits.reduce(0, +) / Double(exits.count) * frame
        // Bytes the WAL grows by, the pages the tables grow by included. With 1 KB pages: 5,947 and
        // 12,157; 512-byte pages: 4,703 and 7,558. Before migration `leaner-indexes` (1 KB pages):
        // 7.25 and 18.5 pages of 1,048 bytes.
        #expect(enter <= 5000, "\(enter) bytes, \(enters) frames")
        #expect(exit <= 8200, "\(exit) bytes, \(exits) frames")
    }
}
