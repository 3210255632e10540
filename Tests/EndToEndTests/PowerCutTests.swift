import Foundation
import Testing
import Waiting

/// A live `run`, fed by `simulate` and posting to a real webhook receiver, with its state file on
/// the power-cut filesystem: killed with SIGKILL at random moments and the unsynced writes dropped
/// (the power cut), then restarted, over and over. What reached the webhook must never be taken
/// back by a cut (docs/running.md, "Power cuts").
@Suite(.serialized, .enabled(if: PowerCutFilesystem.unavailable == nil, "needs /dev/fuse (FUSE)"))
struct PowerCutTests {
    static let cuts = 20

    @Test func aPowerCutNeverTakesBackWhatTheWebhookReceived() throws {
        let folder = temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let filesystem = try PowerCutFilesystem()
        let (fences, link, simulator) = try RunReloadAndCrashTests.loopedPassThroughThreeFences(in: folder)
        // Also when a step throws: no simulator outlives the test.
        defer { if simulator.process.isRunning { simulator.signal(SIGKILL) } }
        let webhookLog = folder.appendingPathComponent("webhook.jsonl")
        let server = try BackgroundProcess([
            "python3", packageRoot.appendingPathComponent("Tests/Support/webhook_server.py").path, webhookLog.path,
        ])
        let port = server.readFirstLine()
        let state = filesystem.mountPoint.appendingPathComponent("state.sqlite").path
        func run() throws -> BackgroundGPSFence {
            try BackgroundGPSFence([
                "run", "--device", link, "--baud", "115200", "--fences", fences.path, "--state", state, "--json",
                "--webhook", "http://127.0.0.1:\(port)/events",
            ])
        }

        var generator = SystemRandomNumberGenerator()
        for cut in 1...Self.cuts {
            let running = try run()
            let output = LineCollector(running.output.fileHandleForReading)
            // Every other cut counts from the receiver's connection, so that some runs take fixes
            // however slowly a loaded machine starts them; the others from the start.
            if cut.isMultiple(of: 2) {
                #expect(output.wait { types($0).contains("device_connected") }, "cut \(cut): \(output.all)")
            }
            // A random point of the run after that, not a wait for a state.
            usleep(UInt32.random(in: 500_000...1_500_000, using: &generator))
            running.signal(SIGKILL)
            _ = running.finish()
            output.finish()
            try filesystem.cut()
            #expect(sqlite(state, "PRAGMA integrity_check") == "ok", "cut \(cut): the state file is damaged")
            let logged = Set(sqlite(state, "SELECT id FROM event").split(separator: "\n").map(String.init))
            for event in received(webhookLog) {
                let id = event["id"] as? String ?? "?"
                #expect(logged.contains(id), "cut \(cut): the webhook received \(id), the state lost it: \(event)")
            }
        }
        simulator.signal(SIGINT)
        _ = simulator.finish()

        let events = received(webhookLog)
        #expect(Set(events.compactMap { $0["type"] as? String }).contains("enter"), "the runs saw fences")
        // No enter twice for a fence without an exit in between (redeliveries of one id aside).
        var seen = Set<String>()
        var inside = Set<String>()
        for event in events {
            guard let id = event["id"] as? String, seen.insert(id).inserted,
                let fence = (event["fence"] as? [String: Any])?["id"] as? String
            else { continue }
            switch event["type"] as? String {
            case "enter":
                #expect(!inside.contains(fence), "second enter for \(fence): \(event)")
                inside.insert(fence)
            case "exit": inside.remove(fence)
            default: break
            }
        }
        // A last run, without a receiver, delivers what the outbox still holds.
        // The "delivered" marks wait in memory for the next write (docs/performance.md), so the
        // webhook's log says when delivery is done; the end of the run writes the marks.
        let last = try run()
        let lastOutput = LineCollector(last.output.fileHandleForReading)
        // Its own events join the outbox as it starts (its receiver is gone: an error event), so
        // the outbox is read again until every row of it reached the webhook.
        _ = lastOutput.wait(timeout: 10) { lines in lines.contains { $0.contains(#""type":"error""#) } }
        var outbox = Set<String>()
        waitUntil(timeout: 20, every: 0.1) {
            outbox = Set(sqlite(state, "SELECT event_id FROM outbox").split(separator: "\n").map(String.init))
            return outbox.isSubset(of: Set(received(webhookLog).compactMap { $0["id"] as? String }))
        }
        last.signal(SIGINT)
        _ = last.finish()
        lastOutput.finish()
        #expect(sqlite(state, "SELECT count(*) FROM outbox WHERE delivered_at IS NULL") == "0")
        let delivered = Set(received(webhookLog).compactMap { $0["id"] as? String })
        #expect(outbox.isSubset(of: delivered), "outbox rows never delivered: \(outbox.subtracting(delivered))")
        server.kill()
    }

    /// A power cut while the first run makes its state file leaves no half-made file behind (an
    /// SQLite database without gpsfence's tables, which every later run would refuse): the file is
    /// there whole or not at all, and the next run starts on it.
    @Test func aPowerCutWhileTheStateFileIsMadeLeavesNoHalfFile() throws {
        let folder = temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let filesystem = try PowerCutFilesystem()
        let fences = folder.appendingPathComponent("fences.geojson")
        try RunReloadAndCrashTests().fenceFile(["a"]).write(to: fences, atomically: true, encoding: .utf8)
        let state = filesystem.mountPoint.appendingPathComponent("state.sqlite").path
        // No receiver: the run makes its state file and waits for one.
        let arguments = [
            "run", "--device", folder.appendingPathComponent("no-such-gps").path, "--fences", fences.path,
            "--state", state, "--json",
        ]
        let first = try BackgroundGPSFence(arguments)
        // The kill as soon as an SQLite write-ahead log is there (beside the file being made, or
        // beside the state file): the moment its making is under way.
        #expect(
            waitUntil(timeout: 30, every: 0.001) {
                [state + ".new-wal", state + "-wal"].contains { FileManager.default.fileExists(atPath: $0) }
            })
        first.signal(SIGKILL)
        _ = first.finish()
        try filesystem.cut()
        if FileManager.default.fileExists(atPath: state) {
            #expect(
                sqlite(state, "SELECT count(*) FROM sqlite_master WHERE name = 'fence_state'") == "1",
                "the cut left a state file without gpsfence's tables")
        }
        let second = try BackgroundGPSFence(arguments)
        let again = LineCollector(second.output.fileHandleForReading)
        #expect(again.wait(timeout: 30) { types($0).contains("registered") }, "\(again.all)")
        second.signal(SIGTERM)
        let ended = second.finish()
        again.finish()
        #expect(ended.status == 0, "\(ended.stderr)")
    }

    /// An alarm that the webhook heard of survives a power cut: the state file still holds it,
    /// unanswered, with its event, and the run started again says it at once.
    @Test func anAlarmThatWentOutSurvivesAPowerCut() throws {
        let folder = temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let filesystem = try PowerCutFilesystem()
        let webhookLog = folder.appendingPathComponent("webhook.jsonl")
        let server = try BackgroundProcess([
            "python3", packageRoot.appendingPathComponent("Tests/Support/webhook_server.py").path, webhookLog.path,
        ])
        defer { server.kill() }
        let port = server.readFirstLine()
        let state = filesystem.mountPoint.appendingPathComponent("state.sqlite").path
        let (simulator, arguments) = try AlarmTests.boat(
            folder, extra: ["--webhook", "http://127.0.0.1:\(port)/events"], state: state)
        defer { simulator.signal(SIGTERM) }
        let first = try BackgroundGPSFence(Array(arguments.dropFirst()))
        waitUntil(timeout: 60, every: 0.05) { received(webhookLog).contains { $0["type"] as? String == "alarm" } }
        first.signal(SIGKILL)
        _ = first.finish()
        try filesystem.cut()
        let alarm = try #require(received(webhookLog).first { $0["type"] as? String == "alarm" }, "no alarm went out")
        let id = try #require(alarm["id"] as? String)
        #expect(sqlite(state, "SELECT count(*) FROM event WHERE id = '\(id)'") == "1", "the cut took back \(id)")
        #expect(sqlite(state, "SELECT unanswered FROM alarm") == "1", "the cut took back the alarm")

        let second = try BackgroundGPSFence(Array(arguments.dropFirst()))
        let output = LineCollector(second.output.fileHandleForReading)
        #expect(output.wait(timeout: 20) { types($0).contains("alarm") }, "\(output.all)")
        second.signal(SIGTERM)
        _ = second.finish()
        output.finish()
        let again = try #require(output.all.compactMap { jsonObject($0) }.first { $0["type"] as? String == "alarm" })
        #expect(
            (again["cause"] as? [String: Any])?["id"] as? String == (alarm["cause"] as? [String: Any])?["id"] as? String
        )
    }

    /// The webhook's events in the order received (one JSON body a line).
    func received(_ log: URL) -> [[String: Any]] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }
}
