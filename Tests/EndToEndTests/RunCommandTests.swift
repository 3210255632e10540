import Foundation
import Synchronization
import Testing

/// Collects a pipe's lines on a background thread while the process runs.
final class LineCollector: @unchecked Sendable {
    private let lines = Mutex<[String]>([])
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread { [self] in
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let end = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[pending.startIndex..<end], as: UTF8.self)
                    lines.withLock { $0.append(line) }
                    pending = Data(pending[(end + 1)...])
                }
            }
            done.signal()
        }.start()
    }

    var all: [String] { lines.withLock { $0 } }

    func wait(timeout: Double = 30, until condition: ([String]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(all) { return true }
            usleep(20_000)
        }
        return condition(all)
    }

    func finish() { _ = done.wait(timeout: .now() + 10) }
}

func types(_ lines: [String]) -> [String] {
    lines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["type"] as? String }
}

/// The whole live path on real pseudo-terminals with the real binary (SPEC §9, issue "live run"):
/// a simulated receiver -> `gpsfence run` -> a hook (a real child process) and a webhook (a real
/// HTTP server on 127.0.0.1); the receiver goes away and comes back.
@Suite(.serialized) struct RunCommandTests {
    static let centre = (lat: 47.0, lon: 8.0)

    func writeFiles(_ folder: URL) throws -> (fences: String, route: String) {
        let fences = folder.appendingPathComponent("fences.geojson")
        try """
            {"type":"FeatureCollection","features":[{"type":"Feature","id":"yard","geometry":{"type":"Point",
             "coordinates":[\(Self.centre.lon),\(Self.centre.lat)]},"properties":{"name":"Yard","radius":30}}]}
            """.write(to: fences, atomically: true, encoding: .utf8)
        // West to east through the fence, 400 m: at 100 m/s and 5 Hz a fix every 20 m.
        let degrees = 200 / (6_371_008.8 * .pi / 180 * cos(Self.centre.lat * .pi / 180))
        let route = folder.appendingPathComponent("route.geojson")
        try """
            {"type":"Feature","geometry":{"type":"LineString","coordinates":[[\(Self.centre.lon - degrees),\(Self.centre.lat)],[\(Self.centre.lon + degrees),\(Self.centre.lat)]]},"properties":{}}
            """.write(to: route, atomically: true, encoding: .utf8)
        return (fences.path, route.path)
    }

    @Test func simulatorToRunToHookAndWebhookAcrossAnUnplug() throws {
        let folder = temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (fences, route) = try writeFiles(folder)
        let link = folder.appendingPathComponent("gps0").path
        let hookLog = folder.appendingPathComponent("hook.log").path
        let hook = folder.appendingPathComponent("hook.sh")
        try "#!/bin/sh\necho \"$GPSFENCE_EVENT $GPSFENCE_FENCE_ID\" >> '\(hookLog)'\n".write(to: hook, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hook.path)

        let webhookLog = folder.appendingPathComponent("webhook.jsonl")
        let server = try BackgroundProcess(["python3", packageRoot.appendingPathComponent("Tests/Support/webhook_server.py").path, webhookLog.path])
        let port = server.readFirstLine()
        #expect(Int(port) != nil)

        func simulator(start: String) throws -> BackgroundGPSFence {
            let simulator = try BackgroundGPSFence([
                "simulate", route, "--baud", "38400", "--rate", "5", "--speed", "100", "--link", link, "--start", start,
            ])
            _ = simulator.readFirstLine()
            return simulator
        }

        let first = try simulator(start: "2026-02-03T10:15:00Z")
        let run = try BackgroundGPSFence([
            "run", "--device", link, "--baud", "38400", "--fences", fences, "--state", folder.appendingPathComponent("state.sqlite").path,
            "--json", "--exec", hook.path, "--webhook", "http://127.0.0.1:\(port)/events",
        ])
        let output = LineCollector(run.output.fileHandleForReading)
        #expect(output.wait { types($0).contains("exit") }, "first pass: \(output.all)")
        let firstPass = first.finish()
        #expect(firstPass.status == 0, "\(firstPass.stderr)")
        #expect(output.wait { types($0).contains("device_lost") }, "unplug: \(output.all)")

        // The receiver comes back at the same path, later.
        let second = try simulator(start: "2026-02-03T10:20:00Z")
        #expect(output.wait { types($0).filter { $0 == "exit" }.count == 2 }, "second pass: \(output.all)")
        _ = second.finish()

        run.signal(SIGINT)
        let stopped = run.finish()
        output.finish()
        #expect(stopped.status == 0, "\(stopped.stderr)")

        let events = types(output.all)
        let fenceEvents = events.filter { ["enter", "exit"].contains($0) }
        #expect(fenceEvents == ["enter", "exit", "enter", "exit"])
        #expect(events.first == "registered")
        #expect(events.filter { $0 == "device_connected" }.count == 2)
        #expect(events.filter { $0 == "device_lost" }.count >= 1)
        let lostIndex = try #require(events.firstIndex(of: "device_lost"))
        #expect(events[..<lostIndex].filter { $0 == "exit" }.count == 1, "lost after the first pass")

        // The hook ran once per event, with the fence id in its environment.
        #expect(output.wait(timeout: 5) { _ in ((try? String(contentsOfFile: hookLog, encoding: .utf8)) ?? "").split(separator: "\n").count == events.count })
        let hookLines = try String(contentsOfFile: hookLog, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(hookLines.filter { $0 == "enter yard" }.count == 2)
        #expect(Set(hookLines.map { String($0.split(separator: " ")[0]) }) == Set(events))

        // The webhook received every event, in order, by id.
        let ids = output.all.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["id"] as? String }
        let received = ((try? String(contentsOf: webhookLog, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["id"] as? String
        }
        #expect(received == ids)
        server.kill()
    }
}

/// Any background process (the webhook server).
final class BackgroundProcess {
    let process = Process()
    let output = Pipe()

    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = output
        try process.run()
    }

    func readFirstLine() -> String {
        var bytes = Data()
        while !bytes.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            bytes.append(chunk)
        }
        return String(decoding: bytes.prefix { $0 != 0x0A }, as: UTF8.self)
    }

    func kill() {
        if process.isRunning {
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit { kill() }
}
