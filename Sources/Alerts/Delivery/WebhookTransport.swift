import Foundation
import Geofence
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `--webhook URL` (SPEC §7): POSTs one event as JSON; a 2xx answer is the acknowledgement.
/// `OutboxDelivery` supplies order, retries and backoff.
public struct WebhookTransport: OutboxTransport {
    public let target: String
    public var displayName: String { "webhook \(target)" }
    private let url: URL
    private let session: URLSession

    public init(endpoint: String, requestTimeout: Double = 10) throws(WebhookError) {
        guard let url = URL(string: endpoint), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https",
            url.host != nil
        else { throw WebhookError(message: "--webhook \(endpoint): not an http:// or https:// URL") }
        target = endpoint
        self.url = url
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = requestTimeout
        session = URLSession(configuration: configuration)
    }

    public func send(_ item: OutboxItem) -> DeliveryOutcome {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = Data(item.body.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(item.eventID, forHTTPHeaderField: "X-Gpsfence-Event-Id")
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<DeliveryOutcome>(.failed("no answer"))
        let task = session.dataTask(with: request) { _, response, error in
            let outcome: DeliveryOutcome
            if let error {
                outcome = .failed(error.localizedDescription)
            } else if let status = (response as? HTTPURLResponse)?.statusCode {
                outcome = (200..<300).contains(status) ? .delivered : .failed("HTTP \(status)")
            } else {
                outcome = .failed("no HTTP answer")
            }
            result.withLock { $0 = outcome }
            done.signal()
        }
        task.resume()
        done.wait()
        return result.withLock { $0 }
    }
}

public struct WebhookError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message }
}
