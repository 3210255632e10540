import Foundation
import Testing

/// Ctrl-C and SIGTERM while `replay` waits for its deliveries to a webhook that refuses: the wait
/// ends at once, the exit status is the shell's for the signal, and the undelivered events are
/// said and stay in the state file for the next run.
@Suite struct ReplayInterruptTests {
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalEndsTheWaitForDeliveries(signal: Int32, status: Int32) throws {
        let state = temporaryDirectory().appendingPathComponent("state.sqlite").path
        // Port 9 (discard) on loopback refuses: nothing can be delivered, and the replay would
        // wait its 30 s of --drain-timeout. Paced, so that each line is written as it happens.
        let replay = try BackgroundGPSFence([
            "replay", "captures/gym/capture.nmea", "--fences", "captures/gym/fences.geojson",
            "--webhook", "http://127.0.0.1:9/events", "--json", "--state", state, "--speed", "1000",
        ])
        let output = LineCollector(replay.output.fileHandleForReading)
        // The capture's last event is its visit: once it is out, the reading is over and the
        // replay waits for the webhook.
        #expect(output.wait(timeout: 20) { $0.contains { $0.contains(#""type":"visit""#) } }, "\(output.all)")
        // Nothing happens: the replay does not end on its own while the deliveries wait.
        Thread.sleep(forTimeInterval: 1)
        #expect(replay.process.isRunning, "still waiting for the deliveries")
        let signalled = Date()
        replay.signal(signal)
        let result = replay.finish(timeout: 10)
        output.finish()
        #expect(Date().timeIntervalSince(signalled) < 5, "the wait ended at the signal")
        #expect(result.status == status, "\(result.stderr)")
        let said = try #require(
            result.stderr.split(separator: "\n").first { $0.contains("stopped while waiting for deliveries") },
            "\(result.stderr)")
        // "http://127.0.0.1:9/events: 8 events not delivered; they are kept in STATE; ..."
        let count = said.range(of: " events not delivered").flatMap {
            Int(said[..<$0.lowerBound].split(separator: " ").last ?? "")
        }
        let fenceEvents = output.all.filter { !$0.contains(#""type":"error""#) }.count
        #expect((count ?? 0) >= fenceEvents, "\(said); \(fenceEvents) events besides errors printed")
        #expect(said.contains("kept in \(state)"), "\(said)")
        let status = try runGPSFence(["status", "--state", state, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        let outbox = try #require(object?["outbox"] as? [[String: Any]], "\(status.stdout)")
        #expect(outbox.first?["pending"] as? Int == count, "kept for the next run: \(status.stdout)")
    }
}
