import Foundation
import NMEA
import Testing
import Waiting

@testable import Delivery
@testable import Events
@testable import Fences
@testable import Store

/// A real HTTP server process on 127.0.0.1 (Tests/Support/webhook_server.py).
final class WebhookServer {
    let log: URL
    private(set) var port = 0
    private var process: Process?

    init(log: URL) { self.log = log }

    func start(port requested: Int = 0) throws {
        (process, port) = try startSupportServer("webhook_server.py", [log.path, String(requested)])
    }

    /// Goes down hard, as a crashed server does (SIGKILL: children of a test process may inherit a
    /// blocked SIGTERM).
    func stop() {
        if let process, process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        process = nil
    }

    var received: [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    deinit { stop() }
}

@Suite struct WebhookDeliveryTests {
    static let fences = try! FenceSet.parse(
        """
        {"type":"FeatureCollection","features":[{"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[8.5,47.3]},"properties":{"radius":20}}]}
        """)

    func event(_ second: Int64) -> OutgoingEvent {
        OutgoingEvent(
            GeofenceEvent(
                .heartbeat(inside: []), time: UTCTime(millisecondsSinceEpoch: 1_770_113_700_000 + second * 1000)),
            fences: Self.fences)
    }

    @Test func deliversInOrderAndLosesNothingWhileTheEndpointIsDown() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gpsfence-webhook-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let server = WebhookServer(log: folder.appendingPathComponent("received.jsonl"))
        try server.start()
        #expect(server.port > 0)
        let endpoint = "http://127.0.0.1:\(server.port)/events"
        let store = try StateStore(path: folder.appendingPathComponent("state.sqlite").path)
        var policy = OutboxDelivery.Policy()
        policy.baseDelay = 0.05
        policy.maximumDelay = 0.2
        let reports = ReportLog()
        let notices = ReportLog()
        let delivery = OutboxDelivery(
            transport: try WebhookTransport(endpoint: endpoint), outbox: store, policy: policy, report: reports.add,
            notice: notices.add)
        delivery.start()
        defer { delivery.stop() }

        let first = (1...3).map { event($0) }
        try store.commit(events: first, insideStates: [], fences: Self.fences, outboxTargets: [endpoint])
        delivery.deliver(first[0], fences: Self.fences)
        #expect(delivery.drain(timeout: 10))
        #expect(server.received == first.map(\.json))

        // The endpoint goes down; events keep coming.
        server.stop()
        let second = (4...6).map { event($0) }
        try store.commit(events: second, insideStates: [], fences: Self.fences, outboxTargets: [endpoint])
        delivery.deliver(first[0], fences: Self.fences)
        waitUntil { (delivery.counters?.failedAttempts ?? 0) >= 2 }
        let whileDown = try #require(delivery.counters)
        #expect(whileDown.pending == 3)
        #expect(whileDown.failedAttempts >= 2, "it kept retrying")
        #expect(reports.all.contains { $0.contains("retrying with backoff") })

        // It comes back on the same port: everything arrives, in order, nothing lost.
        try server.start(port: server.port)
        #expect(delivery.drain(timeout: 10))
        #expect(server.received == (first + second).map(\.json))
        let after = try #require(delivery.counters)
        #expect(after.delivered == 6 && after.pending == 0)
        // The good news is a notice, not a problem report (which would become an `error` event).
        #expect(notices.all.contains { $0.contains("reachable again") })
        #expect(!reports.all.contains { $0.contains("reachable again") })
        server.stop()
    }

    @Test func backoffGrowsAndIsCapped() throws {
        let store = try StateStore(
            path: FileManager.default.temporaryDirectory.appendingPathComponent(
                "gpsfence-backoff-\(UUID().uuidString).sqlite"
            ).path)
        let delivery = OutboxDelivery(
            transport: try WebhookTransport(endpoint: "http://127.0.0.1:9/"), outbox: store, report: { _ in })
        for attempts in 1...12 {
            let delay = delivery.backoff(afterAttempts: attempts)
            let nominal = min(300, pow(2, Double(attempts - 1)))
            #expect(delay >= nominal / 2 && delay <= nominal, "attempt \(attempts): \(delay)")
        }
    }

    @Test func notAnHTTPURLIsRefused() throws {
        #expect(throws: WebhookError.self) { try WebhookTransport(endpoint: "ftp://example/x") }
    }
}

final class ReportLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.withLock { lines.append(line) } }
    func add(_ problem: Problem) { add(problem.text) }
    var all: [String] { lock.withLock { lines } }
}
