import Foundation
import Store
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `--webhook URL` (SPEC §7): delivers the events the runtime committed to the durable outbox,
/// one endpoint per `WebhookDelivery`, on its own thread.
///
/// - At least once: an event leaves the outbox only after a 2xx answer; a crash between the POST and
///   the bookkeeping sends it again, and the event `id` lets the receiver drop the copy.
/// - In order: only the oldest undelivered event is ever tried; later ones wait behind it.
/// - While the endpoint is down: exponential backoff with jitter (base doubling per attempt, capped),
///   and nothing is dropped however long it stays down.
public final class WebhookDelivery: @unchecked Sendable {
    public struct Policy: Sendable {
        public var baseDelay = 1.0
        public var maximumDelay = 300.0
        public var requestTimeout = 10.0
        public init() {}
    }

    public let endpoint: String
    private let url: URL
    private let store: StateStore
    private let policy: Policy
    private let report: @Sendable (String) -> Void
    private let wakeUp = DispatchSemaphore(value: 0)
    private let state = Mutex((running: true, idle: true))
    private let session: URLSession
    private var thread: Thread?

    public init(endpoint: String, store: StateStore, policy: Policy = Policy(), report: @escaping @Sendable (String) -> Void)
        throws(WebhookError)
    {
        guard let url = URL(string: endpoint), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host != nil
        else { throw WebhookError(message: "--webhook \(endpoint): not an http:// or https:// URL") }
        self.endpoint = endpoint
        self.url = url
        self.store = store
        self.policy = policy
        self.report = report
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = policy.requestTimeout
        session = URLSession(configuration: configuration)
    }

    public func start() {
        let thread = Thread { [self] in loop() }
        thread.name = "gpsfence webhook"
        self.thread = thread
        thread.start()
    }

    /// New events were committed: try now rather than at the next poll.
    public func notify() { wakeUp.signal() }

    /// Stops after the current attempt; undelivered events stay in the outbox for the next run.
    public func stop() {
        state.withLock { $0.running = false }
        wakeUp.signal()
        while thread?.isFinished == false { usleep(1000) }
    }

    /// Waits until nothing is pending (or `timeout` passes); for the end of a replay and for tests.
    @discardableResult
    public func drain(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if (try? store.outboxCounters(endpoint: endpoint).pending) == 0 { return true }
            wakeUp.signal()
            usleep(20_000)
        }
        return false
    }

    public var counters: OutboxCounters? { try? store.outboxCounters(endpoint: endpoint) }

    private var isRunning: Bool { state.withLock { $0.running } }

    private func loop() {
        var reportedDown = false
        while isRunning {
            guard let item = try? store.nextUndelivered(endpoint: endpoint) else {
                _ = wakeUp.wait(timeout: .now() + 1)
                continue
            }
            let now = Self.nowMilliseconds()
            if item.nextAttempt > now {
                _ = wakeUp.wait(timeout: .now() + Double(item.nextAttempt - now) / 1000)
                continue
            }
            switch post(item) {
            case .success:
                try? store.markDelivered(item, at: Self.nowMilliseconds())
                if reportedDown {
                    report("webhook \(endpoint) is reachable again")
                    reportedDown = false
                }
            case .failure(let problem):
                let delay = backoff(afterAttempts: item.attempts + 1)
                try? store.markFailed(item, error: problem, retryAt: Self.nowMilliseconds() + Int64(delay * 1000))
                if !reportedDown {
                    report("webhook \(endpoint): \(problem); retrying with backoff, nothing is dropped")
                    reportedDown = true
                }
            }
        }
    }

    enum Outcome { case success, failure(String) }

    private func post(_ item: OutboxItem) -> Outcome {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = Data(item.body.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(item.eventID, forHTTPHeaderField: "X-Gpsfence-Event-Id")
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Outcome>(.failure("no answer"))
        let task = session.dataTask(with: request) { _, response, error in
            let outcome: Outcome
            if let error {
                outcome = .failure(error.localizedDescription)
            } else if let status = (response as? HTTPURLResponse)?.statusCode {
                outcome = (200..<300).contains(status) ? .success : .failure("HTTP \(status)")
            } else {
                outcome = .failure("no HTTP answer")
            }
            result.withLock { $0 = outcome }
            done.signal()
        }
        task.resume()
        done.wait()
        return result.withLock { $0 }
    }

    /// Full jitter over the upper half: between d/2 and d, d = base x 2^(attempts-1), capped.
    func backoff(afterAttempts attempts: Int) -> Double {
        let exponent = min(attempts - 1, 30)
        let delay = min(policy.maximumDelay, policy.baseDelay * pow(2, Double(exponent)))
        return Double.random(in: delay / 2...delay)
    }

    static func nowMilliseconds() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}

public struct WebhookError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message }
}
