import Platform

/// What is wrong with the `--mqtt` options (or a `--fences mqtt://` URL); the words are written
/// once, in `text`, after the option `MQTTConfigurationError` names.
public enum MQTTProblem: Error, Sendable {
    /// This option was given without `--mqtt`.
    case goesWithMQTT(option: String)
    /// This option was given without `--homeassistant`.
    case goesWithHomeAssistant(option: String)
    case wantsATopic
    case wantsAName
    case topic(TopicProblem)
    case notAURL
    case unknownScheme(scheme: String)
    case noBrokerHost
    case wildcardInPrefix
    case queryOrFragment
    case portOutOfRange(Int)
    /// Broker `position` (from 1) of the URL's list is empty.
    case emptyBroker(position: Int)
    /// Broker `position` (from 1), `written` as the URL gives it.
    indirect case broker(position: Int, written: String, MQTTProblem)
    case notHostAndPort
    /// The broker (`HOST:PORT`) is in the list twice.
    case listedTwice(broker: String)
    case missingPrefix
    case prefix(String, TopicProblem)
    case urlNamesNoUser
    case passwordTwice
    case secret(SecretFileError)
    case needsTLS
    case unreadable
    case certificateAndKey
    case notAVersion(version: String)
    case keepalive
    case locationInterval
    case goesWithOwnTracks
    case wantsUserAndDevice
    case wantsOneOrTwoCharacters

    public var text: String {
        switch self {
        case .goesWithMQTT(let option): "\(option) goes with --mqtt URL"
        case .goesWithHomeAssistant(let option): "\(option) goes with --homeassistant"
        case .wantsATopic: "wants a topic, e.g. homeassistant"
        case .wantsAName: "wants a name, e.g. van"
        case .topic(let problem): problem.text
        case .notAURL: "not a URL (mqtt://[USER[:PASSWORD]@]HOST[:PORT][,HOST2[:PORT2]...]/PREFIX)"
        case .unknownScheme(let scheme): "unknown scheme '\(scheme)' (mqtt:// or mqtts://)"
        case .noBrokerHost: "no broker host"
        case .wildcardInPrefix:
            "the topic prefix contains a wildcard (+ or #); wildcards are for subscribing, not publishing"
        case .queryOrFragment: "a query or fragment has no meaning here"
        case .portOutOfRange(let port): "port \(port) out of range"
        case .emptyBroker(let position):
            "broker \(position) of the list is empty (HOST1:PORT1,HOST2:PORT2, no spaces, no trailing comma)"
        case .broker(let position, let written, let problem): "broker \(position) '\(written)': \(problem.text)"
        case .notHostAndPort: "not HOST[:PORT]"
        case .listedTwice(let broker): "broker \(broker) is listed twice"
        case .missingPrefix: "missing topic prefix (mqtt://HOST/PREFIX, e.g. mqtt://broker/gpsfence/van-1)"
        case .prefix(let prefix, let problem): "topic prefix '\(prefix)' \(problem.text)"
        case .urlNamesNoUser: "the URL names no user (mqtt://USER@HOST/PREFIX)"
        case .passwordTwice: "the URL already has a password; give it in one place"
        case .secret(let error): error.description
        case .needsTLS: "goes with an mqtts:// URL"
        case .unreadable: "cannot be read"
        case .certificateAndKey: "goes with --mqtt-cert and --mqtt-key both"
        case .notAVersion(let version): "'\(version)' is not 3.1.1 or 5"
        case .keepalive: "wants 5 to 65535 seconds"
        case .locationInterval: "wants 0 or more seconds"
        case .goesWithOwnTracks: "goes with --owntracks USER/DEVICE"
        case .wantsUserAndDevice: "wants USER/DEVICE (two topic levels, no + or #)"
        case .wantsOneOrTwoCharacters: "wants one or two characters"
        }
    }
}

/// Why a text cannot be an MQTT topic to publish to (or a prefix of one).
public enum TopicProblem: Sendable {
    case wildcard
    case nulByte
    case endsWithSlash
    case tooLong

    public var text: String {
        switch self {
        case .wildcard: "contains a wildcard (+ or #)"
        case .nulByte: "contains a NUL byte"
        case .endsWithSlash: "ends with '/'"
        case .tooLong: "is too long"
        }
    }
}
