import Events
import Fences
import Foundation
import NMEA
import Platform
import Presentation

/// Everything `--mqtt` and its companion options say (docs/running.md, docs/mqtt.md), checked once, before anything
/// starts: a bad URL, an unknown scheme, a missing prefix, an unreadable CA or password file is bad
/// input (exit 2) with a message that names the option.
public struct MQTTConfiguration: Sendable, Equatable {
    public enum ProtocolVersion: String, Sendable, CaseIterable {
        case v311 = "3.1.1"
        case v5 = "5"
    }

    /// The brokers of the URL, in its order (at least one): the connection uses one at a time and
    /// moves to the next when it goes.
    public var brokers: [MQTTBroker]
    public var usesTLS: Bool
    public var username: String?
    /// From the URL, `--mqtt-password-file` or `GPSFENCE_MQTT_PASSWORD`; never part of `target` or
    /// any message.
    public var password: String?
    /// Topic prefix, without a trailing `/`.
    public var prefix: String
    /// `--mqtt-ca`: a private CA for `mqtts://`; nil: the system CA store.
    public var caFile: String?
    /// `--mqtt-cert` and `--mqtt-key`: the client certificate an `mqtts://` broker may ask for
    /// (the key file's path resolved, see `SecretSources.path`).
    public var clientCertificate: ClientCertificate?
    public var protocolVersion: ProtocolVersion = .v311
    public var keepalive = 30
    /// `--mqtt-location-interval`, seconds of fix time between two `PREFIX/location` messages.
    public var locationInterval = 5.0
    /// `--owntracks USER/DEVICE` and the tracker id (`--owntracks-tid`, else DEVICE's last two
    /// characters).
    public var ownTracks: OwnTracksIdentity?
    /// `--homeassistant` (and `--homeassistant-prefix`): Home Assistant MQTT discovery.
    public var homeAssistant: HomeAssistantDiscovery?
    /// gpsfence's version, for Home Assistant's device block.
    public var softwareVersion = ""
    /// The MQTT client id (see `clientID(statePath:)`).
    public var clientID = "gpsfence"
    /// Whose days Home Assistant's "odometer today" counts (`--timezone`: the local day).
    public var calendar = LocalCalendar.utc

    /// The outbox target key and the name in messages: the URL without the password.
    public var target: String {
        let user = username.map { Self.percentEncoded($0) + "@" } ?? ""
        let hosts = brokers.map(\.shown).joined(separator: ",")
        return "\(usesTLS ? "mqtts" : "mqtt")://\(user)\(hosts)/\(prefix)"
    }

    /// Parses `--mqtt URL` and the files its options name; nil without `--mqtt` (and then none of
    /// its companion options may be given).
    public static func parse(
        url: String?, caFile: String? = nil, certificateFile: String? = nil, keyFile: String? = nil,
        passwordFile: String? = nil, protocolVersion: String = "3.1.1",
        keepalive: Int = 30, locationInterval: Double = 5, ownTracks: String? = nil, ownTracksTID: String? = nil,
        homeAssistant: Bool = false, homeAssistantPrefix: String? = nil, homeAssistantName: String? = nil,
        secrets: SecretSources = SecretSources()
    ) throws(MQTTConfigurationError) -> MQTTConfiguration? {
        guard let url else {
            let strays = [
                ("--mqtt-ca", caFile), ("--mqtt-cert", certificateFile), ("--mqtt-key", keyFile),
                ("--mqtt-password-file", passwordFile), ("--owntracks", ownTracks),
                ("--owntracks-tid", ownTracksTID), ("--homeassistant", homeAssistant ? "" : nil),
                ("--homeassistant-prefix", homeAssistantPrefix), ("--homeassistant-name", homeAssistantName),
            ]
            .filter { $0.1 != nil }.map(\.0)
            if let first = strays.first {
                throw MQTTConfigurationError(option: nil, problem: .goesWithMQTT(option: first))
            }
            return nil
        }
        var configuration = try parse(
            required: url, caFile: caFile, certificateFile: certificateFile, keyFile: keyFile,
            passwordFile: passwordFile, protocolVersion: protocolVersion,
            keepalive: keepalive,
            locationInterval: locationInterval, ownTracks: ownTracks, ownTracksTID: ownTracksTID, secrets: secrets)
        if homeAssistant {
            let discoveryPrefix = homeAssistantPrefix ?? "homeassistant"
            if discoveryPrefix.isEmpty || discoveryPrefix.hasPrefix("/") {
                throw MQTTConfigurationError(option: "--homeassistant-prefix", problem: .wantsATopic)
            }
            if let problem = topicProblem(discoveryPrefix) {
                throw MQTTConfigurationError(
                    option: "--homeassistant-prefix \(discoveryPrefix)", problem: .topic(problem))
            }
            if let name = homeAssistantName, name.allSatisfy(\.isWhitespace) {
                throw MQTTConfigurationError(option: "--homeassistant-name", problem: .wantsAName)
            }
            configuration.homeAssistant = HomeAssistantDiscovery(
                discoveryPrefix: discoveryPrefix, prefix: configuration.prefix, name: homeAssistantName)
        } else if homeAssistantPrefix != nil {
            throw MQTTConfigurationError(option: nil, problem: .goesWithHomeAssistant(option: "--homeassistant-prefix"))
        } else if homeAssistantName != nil {
            throw MQTTConfigurationError(option: nil, problem: .goesWithHomeAssistant(option: "--homeassistant-name"))
        }
        return configuration
    }

    /// Parses `--mqtt URL` and the files its options name. The password comes from the URL, else
    /// from the password file (relative: a systemd credential, see `SecretSources.path`), else,
    /// when the URL names a user, from `GPSFENCE_MQTT_PASSWORD`.
    public static func parse(
        required url: String, caFile: String? = nil, certificateFile: String? = nil, keyFile: String? = nil,
        passwordFile: String? = nil, protocolVersion: String = "3.1.1",
        keepalive: Int = 30, locationInterval: Double = 5, ownTracks: String? = nil, ownTracksTID: String? = nil,
        secrets: SecretSources = SecretSources()
    ) throws(MQTTConfigurationError) -> MQTTConfiguration {
        func bad(_ option: MQTTConfigurationError.Option, _ problem: MQTTProblem) -> MQTTConfigurationError {
            MQTTConfigurationError(option: option, problem: problem)
        }
        let option = MQTTConfigurationError.Option.url(shown: redacted(url))
        let list: MQTTBrokerList
        do { list = try MQTTBrokerList.split(url) } catch { throw bad(option, error) }
        guard let components = URLComponents(string: list.firstBrokerURL), let scheme = components.scheme?.lowercased()
        else {
            throw bad(option, .notAURL)
        }
        guard scheme == "mqtt" || scheme == "mqtts" else {
            throw bad(option, .unknownScheme(scheme: scheme))
        }
        guard let host = components.host, !host.isEmpty else { throw bad(option, .noBrokerHost) }
        // `#` would be read as the start of a URL fragment, and `+` passes as a path character:
        // both are MQTT wildcards, which a publisher's topic prefix cannot hold.
        if let path = url.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false).dropFirst(3).first,
            path.contains("#") || path.contains("+")
        {
            throw bad(option, .wildcardInPrefix)
        }
        if components.query != nil || components.fragment != nil {
            throw bad(option, .queryOrFragment)
        }
        let tls = scheme == "mqtts"
        let defaultPort = tls ? 8883 : 1883
        let port = components.port ?? defaultPort
        guard (1...65535).contains(port) else { throw bad(option, .portOutOfRange(port)) }
        var brokers = [MQTTBroker(host: host, port: port)]
        for (offset, text) in list.others.enumerated() {
            let broker: MQTTBroker
            do {
                broker = try MQTTBrokerList.broker(text, position: offset + 2, defaultPort: defaultPort)
            } catch { throw bad(option, error) }
            if brokers.contains(where: { $0.same(as: broker) }) {
                throw bad(option, .listedTwice(broker: broker.shown))
            }
            brokers.append(broker)
        }
        var prefix = components.path
        while prefix.hasPrefix("/") { prefix.removeFirst() }
        guard !prefix.isEmpty else {
            throw bad(option, .missingPrefix)
        }
        if let problem = topicProblem(prefix) { throw bad(option, .prefix(prefix, problem)) }

        var configuration = MQTTConfiguration(brokers: brokers, usesTLS: tls, prefix: prefix)
        configuration.username = components.user.flatMap { $0.isEmpty ? nil : $0 }
        configuration.password = components.password
        if let passwordFile {
            guard configuration.username != nil else {
                throw bad("--mqtt-password-file", .urlNamesNoUser)
            }
            guard configuration.password == nil else {
                throw bad("--mqtt-password-file", .passwordTwice)
            }
            switch secrets.firstLine(of: passwordFile) {
            case .success(let password): configuration.password = password
            case .failure(let error): throw bad("--mqtt-password-file", .secret(error))
            }
        } else if configuration.username != nil, configuration.password == nil, let password = secrets.mqttPassword {
            configuration.password = password
        }
        if let caFile {
            guard tls else { throw bad("--mqtt-ca", .needsTLS) }
            guard FileManager.default.isReadableFile(atPath: caFile),
                FileManager.default.contents(atPath: caFile) != nil
            else {
                throw bad("--mqtt-ca \(caFile)", .unreadable)
            }
            configuration.caFile = caFile
        }
        if certificateFile != nil || keyFile != nil {
            do {
                configuration.clientCertificate = try ClientCertificate.parse(
                    certificateFile: certificateFile, keyFile: keyFile, tls: tls, secrets: secrets)
            } catch { throw bad(.named(option: error.option), error.problem) }
        }
        guard let version = ProtocolVersion(rawValue: protocolVersion) else {
            throw bad("--mqtt-version", .notAVersion(version: protocolVersion))
        }
        configuration.protocolVersion = version
        guard (5...65535).contains(keepalive) else { throw bad("--mqtt-keepalive", .keepalive) }
        configuration.keepalive = keepalive
        guard locationInterval >= 0, locationInterval.isFinite else {
            throw bad("--mqtt-location-interval", .locationInterval)
        }
        configuration.locationInterval = locationInterval
        if let ownTracks {
            configuration.ownTracks = try OwnTracksIdentity.parse(ownTracks, tid: ownTracksTID)
        } else if ownTracksTID != nil {
            throw bad("--owntracks-tid", .goesWithOwnTracks)
        }
        return configuration
    }

    /// A client id that stays the same for one state file on one machine (so the broker sees one
    /// device across restarts, and two devices never share one): `gpsfence-` and 12 hex digits of
    /// a hash of the host name and the state file's absolute path. 21 characters: within the 23
    /// that every MQTT 3.1.1 broker must accept.
    public static func clientID(statePath: String?) -> String {
        var hash = FNV1a()
        // gethostname, not ProcessInfo.hostName: that may ask DNS, and a device offline must start.
        hash.add(hostName())
        hash.add(
            statePath.map { URL(fileURLWithPath: $0).standardizedFileURL.path } ?? "no state file \(currentProcessID())"
        )
        return "gpsfence-" + hash.hex.suffix(12)
    }

    /// Why `topic` cannot be a publish topic (or a prefix of one), if it cannot.
    static func topicProblem(_ topic: String) -> TopicProblem? {
        if topic.contains("+") || topic.contains("#") { return .wildcard }
        if topic.utf8.contains(0) { return .nulByte }
        if topic.hasSuffix("/") { return .endsWithSlash }
        if topic.utf8.count > 60_000 { return .tooLong }
        return nil
    }

    /// The URL as it may be shown: a password replaced by `***`.
    public static func redacted(_ url: String) -> String { URLPassword.redacted(url) }

    static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed) ?? text
    }
}

/// `--owntracks USER/DEVICE`: the OwnTracks topic `owntracks/USER/DEVICE` and the tracker id.
public struct OwnTracksIdentity: Sendable, Equatable {
    public var user: String
    public var device: String
    public var tid: String

    public var topic: String { "owntracks/\(user)/\(device)" }

    static func parse(_ text: String, tid: String?) throws(MQTTConfigurationError) -> OwnTracksIdentity {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
            MQTTConfiguration.topicProblem(text) == nil
        else {
            throw MQTTConfigurationError(option: "--owntracks \(text)", problem: .wantsUserAndDevice)
        }
        let chosen = tid ?? String(parts[1].suffix(2))
        guard (1...2).contains(chosen.count) else {
            throw MQTTConfigurationError(option: "--owntracks-tid \(chosen)", problem: .wantsOneOrTwoCharacters)
        }
        return OwnTracksIdentity(user: parts[0], device: parts[1], tid: chosen)
    }
}

/// Bad `--mqtt` options: exit status 2, the message names the option.
public struct MQTTConfigurationError: Error, CustomStringConvertible, Sendable {
    /// The option at fault.
    public enum Option: Sendable, Equatable, ExpressibleByStringInterpolation {
        /// The broker URL (as it may be shown, its password hidden), named by the option that gave it.
        case url(shown: String)
        /// Another option, as the user gave it (`--mqtt-ca FILE`).
        case named(option: String)

        public init(stringLiteral value: String) { self = .named(option: value) }
    }

    /// Nil when the problem's words name the options themselves.
    public let option: Option?
    public let problem: MQTTProblem
    /// The option that gave the URL: `--mqtt`, or `--fences` for the fences from the broker.
    public private(set) var urlOption = "--mqtt"

    public init(option: Option?, problem: MQTTProblem) {
        self.option = option
        self.problem = problem
    }

    /// The same problem of a URL given by `option` rather than `--mqtt`.
    public func namingTheURL(as option: String) -> MQTTConfigurationError {
        var renamed = self
        renamed.urlOption = option
        return renamed
    }

    public var message: String {
        switch option {
        case nil: problem.text
        case .url(let shown): "\(urlOption) \(shown): \(problem.text)"
        case .named(let named): "\(named): \(problem.text)"
        }
    }

    public var description: String { message }
}

extension MQTTConfiguration {
    init(brokers: [MQTTBroker], usesTLS: Bool, prefix: String) {
        self.brokers = brokers
        self.usesTLS = usesTLS
        self.prefix = prefix
    }
}
