import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// docs/running.md: every alert works on `replay` as on `run`, through the same engine loop. A replay of
/// the bridge drive goes to a real hook (a child process per event) and a real HTTP endpoint on
/// 127.0.0.1; at `--speed max` the webhook has every event, in order, when the process exits.
@Suite struct ReplayAlertsTests {
    @Test func aReplayFeedsHooksAndWebhooksLikeARun() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gpsfence-replay-alerts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let hookLog = folder.appendingPathComponent("hook.log")
        let hook = folder.appendingPathComponent("hook.py")
        try """
        #!/usr/bin/env python3
        import json, os, sys
        event = json.load(sys.stdin)
        with open(\(String(reflecting: hookLog.path)), "a") as log:
            log.write(event["id"] + " " + os.environ["GPSFENCE_EVENT"] + "\\n")
        """.write(to: hook, atomically: true, encoding: .utf8)
        chmod(hook.path, 0o755)

        let webhookLog = folder.appendingPathComponent("webhook.jsonl")
        let server = try BackgroundProcess([
            "python3", packageRoot.appendingPathComponent("Tests/Support/webhook_server.py").path, webhookLog.path,
        ])
        defer { server.kill() }
        let port = server.readFirstLine()

        let result = try runGPSFence([
            "replay", "captures/bridge/capture.nmea", "--fences", "captures/bridge/fences.geojson", "--json",
            "--exec", hook.path, "--webhook", "http://127.0.0.1:\(port)/events",
        ])
        #expect(result.status == 0, "\(result.stderr)")

        let printed = result.stdout.split(separator: "\n").map(String.init)
        let printedEvents = try printed.map { try eventFields(of: $0) }
        // The scenario's events, derived by arithmetic in scripts/make_scenarios.py.
        let expected = try String(
            contentsOf: packageRoot.appendingPathComponent("captures/bridge/expected.jsonl"), encoding: .utf8
        )
        .split(separator: "\n").map { try eventFields(of: String($0)).type }
        #expect(printedEvents.map(\.type) == expected)

        // The webhook got every printed event, in the printed order, before the process exited.
        let posted = try ((try? String(contentsOf: webhookLog, encoding: .utf8)) ?? "").split(separator: "\n")
            .map { try eventFields(of: String($0)).id }
        #expect(posted == printedEvents.map(\.id))

        // Every event ran the hook once, with the event on stdin and its type in the environment.
        let hookLines = ((try? String(contentsOf: hookLog, encoding: .utf8)) ?? "").split(separator: "\n")
        let ran = Set(hookLines.map { String($0) })
        #expect(ran == Set(printedEvents.map { "\($0.id) \($0.type)" }))
        #expect(hookLines.count == printedEvents.count)
    }

    /// Port 9 (discard) on loopback refuses, so nothing can be delivered: with a state file the
    /// events stay queued there and the replay says so; without one they would be lost with the
    /// temporary outbox, so the replay fails (exit 1) and says how many. Either way the reason is
    /// an `error` event among the others, even when the replay ends before the first attempt
    /// fails (the report then comes from the drain at the end).
    @Test func whatCannotBeDeliveredIsKeptOrReported() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gpsfence-replay-drain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = folder.appendingPathComponent("state.sqlite").path
        let common = [
            "replay", "captures/bridge/capture.nmea", "--fences", "captures/bridge/fences.geojson",
            "--webhook", "http://127.0.0.1:9/events", "--drain-timeout", "1", "--json",
        ]
        func errors(_ stdout: String) throws -> [String] {
            try stdout.split(separator: "\n").compactMap { line in
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                return object["type"] as? String == "error" ? object["message"] as? String : nil
            }
        }
        let kept = try runGPSFence(common + ["--state", state])
        #expect(kept.status == 0, "\(kept.stderr)")
        let printed = kept.stdout.split(separator: "\n").count
        #expect(kept.stderr.contains("\(printed) events remain queued in \(state)"), "\(kept.stderr)")
        let keptErrors = try errors(kept.stdout)
        #expect(keptErrors.count == 1 && keptErrors.allSatisfy { $0.contains("127.0.0.1:9") }, "\(keptErrors)")

        let lost = try runGPSFence(common)
        #expect(lost.status == 1)
        #expect(lost.stderr.contains("\(lost.stdout.split(separator: "\n").count) events were not delivered"))
        #expect(lost.stderr.contains("--state"))
        #expect(try errors(lost.stdout).count == 1)
    }

    /// A replay without `--state` keeps its outbox in a folder of its own under `$TMPDIR`. It used
    /// to be `$TMPDIR/gpsfence-replay-PID.sqlite`, and a replay killed earlier leaves that file
    /// behind: the next replay that got the same pid refused it as "not a gpsfence state file"
    /// and did not start. Here the shell puts such a file (another program's database) at the
    /// name of the pid it then runs the replay with (`exec` keeps the pid; the arguments reach it
    /// as "$@", the shell sees no data).
    @Test func whatAKilledReplayLeftInTheTemporaryFolderDoesNotStopTheNext() throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let decoy = folder.appendingPathComponent("decoy.sqlite").path
        let made = try runProcess(
            "/usr/bin/python3",
            ["-c", "import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute('CREATE TABLE t (x)')", decoy])
        #expect(made == 0)
        let decoyBytes = try Data(contentsOf: URL(fileURLWithPath: decoy))

        let webhookLog = folder.appendingPathComponent("webhook.jsonl")
        let server = try BackgroundProcess([
            "python3", packageRoot.appendingPathComponent("Tests/Support/webhook_server.py").path, webhookLog.path,
        ])
        defer { server.kill() }
        let port = server.readFirstLine()

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", #"cp "$0" "$TMPDIR/gpsfence-replay-$$.sqlite" && exec "$@""#, decoy, gpsfenceBinary().path,
            "replay", "captures/bridge/capture.nmea", "--fences", "captures/bridge/fences.geojson", "--json",
            "--webhook", "http://127.0.0.1:\(port)/events",
        ]
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": folder.path]) { $1 }
        process.currentDirectoryURL = packageRoot
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let leftover = folder.appendingPathComponent("gpsfence-replay-\(process.processIdentifier).sqlite")

        #expect(process.terminationStatus == 0, "\(stderr)")
        let printed = try String(decoding: stdout, as: UTF8.self).split(separator: "\n").map {
            try eventFields(of: String($0)).id
        }
        let posted = try ((try? String(contentsOf: webhookLog, encoding: .utf8)) ?? "").split(separator: "\n")
            .map { try eventFields(of: String($0)).id }
        #expect(!printed.isEmpty && posted == printed)
        // The file it found was not its own: left as it was. Its own folder is gone.
        #expect(try Data(contentsOf: leftover) == decoyBytes)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == ["decoy.sqlite", leftover.lastPathComponent, "webhook.jsonl"].sorted(), "\(names)")
    }

    func runProcess(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    struct EventFields {
        var id: String
        var type: String
    }

    func eventFields(of line: String) throws -> EventFields {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return EventFields(id: object["id"] as? String ?? "", type: try #require(object["type"] as? String))
    }
}
