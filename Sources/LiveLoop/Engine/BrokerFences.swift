import Delivery
import Dispatch
import Events
import Fences
import NMEA
import Platform
import Presentation
import Store

/// `--fences mqtt://[USER[:PASS]@]HOST[:PORT][,HOST2[:PORT2]...]/TOPIC` (docs/running.md, "Fences from the broker"):
/// the retained GeoJSON on TOPIC is the fence set, replaced whenever a new one is published. Each
/// message is parsed and validated whole on a queue of its own, as a fence file is; a good one is
/// swapped in and kept in the state file as the last good set, a bad one is refused and the fences
/// stay. The subscription rides on the `--mqtt` connection when that names the same broker, else
/// on a connection of its own that publishes nothing.
package final class BrokerFences: FenceFeed, @unchecked Sendable {
    let configuration: MQTTConfiguration
    package var origin: String { configuration.target }
    /// The topic the fence set is retained on (the URL's path).
    var topic: String { configuration.prefix }
    private let connection: MQTTConnection
    private let ownsConnection: Bool
    private let ready: @Sendable () -> Void
    private let current: Locked<FenceSet>
    private let outcomes = Locked<[FenceFeedOutcome]>([])
    /// The payloads last accepted and last refused: the broker sends its retained message again at
    /// every reconnect, which is neither news nor a second refusal.
    private let seen = Locked<(accepted: [UInt8]?, refused: [UInt8]?)>((nil, nil))
    private let queue = DispatchQueue(label: "gpsfence broker fences")

    /// - Parameters:
    ///   - shared: the `--mqtt` connection, when it names the same broker (`sameBroker`).
    ///   - accepted: the payload of the set the run started on (the last good one), if any.
    package init(
        configuration: MQTTConfiguration, shared: MQTTConnection?, current: FenceSet, accepted: [UInt8]?,
        ready: @escaping @Sendable () -> Void, report: @escaping @Sendable (Problem) -> Void
    ) {
        self.configuration = configuration
        self.ready = ready
        self.current = Locked(current)
        seen.withLock { $0.accepted = accepted }
        if let shared {
            connection = shared
            ownsConnection = false
        } else {
            var own = configuration
            own.clientID += "-fences"
            connection = MQTTConnection(configuration: own, will: nil, onlineStatus: nil, report: report)
            ownsConnection = true
        }
    }

    /// Whether `sink`'s connection reaches the same broker as `configuration`, as the same user: then
    /// one connection serves both.
    package static func sameBroker(_ configuration: MQTTConfiguration, _ other: MQTTConfiguration) -> Bool {
        let brokers =
            configuration.brokers.count == other.brokers.count
            && zip(configuration.brokers, other.brokers).allSatisfy { $0.same(as: $1) }
        return brokers && configuration.usesTLS == other.usesTLS && configuration.username == other.username
    }

    package func start() {
        connection.subscribe(
            MQTTConnection.Subscription(topic: topic, carries: .retainedState) { [self] payload, _ in
                queue.async { self.consider(payload) }
            })
        if ownsConnection { connection.start() }
    }

    package func stop() {
        queue.sync {}
        if ownsConnection { connection.stop(finalStatus: nil, timeout: 1) }
    }

    /// The broker pushes; there is nothing to look at again on SIGHUP.
    package func requestReload() {}

    package func noteCurrent(_ set: FenceSet) { current.withLock { $0 = set } }

    package func take() -> [FenceFeedOutcome] {
        outcomes.withLock { pending in
            defer { pending.removeAll() }
            return pending
        }
    }

    /// One message on the topic, on the queue: parsed and validated whole.
    private func consider(_ payload: [UInt8]) {
        let known = seen.withLock { $0 }
        guard payload != known.accepted, payload != known.refused else { return }
        let loaded = current.withLock { $0 }
        guard !payload.isEmpty else {
            seen.withLock { $0.refused = payload }
            hand(.refused(.brokerSetCleared(origin: origin, loaded: loaded.count)))
            return
        }
        do {
            let set = try FenceSet.parse(String(decoding: payload, as: UTF8.self), file: origin)
            seen.withLock { $0 = (payload, nil) }
            hand(.loaded(FenceSetMatch(old: loaded, new: set), keep: payload))
        } catch {
            seen.withLock { $0.refused = payload }
            hand(.refused(.brokerSetRefused(loaded: loaded.count, CaughtError(error))))
        }
    }

    private func hand(_ outcome: FenceFeedOutcome) {
        outcomes.withLock { $0.append(outcome) }
        ready()
    }
}

extension BrokerFences {
    /// The `--fences mqtt://...` URL checked (exit status 2 when it is bad, naming `--fences`), its
    /// password hidden from the process list; nil for a path. A URL that names a user and no
    /// password takes it from `secrets` (`GPSFENCE_MQTT_PASSWORD`), as `--mqtt` does.
    package static func configuration(
        fences: String, caFile: String?, certificateFile: String? = nil, keyFile: String? = nil,
        secrets: SecretSources = SecretSources()
    ) throws -> MQTTConfiguration? {
        let scheme = fences.prefix { $0 != ":" }.lowercased()
        guard fences.contains("://"), scheme == "mqtt" || scheme == "mqtts" else { return nil }
        do {
            let configuration = try MQTTConfiguration.parse(
                required: fences, caFile: caFile, certificateFile: certificateFile, keyFile: keyFile, secrets: secrets)
            ProcessArguments.hidePassword(of: fences)
            return configuration
        } catch {
            throw error.namingTheURL(as: "--fences")
        }
    }

    /// The set a run starts on: the last good set from this broker kept in the state file (said on
    /// standard error, with when it was accepted), or none yet (said too); the broker's retained
    /// set replaces it as soon as it comes.
    package static func lastGoodSet(
        _ configuration: MQTTConfiguration, store: StateStore?, calendar: LocalCalendar = .utc
    ) throws -> (FenceSet, accepted: [UInt8]?) {
        let source = configuration.target
        if let kept = try store?.acceptedFenceSet(source: source) {
            let set = try FenceSet.parse(String(decoding: kept.geojson, as: UTF8.self), file: source)
            let when = calendar.text(kept.acceptedAt)
            OutputWriter.standardError.write(
                line:
                    "gpsfence: fences: running on the last good set from \(source) (\(set.count) fences, accepted \(when)) until the broker sends its retained set"
            )
            return (set, kept.geojson)
        }
        OutputWriter.standardError.write(
            line:
                "gpsfence: fences: no fence set from \(source) yet; waiting for its retained set (no fences until then)"
        )
        return (FenceSet.none, nil)
    }
}

extension FenceSet {
    /// No fences: a run on the broker's fences before the first set came.
    package static var none: FenceSet { FenceSetBuilder(file: "<no fences>").build() }
}
