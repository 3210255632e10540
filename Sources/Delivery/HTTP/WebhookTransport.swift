import Events
import Fences
import Foundation

/// `--webhook URL` (docs/running.md): POSTs one event as JSON; a 2xx answer is the acknowledgement.
/// `OutboxDelivery` supplies order, retries and backoff; `--webhook-header` adds headers.
public struct WebhookTransport: OutboxTransport {
    public let target: String
    public var displayName: String { "webhook \(target)" }
    private let poster: HTTPPoster

    public init(endpoint: String, headers: [HTTPHeader] = [], requestTimeout: Double = 10) throws(WebhookError) {
        guard let url = HTTPPoster.url(endpoint) else {
            throw .notAnHTTPURL(endpoint: endpoint)
        }
        target = endpoint
        poster = HTTPPoster(url: url, headers: headers, requestTimeout: requestTimeout)
    }

    public func send(_ item: OutboxItem) -> DeliveryOutcome {
        poster.post(
            Data(item.body.utf8), contentType: "application/json",
            requestHeaders: [(name: "X-Gpsfence-Event-Id", value: item.eventID)])
    }
}

/// A `--webhook` that cannot be used as given (bad input, exit status 2). `description` is its
/// one rendering in words.
public enum WebhookError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The endpoint, as given, is not an http:// or https:// URL.
    case notAnHTTPURL(endpoint: String)

    public var description: String {
        switch self {
        case .notAnHTTPURL(let endpoint): "--webhook \(endpoint): not an http:// or https:// URL"
        }
    }
}
