import Platform

/// Why one attempt to hand an event (or a batch of track) to its target failed: an HTTP server's
/// answer, a broker's missing acknowledgement. Kept in the outbox row, as `text`, as its last error.
public enum TransportFailure: Sendable, Equatable {
    /// The webhook's URL has no host.
    case noHost
    /// The connection could not be made, or broke.
    case connection(SocketError)
    /// The request could not be written for another reason.
    case caught(CaughtError)
    /// The system's HTTP client failed, in its own words.
    case httpClient(said: String)
    /// The server answered with a status outside 2xx.
    case httpStatus(Int)
    /// What came back is not an HTTP status line.
    case notHTTP
    /// The system's HTTP client ended without a status.
    case noHTTPAnswer
    /// No status within `seconds` (nil: the client gave up without saying how long it waited).
    case noAnswer(within: Int?)
    /// The server closed the connection before answering.
    case closedByServer
    /// The broker is away: why the connection is down, or that it is still being made.
    case notConnected(BrokerAbsence)
    /// libmosquitto refused the publish, in its own words.
    case publishRefused(library: String)
    /// The broker did not acknowledge the message within `seconds`.
    case noPUBACK(within: Int)
    /// The connection went while the acknowledgement was awaited.
    case lostBeforePUBACK

    public var text: String {
        switch self {
        case .noHost: "the URL has no host"
        case .connection(let error): error.description
        case .caught(let error): error.rendered
        case .httpClient(let said): said
        case .httpStatus(let status): "HTTP \(status)"
        case .notHTTP: "not an HTTP answer"
        case .noHTTPAnswer: "no HTTP answer"
        case .noAnswer(let seconds?): "no answer within \(seconds) s"
        case .noAnswer(nil): "no answer"
        case .closedByServer: "the server closed the connection"
        case .notConnected(let absence): "not connected (\(absence.text))"
        case .publishRefused(let library): "publish failed: \(library)"
        case .noPUBACK(let seconds): "no PUBACK within \(seconds) s"
        case .lostBeforePUBACK: "connection lost before the PUBACK"
        }
    }
}
