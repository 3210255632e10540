import CMosquitto
import Events
import Foundation
import NMEA
import Platform

/// One connection to one broker of a list (a cluster's nodes), kept up by a thread of its own: a
/// thin wrapper over libmosquitto (the only file that calls it).
///
/// - Each attempt is a fresh `mosquitto` handle (`mosquitto_new`), so no message of a dead
///   connection is re-sent behind the outbox's back and out of its order: the outbox, not
///   libmosquitto, is what re-sends events. The session is persistent (clean session off, the same
///   client id every time; with MQTT 5 a session expiry of `sessionExpiry`), so a cluster keeps
///   the subscriptions, and what is queued for them, across a move to another node.
/// - When the broker in use goes, the next of the list is tried at once; between failed attempts,
///   each on the next broker (round robin): exponential backoff with jitter, 0.5 s doubling up to
///   `maximumBackoff`. An attempt gives up when the TCP connection does not come within
///   `tcpConnectWait`, or the CONNACK within `connackWait` after it.
/// - The network loop is ours (`mosquitto_loop` on this thread, `mosquitto_threaded_set`), so
///   publishing from the delivery or engine thread only queues a packet and wakes the loop.
/// - Retained messages (status, fence states, location) are "latest wins": the newest payload per
///   topic is kept and published again after every reconnect, after the retained `online` status.
///   The last will (retained `offline` on the status topic) is set on every handle.
public final class MQTTConnection: @unchecked Sendable {
    public struct Will: Sendable {
        public var topic: String
        public var payload: String
    }

    public let configuration: MQTTConfiguration
    /// Called with `online` status text at each connection (the payload carries the time); nil
    /// for a connection that only subscribes (`--fences mqtt://` without `--mqtt`).
    private let onlineStatus: (@Sendable () -> (topic: String, payload: String))?
    private let will: Will?
    private let report: @Sendable (Problem) -> Void
    /// Where "reachable again" goes: not an `error` event.
    private let notice: @Sendable (String) -> Void
    public let maximumBackoff = 30.0
    /// How long an attempt waits for the broker's CONNACK. Generous: a cluster node may hold a
    /// persistent session's CONNECT for seconds while the session moves over from a dead node, and
    /// an attempt that gives up sooner starts that wait again.
    public let connackWait = 15.0
    /// How long an attempt waits for the TCP connection to the broker (to each address of its
    /// host). libmosquitto's connect has no limit of its own: a host that drops packets (down, or
    /// behind a firewall that drops rather than refuses) would hold the attempt for the kernel's
    /// SYN retries, about two minutes, before the next broker of the list is tried.
    public let tcpConnectWait = 10.0
    /// When, after a failover, the subscriptions are made again. A cluster node that took
    /// the connection may learn of a retained message published while another node died (a new
    /// fence set) only once the cluster has elected new leaders; a broker sends retained messages
    /// when a subscription is made, not when it learns of one late, and a subscription made again
    /// has them sent again. A retained state is subscribed at QoS 0 (`Subscription.Carries`), so
    /// no session queues it for the vehicle: these are what bring it when the node learns late,
    /// up to a minute after. Every 3 s for the first half minute: on a loaded machine the
    /// cluster's elections took over 10 s, and a gap from 9 s to 20 s left vehicles that long
    /// on the old set. A set already taken comes again as the same bytes and is passed over.
    static let resubscribeDelays: [Double] = [3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 45, 60]
    /// MQTT 5's session expiry interval (one week): MQTT 3.1.1 sessions last as the broker keeps them.
    static let sessionExpiry: UInt32 = 7 * 86_400

    // Everything below is guarded by `condition`.
    private let condition = NSCondition()
    private var handle: OpaquePointer?
    private var generation = 0
    private var connected = false
    private var refusal: String?
    private var inflight = Set<Int32>()
    private var retained: [String: [UInt8]] = [:]
    private var retainedOrder: [String] = []
    private var running = false
    private var stopping = false
    private var finished = false
    private var thread: Thread?
    private var outage = OutageLog<BrokerCause>()
    private var announced = false
    /// Whether this connection subscribed to `configuration.homeAssistant`'s status topic yet.
    private var subscribed = false
    private var everConnected = false
    /// `sweepRetained(under:)`: the filters, whether this connection subscribed to them yet, and
    /// the stale topics found there, cleared from the loop.
    private var sweepFilters: [String] = []
    private var sweepSubscribed = false
    private var staleTopics: [String] = []
    private var startBacklog: [(topic: String, payload: [UInt8])] = []
    /// Topics subscribed to at every connection, each with what to do with its messages.
    private var subscriptions: [Subscription] = []
    /// Whether this connection subscribed to `subscriptions` yet.
    private var subscriptionsSent = false

    public init(
        configuration: MQTTConfiguration, will: Will?,
        onlineStatus: (@Sendable () -> (topic: String, payload: String))?,
        report: @escaping @Sendable (Problem) -> Void,
        notice: @escaping @Sendable (String) -> Void = DeliveryNotice.standardError
    ) {
        self.configuration = configuration
        self.will = will
        self.onlineStatus = onlineStatus
        self.report = report
        self.notice = notice
        _ = Self.libraryReady
    }

    private static let libraryReady: Bool = {
        mosquitto_lib_init()
        return true
    }()

    public var displayName: String { "mqtt broker \(configuration.target)" }

    public func start() {
        condition.lock()
        defer { condition.unlock() }
        guard thread == nil else { return }
        running = true
        let thread = Thread { [self] in
            runThread(named: "gf-mqtt") {
                supervise()
            }
        }
        self.thread = thread
        thread.start()
    }

    /// Whether the broker accepted the connection and it is still up.
    public var isConnected: Bool {
        condition.lock()
        defer { condition.unlock() }
        return connected
    }

    // MARK: - Publishing

    /// Publishes at QoS 1, not retained, and waits for the broker's PUBACK (`mosquitto_publish`,
    /// then the `on_publish` callback with the same message id). Waits up to `connectWait` for a
    /// connection first. Nil when acknowledged, else what went wrong.
    public func publishAcknowledged(
        topic: String, payload: [UInt8], connectWait: Double, ackTimeout: Double
    ) -> TransportFailure? {
        condition.lock()
        defer { condition.unlock() }
        let connectDeadline = monotonicSeconds() + connectWait
        while !connected, running, !stopping, condition.wait(untilMonotonic: connectDeadline) {}
        guard connected, let handle else { return .notConnected(absence) }
        var mid: Int32 = 0
        let rc = payload.withUnsafeBytes { bytes in
            mosquitto_publish(handle, &mid, topic, Int32(bytes.count), bytes.baseAddress, 1, false)
        }
        guard rc == MOSQ_ERR_SUCCESS.rawValue else { return .publishRefused(library: Self.describe(rc)) }
        inflight.insert(mid)
        let myGeneration = generation
        let ackDeadline = monotonicSeconds() + ackTimeout
        while inflight.contains(mid), generation == myGeneration, connected {
            if !condition.wait(untilMonotonic: ackDeadline) { break }
        }
        if generation == myGeneration, !inflight.contains(mid) { return nil }
        if generation == myGeneration, connected {
            inflight.remove(mid)
            return .noPUBACK(within: Int(ackTimeout))
        }
        return .lostBeforePUBACK
    }

    /// Why the connection is not up; under `condition`.
    private var absence: BrokerAbsence {
        if let cause = outage.current { return .away(cause) }
        if let refusal { return .refused(brokerSaid: refusal) }
        return .connecting
    }

    /// Not retained, QoS 1, without waiting, for messages that only matter live: sent when
    /// connected; before the first connection (a start racing its CONNACK) kept, at most
    /// `startBacklogLimit`, and sent after the retained present; during a later outage dropped.
    public func publishLive(topic: String, payload: [UInt8]) {
        condition.lock()
        defer { condition.unlock() }
        if connected, let handle {
            send(handle, topic: topic, payload: payload, retain: false)
        } else if !everConnected, startBacklog.count < Self.startBacklogLimit {
            startBacklog.append((topic, payload))
        }
    }

    static let startBacklogLimit = 1000

    /// Retained, QoS 1, latest wins: published now when connected, and again after every
    /// reconnect. An empty payload clears the topic on the broker.
    public func publishRetained(topic: String, payload: [UInt8]) {
        condition.lock()
        defer { condition.unlock() }
        if retained.updateValue(payload, forKey: topic) == nil { retainedOrder.append(topic) }
        if connected, let handle { send(handle, topic: topic, payload: payload, retain: true) }
    }

    /// With `condition` held.
    private func send(_ handle: OpaquePointer, topic: String, payload: [UInt8], retain: Bool) {
        var mid: Int32 = 0
        let rc = payload.withUnsafeBytes { bytes in
            mosquitto_publish(handle, &mid, topic, Int32(bytes.count), bytes.baseAddress, 1, retain)
        }
        if rc == MOSQ_ERR_SUCCESS.rawValue { inflight.insert(mid) }
    }

    /// Clears, at this and every later connection, the retained messages under `filters` (MQTT
    /// topic filters) that this process does not publish: those an earlier run left for things
    /// that are gone, such as a fence removed from the file while gpsfence was stopped. Call it once
    /// everything this process keeps there has been handed to `publishRetained`. Only messages
    /// that are retained when the subscription is made count, so a live publish by anyone is
    /// never cleared.
    public func sweepRetained(under filters: [String]) {
        condition.lock()
        defer { condition.unlock() }
        sweepFilters = filters
        sweepSubscribed = false
    }

    // MARK: - Subscribing

    /// A topic this connection subscribes to (QoS 1) at every connection, and what to do with each
    /// message on it: called on the connection's thread with the connection's lock held, so it
    /// only hands the payload on (and never calls the connection).
    public struct Subscription: Sendable {
        /// What the topic carries, which says the QoS it is subscribed at.
        public enum Carries: Sendable {
            /// A state, retained on the topic (a fence set): only its latest counts, and it comes
            /// again with every subscription, so QoS 0. A broker of a cluster then sends it as it
            /// is published, where at QoS 1 a NATS node passes each message through the
            /// session's JetStream consumer, which waits for new leaders after a node died (3 to
            /// 7 s for vehicles that never left their node, seen with a 3-node cluster).
            case retainedState
            /// Commands (an alarm's acknowledgement, OwnTracks' `cmd`): each counts, so QoS 1, and
            /// one sent while the vehicle was away is kept for it in its persistent session.
            case commands

            var qos: Int32 {
                switch self {
                case .retainedState: 0
                case .commands: 1
                }
            }
        }

        public var topic: String
        public var carries: Carries
        public var receive: @Sendable (_ payload: [UInt8], _ retained: Bool) -> Void

        public init(
            topic: String, carries: Carries,
            receive: @escaping @Sendable (_ payload: [UInt8], _ retained: Bool) -> Void
        ) {
            self.topic = topic
            self.carries = carries
            self.receive = receive
        }
    }

    /// Subscribes to `subscription.topic` now when connected, and again after every reconnect (the
    /// broker then sends its retained message again). The corresponding C function is
    /// `mosquitto_subscribe`.
    public func subscribe(_ subscription: Subscription) {
        condition.lock()
        defer { condition.unlock() }
        subscriptions.append(subscription)
        if connected, subscriptionsSent, let handle {
            mosquitto_subscribe(handle, nil, subscription.topic, subscription.carries.qos)
        }
    }

    // MARK: - Stopping

    /// Publishes `finalStatus` (retained), waits (bounded) for every outstanding PUBACK, then
    /// disconnects cleanly (so the broker does not send the last will) and ends the thread.
    public func stop(finalStatus: (topic: String, payload: String)?, timeout: Double = 5) {
        condition.lock()
        guard thread != nil, !stopping else {
            condition.unlock()
            return
        }
        if let finalStatus {
            let bytes = Array(finalStatus.payload.utf8)
            if retained.updateValue(bytes, forKey: finalStatus.topic) == nil { retainedOrder.append(finalStatus.topic) }
            if connected, let handle { send(handle, topic: finalStatus.topic, payload: bytes, retain: true) }
        }
        let deadline = monotonicSeconds() + timeout
        while connected, !inflight.isEmpty, condition.wait(untilMonotonic: deadline) {}
        stopping = true
        condition.broadcast()
        while !finished, condition.wait(untilMonotonic: deadline + 2) {}
        condition.unlock()
    }

    // MARK: - The connection thread

    private func supervise() {
        var backoff = Backoff(initial: 0.5, maximum: maximumBackoff, jitter: true)
        let brokers = configuration.brokers
        var next = 0
        while true {
            condition.lock()
            let stop = stopping
            condition.unlock()
            if stop { break }
            var upSince: Double?
            let tried = brokers[next]
            let problem = connectAndServe(
                tried,
                onConnected: {
                    backoff.reset()
                    upSince = monotonicSeconds()
                })
            next = (next + 1) % brokers.count
            condition.lock()
            let stopNow = stopping
            if let problem, !stopNow, outage.failed(problem) {
                condition.unlock()
                report(.broker(.away(client: displayName, broker: brokers.count > 1 ? tried.shown : nil, problem)))
            } else {
                condition.unlock()
            }
            if stopNow { break }
            // The broker in use went: the next one may well be up. Not for a connection that
            // lasted under a second (a broker that takes and drops it, another client with the
            // same id): that waits as a failed attempt does, lest two clients fight without pause.
            if let upSince, monotonicSeconds() - upSince >= 1, brokers.count > 1 { continue }
            let until = monotonicSeconds() + backoff.next()
            condition.lock()
            while !stopping, condition.wait(untilMonotonic: until) {}
            condition.unlock()
        }
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// One connection attempt to `broker` and, if it succeeds, its life. Returns why it ended (nil: a
    /// clean stop).
    private func connectAndServe(_ broker: MQTTBroker, onConnected: () -> Void) -> BrokerCause? {
        if let problem = tcpProblem(broker) { return problem }
        let context = Unmanaged.passUnretained(self).toOpaque()
        // Clean session off: the broker (a cluster: every node) keeps the session under the client id.
        guard let mosq = mosquitto_new(configuration.clientID, false, context) else { return .cannotCreateClient }
        defer { mosquitto_destroy(mosq) }
        if let problem = configure(mosq) { return problem }

        let rc = connect(mosq, to: broker)
        guard rc == MOSQ_ERR_SUCCESS.rawValue else { return .connectFailed(library: Self.describe(rc)) }
        let connackDeadline = monotonicSeconds() + connackWait
        condition.lock()
        handle = mosq
        generation += 1
        refusal = nil
        inflight.removeAll()
        announced = false
        subscribed = false
        sweepSubscribed = false
        staleTopics = []
        subscriptionsSent = false
        condition.unlock()

        var ending: BrokerCause?
        var everConnectedHere = false
        // After a failover: when the subscriptions are made again (see `resubscribeDelays`).
        var resubscribeAt: [Double] = []
        while true {
            let rc = mosquitto_loop(mosq, 200, 1)
            condition.lock()
            if stopping {
                condition.unlock()
                // A clean DISCONNECT: the broker drops the last will (the final status was sent).
                mosquitto_disconnect(mosq)
                for _ in 0..<5 where mosquitto_loop(mosq, 50, 1) == MOSQ_ERR_SUCCESS.rawValue {}
                break
            }
            if let refusal = refusal {
                ending = .refused(brokerSaid: refusal)
                condition.unlock()
                break
            }
            if rc != MOSQ_ERR_SUCCESS.rawValue {
                condition.unlock()
                ending = .lost(library: Self.describe(rc))
                break
            }
            if !connected, !everConnectedHere, monotonicSeconds() > connackDeadline {
                condition.unlock()
                ending = .noCONNACK(within: Int(connackWait))
                break
            }
            if connected, !subscriptionsSent {
                subscriptionsSent = true
                for subscription in subscriptions {
                    mosquitto_subscribe(mosq, nil, subscription.topic, subscription.carries.qos)
                }
            }
            if connected, !announced {
                announced = true
                // Online first, then the present state.
                let status = onlineStatus?()
                if let status {
                    let bytes = Array(status.payload.utf8)
                    if retained.updateValue(bytes, forKey: status.topic) == nil {
                        retainedOrder.insert(status.topic, at: 0)
                    }
                    send(mosq, topic: status.topic, payload: bytes, retain: true)
                }
                if let homeAssistant = configuration.homeAssistant, !subscribed {
                    subscribed = true
                    // Home Assistant's birth message: when it says `online` (it restarted), the
                    // discovery configs and states are published again (`messageReceived`).
                    mosquitto_subscribe(mosq, nil, homeAssistant.statusTopic, 1)
                }
                for topic in retainedOrder where topic != status?.topic {
                    if let payload = retained[topic] { send(mosq, topic: topic, payload: payload, retain: true) }
                }
                everConnected = true
                everConnectedHere = true
                for message in startBacklog {
                    send(mosq, topic: message.topic, payload: message.payload, retain: false)
                }
                startBacklog = []
                let wasOut = outage.recovered()
                if wasOut, !subscriptions.isEmpty {
                    let now = monotonicSeconds()
                    resubscribeAt = Self.resubscribeDelays.map { now + $0 }
                }
                condition.unlock()
                onConnected()
                if wasOut {
                    notice(
                        "\(displayName) is reachable again"
                            + (configuration.brokers.count > 1 ? " (on \(broker.shown))" : ""))
                }
                continue
            }
            if connected, let due = resubscribeAt.first, monotonicSeconds() >= due {
                resubscribeAt.removeFirst()
                // A subscription made again has the broker send its retained messages again.
                for subscription in subscriptions {
                    mosquitto_subscribe(mosq, nil, subscription.topic, subscription.carries.qos)
                }
            }
            if connected, !sweepSubscribed, !sweepFilters.isEmpty {
                sweepSubscribed = true
                for filter in sweepFilters { mosquitto_subscribe(mosq, nil, filter, 1) }
            }
            if connected, !staleTopics.isEmpty {
                for topic in staleTopics { send(mosq, topic: topic, payload: [], retain: true) }
                staleTopics = []
            }
            condition.unlock()
        }
        condition.lock()
        connected = false
        handle = nil
        generation += 1
        inflight.removeAll()
        condition.broadcast()
        condition.unlock()
        return ending
    }

    /// Why `broker` does not take a TCP connection within `tcpConnectWait`, nil when it does (the
    /// connection is closed at once): libmosquitto's blocking connect, which follows, then finds a
    /// host that answers.
    private func tcpProblem(_ broker: MQTTBroker) -> BrokerCause? {
        do throws(SocketError) {
            try TCPSocket.connect(host: broker.host, port: broker.port, timeout: tcpConnectWait).close()
            return nil
        } catch {
            switch (error.operation, error.errno) {
            case ("connect", .timedOut?): return .noTCPConnection(within: Int(tcpConnectWait))
            case (_, let errno?): return .tcp(systemSaid: errno.description)
            case (_, nil): return .cannotResolve(resolverSaid: error.detail?.text ?? error.description)
            }
        }
    }

    /// `mosquitto_connect`; with MQTT 5, `mosquitto_connect_bind_v5` and the session expiry interval,
    /// without which an MQTT 5 session ends with its connection.
    private func connect(_ mosq: OpaquePointer, to broker: MQTTBroker) -> Int32 {
        let keepalive = Int32(configuration.keepalive)
        guard configuration.protocolVersion == .v5 else {
            return mosquitto_connect(mosq, broker.host, Int32(broker.port), keepalive)
        }
        var properties: OpaquePointer?
        defer { mosquitto_property_free_all(&properties) }
        let rc = mosquitto_property_add_int32(
            &properties, Int32(MQTT_PROP_SESSION_EXPIRY_INTERVAL.rawValue), Self.sessionExpiry)
        guard rc == MOSQ_ERR_SUCCESS.rawValue else { return rc }
        return mosquitto_connect_bind_v5(mosq, broker.host, Int32(broker.port), keepalive, nil, properties)
    }

    /// Protocol, will, credentials, TLS and callbacks of a fresh handle.
    private func configure(_ mosq: OpaquePointer) -> BrokerCause? {
        mosquitto_threaded_set(mosq, true)
        let version = configuration.protocolVersion == .v5 ? MQTT_PROTOCOL_V5 : MQTT_PROTOCOL_V311
        mosquitto_int_option(mosq, MOSQ_OPT_PROTOCOL_VERSION, version)
        mosquitto_int_option(mosq, MOSQ_OPT_TCP_NODELAY, 1)
        var rc = MOSQ_ERR_SUCCESS.rawValue
        if let will {
            let willBytes = Array(will.payload.utf8)
            rc = willBytes.withUnsafeBytes { bytes in
                mosquitto_will_set(mosq, will.topic, Int32(bytes.count), bytes.baseAddress, 1, true)
            }
            guard rc == MOSQ_ERR_SUCCESS.rawValue else { return .setUp(.lastWill, library: Self.describe(rc)) }
        }
        if let username = configuration.username {
            rc = mosquitto_username_pw_set(mosq, username, configuration.password)
            guard rc == MOSQ_ERR_SUCCESS.rawValue else { return .setUp(.credentials, library: Self.describe(rc)) }
        }
        if configuration.usesTLS {
            let certificate = configuration.clientCertificate
            if let caFile = configuration.caFile {
                rc = mosquitto_tls_set(mosq, caFile, nil, certificate?.certificateFile, certificate?.keyFile, nil)
            } else if FileManager.default.fileExists(atPath: "/etc/ssl/certs") {
                // Debian's system CA store (ca-certificates), as a hashed folder.
                rc = mosquitto_tls_set(
                    mosq, nil, "/etc/ssl/certs", certificate?.certificateFile, certificate?.keyFile, nil)
            } else {
                rc = mosquitto_int_option(mosq, MOSQ_OPT_TLS_USE_OS_CERTS, 1)
                if rc == MOSQ_ERR_SUCCESS.rawValue, let certificate {
                    rc = mosquitto_tls_set(mosq, nil, nil, certificate.certificateFile, certificate.keyFile, nil)
                }
            }
            guard rc == MOSQ_ERR_SUCCESS.rawValue else { return .setUp(.tls, library: Self.describe(rc)) }
        }
        mosquitto_connect_callback_set(mosq) { mosq, context, code in
            guard let context else { return }
            Unmanaged<MQTTConnection>.fromOpaque(context).takeUnretainedValue().connackReceived(mosq, code: code)
        }
        mosquitto_disconnect_callback_set(mosq) { mosq, context, _ in
            guard let context else { return }
            Unmanaged<MQTTConnection>.fromOpaque(context).takeUnretainedValue().disconnected(mosq)
        }
        mosquitto_message_callback_set(mosq) { mosq, context, message in
            guard let context, let message else { return }
            let payload =
                message.pointee.payloadlen > 0 && message.pointee.payload != nil
                ? Array(UnsafeRawBufferPointer(start: message.pointee.payload, count: Int(message.pointee.payloadlen)))
                : []
            Unmanaged<MQTTConnection>.fromOpaque(context).takeUnretainedValue().messageReceived(
                mosq, topic: message.pointee.topic.map { String(cString: $0) } ?? "", payload: payload,
                retained: message.pointee.retain)
        }
        mosquitto_publish_callback_set(mosq) { mosq, context, mid in
            guard let context else { return }
            Unmanaged<MQTTConnection>.fromOpaque(context).takeUnretainedValue().acknowledged(mosq, mid: mid)
        }
        return nil
    }

    // Callbacks: on this object's thread, from inside `mosquitto_loop`. Kept short; they never
    // call back into libmosquitto.

    private func connackReceived(_ mosq: OpaquePointer?, code: Int32) {
        condition.lock()
        defer { condition.unlock() }
        guard mosq == handle else { return }
        if code == 0 {
            connected = true
        } else {
            // MQTT 5 reason codes are 128 and up; 3.1.1 CONNACK codes are 1 to 5.
            refusal = String(cString: code >= 128 ? mosquitto_reason_string(code) : mosquitto_connack_string(code))
        }
        condition.broadcast()
    }

    private func disconnected(_ mosq: OpaquePointer?) {
        condition.lock()
        defer { condition.unlock() }
        guard mosq == handle else { return }
        connected = false
        condition.broadcast()
    }

    /// A message on a subscription goes to its receiver. A retained message under a
    /// sweep filter that this process does not publish is stale: it is cleared from the loop. Home
    /// Assistant's status topic said `online`: announce again (status, then every retained topic),
    /// from the loop, not from inside this callback. A retained `online` (there at the
    /// subscription) is not a restart: the configs were just published.
    private func messageReceived(_ mosq: OpaquePointer?, topic: String, payload: [UInt8], retained: Bool) {
        condition.lock()
        defer { condition.unlock() }
        guard mosq == handle else { return }
        for subscription in subscriptions where subscription.topic == topic {
            subscription.receive(payload, retained)
        }
        if retained, !payload.isEmpty, sweepFilters.contains(where: { Self.topic(topic, matches: $0) }) {
            if self.retained[topic]?.isEmpty ?? true { staleTopics.append(topic) }
            return
        }
        guard !retained, topic == configuration.homeAssistant?.statusTopic,
            String(decoding: payload, as: UTF8.self) == "online"
        else { return }
        announced = false
    }

    private func acknowledged(_ mosq: OpaquePointer?, mid: Int32) {
        condition.lock()
        defer { condition.unlock() }
        guard mosq == handle else { return }
        inflight.remove(mid)
        condition.broadcast()
    }

    /// `mosquitto_topic_matches_sub`: whether `topic` is under the filter `filter`.
    static func topic(_ topic: String, matches filter: String) -> Bool {
        var result = false
        return mosquitto_topic_matches_sub(filter, topic, &result) == MOSQ_ERR_SUCCESS.rawValue && result
    }

    static func describe(_ code: Int32) -> String {
        if code == MOSQ_ERR_ERRNO.rawValue { return lastErrorText() }
        return String(cString: mosquitto_strerror(code))
    }
}
