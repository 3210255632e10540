import Events
import Foundation
import NMEA
import Platform

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one HTTP client of the delivery transports (the webhook, the track sync): a POST that
/// blocks until the answer, where a 2xx is the acknowledgement. The caller's thread waits; order,
/// retries and backoff are the caller's. http:// goes over a connection of its own (`PlainHTTP`),
/// https:// through URLSession.
public struct HTTPPoster: Sendable {
    public let url: URL
    public let headers: [HTTPHeader]
    private let requestTimeout: Double
    /// Only for an https:// URL (nil for http://, which needs no session and its timer).
    private let session: URLSession?

    public init(url: URL, headers: [HTTPHeader] = [], requestTimeout: Double = 10) {
        self.url = url
        self.headers = headers
        self.requestTimeout = requestTimeout
        if url.scheme?.lowercased() == "https" {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = requestTimeout
            session = URLSession(configuration: configuration)
        } else {
            session = nil
        }
    }

    /// `text` as an http:// or https:// URL with a host; nil otherwise.
    public static func url(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host != nil
        else { return nil }
        return url
    }

    /// POSTs `body` to `url` (or to `to`, the same server with a query), with the request's own
    /// headers first and the configured ones after them (so a configured header wins).
    public func post(
        _ body: Data, contentType: String?, to: URL? = nil, requestHeaders: [(name: String, value: String)] = []
    ) -> DeliveryOutcome {
        guard let session else {
            let all = requestHeaders + headers.map { (name: $0.name, value: $0.value) }
            let named = contentType.map { [(name: "Content-Type", value: $0)] } ?? []
            return PlainHTTP.post(body, to: to ?? url, headers: named + all, timeout: requestTimeout)
        }
        var request = URLRequest(url: to ?? url)
        request.httpMethod = "POST"
        request.httpBody = body
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        for header in requestHeaders { request.setValue(header.value, forHTTPHeaderField: header.name) }
        for header in headers { request.setValue(header.value, forHTTPHeaderField: header.name) }
        let done = DispatchSemaphore(value: 0)
        let result = Locked<DeliveryOutcome>(.failed(.noAnswer(within: nil)))
        let task = session.dataTask(with: request) { _, response, error in
            let outcome: DeliveryOutcome
            if let error {
                outcome = .failed(.httpClient(said: error.localizedDescription))
            } else if let status = (response as? HTTPURLResponse)?.statusCode {
                outcome = (200..<300).contains(status) ? .delivered : .failed(.httpStatus(status))
            } else {
                outcome = .failed(.noHTTPAnswer)
            }
            result.withLock { $0 = outcome }
            done.signal()
        }
        task.resume()
        done.wait()
        return result.withLock { $0 }
    }
}
