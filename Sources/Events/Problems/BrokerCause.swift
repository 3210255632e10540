/// Why an MQTT connection is not up when a message must go.
public enum BrokerAbsence: Sendable, Equatable {
    /// The outage in progress, and why it began.
    case away(BrokerCause)
    /// The broker refused the connection, in its own words (a CONNACK's reason).
    case refused(brokerSaid: String)
    /// The first connection is still being made.
    case connecting

    public var text: String {
        switch self {
        case .away(let cause): cause.text
        case .refused(let said): said
        case .connecting: "connecting"
        }
    }
}

/// Why an attempt to connect to an MQTT broker failed, or why the connection ended.
public enum BrokerCause: Sendable, Equatable {
    /// The TCP connection was not made within `seconds`.
    case noTCPConnection(within: Int)
    /// The TCP connection failed with a system error, in the system's words.
    case tcp(systemSaid: String)
    /// The broker's host name does not resolve, in the resolver's words.
    case cannotResolve(resolverSaid: String)
    /// libmosquitto could not make a client.
    case cannotCreateClient
    /// A step of the client's set-up failed, in libmosquitto's words.
    case setUp(SetUpStep, library: String)
    /// libmosquitto could not connect, in its own words.
    case connectFailed(library: String)
    /// The broker refused the connection, in its own words.
    case refused(brokerSaid: String)
    /// An established connection ended, in libmosquitto's words.
    case lost(library: String)
    /// The broker did not answer the CONNECT within `seconds`.
    case noCONNACK(within: Int)

    /// The client's set-up steps that may fail.
    public enum SetUpStep: String, Sendable, Equatable {
        case lastWill = "last will"
        case credentials
        case tls = "TLS set-up"
    }

    public var text: String {
        switch self {
        case .noTCPConnection(let seconds): "no TCP connection within \(seconds) s"
        case .tcp(let said): said
        case .cannotResolve(let said): "cannot resolve the host: \(said)"
        case .cannotCreateClient: "cannot create a client"
        case .setUp(let step, let library): "\(step.rawValue): \(library)"
        case .connectFailed(let library): library
        case .refused(let said): "the broker refused the connection: \(said)"
        case .lost(let library): "connection lost: \(library)"
        case .noCONNACK(let seconds): "no CONNACK within \(seconds) s"
        }
    }
}
