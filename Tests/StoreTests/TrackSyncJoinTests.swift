import Foundation
import NMEA
import Testing

@testable import Delivery
@testable import Store

/// The track sync's thread is joined when it stops: a batch in flight at the stop is answered,
/// acknowledged and written to the state file before `stop` returns, and nothing is sent after.
/// Real parts: a state file, the sender's thread, and Tests/Support/sync_server.py on 127.0.0.1.
@Suite struct TrackSyncJoinTests {
    @Test func stopWaitsForTheBatchInFlightAndWritesItsCursor() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gpsfence-join-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try StateStore(path: folder.appendingPathComponent("state.sqlite").path)
        let recorder = TrackRecorder(store: store, settings: TrackRecorder.Settings())
        let start: Int64 = 1_770_113_700_000
        for second in 0..<6 {
            try recorder.record(
                Fix(
                    time: UTCTime(millisecondsSinceEpoch: start + Int64(second) * 1000),
                    timeOfDay: TimeOfDay(milliseconds: 0), latitude: 47, longitude: 8 + Double(second) * 1e-4,
                    mode: .threeD, accuracy: 4))
        }
        try recorder.flush()

        // Each request is logged as it arrives and answered a second later.
        let log = folder.appendingPathComponent("requests.jsonl")
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Support/sync_server.py")
        server.arguments = ["python3", script.path, log.path, "--delay", "1"]
        let output = Pipe()
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        try server.run()
        // SIGKILL: the test process blocks the signals a run handles, and its children inherit that.
        defer {
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        var firstLine = Data()
        while !firstLine.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            firstLine.append(chunk)
        }
        let port = try #require(String(decoding: firstLine, as: UTF8.self).split(separator: "\n").first)

        var configuration = try TrackSyncConfiguration(target: "http://127.0.0.1:\(port)/track", device: "join")
        configuration.batch = 2
        let sender = try TrackSyncSender(configuration: configuration, store: store) { _ in }
        func requests() -> [String] {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        sender.start()
        let deadline = Date().addingTimeInterval(60)
        while requests().isEmpty, Date() < deadline { usleep(10_000) }
        #expect(requests().count == 1, "the first batch is on its way")

        sender.stop(drainUntil: nil)
        #expect(!sender.isRunning)
        // The first batch (points 0 and 1) was answered during the stop: acknowledged and written.
        let cursor = try store.syncCursors().first?.ackedTime
        #expect(cursor == start + 1000, "cursor \(String(describing: cursor))")
        // Nothing is sent once `stop` has returned.
        Thread.sleep(forTimeInterval: 2)
        #expect(requests().count == 1, "\(requests())")
    }
}
