import Events
import Fences
import Foundation
import JSONOutput
import NMEA
import Platform
import Synchronization

/// `PREFIX/event` as an outbox target: one event is delivered when the broker's PUBACK for it
/// came back (QoS 1). `OutboxDelivery` supplies the order and the retries. A row may also carry the
/// event's OwnTracks transition (`MQTTSink.outboxPayload`), which goes to its own topic and must be
/// acknowledged too: transitions are as durable, and as ordered, as the events.
public final class MQTTEventTransport: OutboxTransport {
    public let connection: MQTTConnection
    public var target: String { connection.configuration.target }
    public var displayName: String { connection.displayName }
    /// Whether the last failure was the broker being away (the connection reports that itself).
    let lastFailureWasConnection = Atomic<Bool>(false)
    /// Whether the delivery said an outage of its own (not the connection's), whose end it says.
    let outageSaid = Atomic<Bool>(false)
    let ackTimeout = 10.0

    /// Holds OwnTracks locations behind the transitions this transport has yet to deliver.
    let ownTracksOrder: OwnTracksOrder

    init(connection: MQTTConnection, ownTracksOrder: OwnTracksOrder) {
        self.connection = connection
        self.ownTracksOrder = ownTracksOrder
    }

    public func send(_ item: OutboxItem) -> DeliveryOutcome {
        var messages = [(MQTTMessages.eventTopic(prefix: connection.configuration.prefix), item.body)]
        if let transition = item.transition, let ownTracks = connection.configuration.ownTracks {
            messages.append((ownTracks.topic + "/event", transition))
        }
        for (topic, payload) in messages {
            // Waiting a little for the connection covers the first event racing the first CONNACK.
            if let failure = connection.publishAcknowledged(
                topic: topic, payload: Array(payload.utf8), connectWait: 2, ackTimeout: ackTimeout)
            {
                lastFailureWasConnection.store(!connection.isConnected, ordering: .relaxed)
                return .failed(failure)
            }
        }
        lastFailureWasConnection.store(false, ordering: .relaxed)
        if item.transition != nil { publishHeldLocations(ownTracksOrder.transitionDelivered(item.eventID)) }
        return .delivered
    }

    public func caughtUp() { publishHeldLocations(ownTracksOrder.caughtUp()) }

    /// Queued after the transition's PUBACK, so they reach the broker after it.
    private func publishHeldLocations(_ locations: [[UInt8]]) {
        guard let ownTracks = connection.configuration.ownTracks else { return }
        for location in locations { connection.publishRetained(topic: ownTracks.topic, payload: location) }
    }
}

/// `--mqtt URL` (docs/mqtt.md): every event to `PREFIX/event` (and each OwnTracks transition with its
/// event) through the durable outbox, and the latest-wins retained topics (status, fence states,
/// location, OwnTracks location) straight from the engine thread without waiting (they only queue
/// a packet).
public final class MQTTSink: EventSink, @unchecked Sendable {
    /// `EventSink`'s calls come in the engine's turn, one thread at a time.
    private let engineTurn = OneThreadAtATime("MQTTSink (the engine's turn)")
    public let configuration: MQTTConfiguration
    public let connection: MQTTConnection
    public let delivery: OutboxDelivery
    private let prefix: String
    private let outbox: any EventOutbox
    private let ownTracksOrder = OwnTracksOrder()

    // Engine thread only. Changed in `deliver`, after the commit, never in `outboxPayload` (inside
    // the commit's transaction, which may roll back).
    /// The engine's fence states (`attach`).
    private weak var engine: (any FenceStateReading)?
    private var lastLocation: UTCTime?
    private let maxAccuracy: Double
    /// The fences marked `"owntracks": true` in `regionFences` (the fence set of the last event).
    private var regionFences: FenceSet?
    private var regions: [Int] = []
    /// `--homeassistant`: the fence configs published (cleared when their fence leaves the set),
    /// whether the device's own configs were, the receiver's state, whether the fix is usable (no
    /// fix is, before the first), the motion and today's odometer.
    private var fenceConfigTopics: Set<String> = []
    /// Where the run's problems are said (as `error` events: console, state file).
    private let report: @Sendable (Problem) -> Void
    /// The last word said about fences left without a Home Assistant sensor, said once per change.
    private var unpublishedFencesSaid: BrokerProblem?
    private var deviceConfigsPublished = false
    private var receiverConnected = true
    private var fixUsable = false
    private var motion: HomeAssistantMotion?
    /// The anchor circle of the current fence set, with an anchor watch (`run --anchor`).
    private var anchor: CircleShape?
    private var lastReceiver: (fix: Fix, time: UTCTime)?
    private var odometer: OdometerToday

    /// - Parameters:
    ///   - maxAccuracy: fixes with a worse accuracy estimate are not usable (docs/events.md) and are not
    ///     published as the location.
    ///   - ownTracksCommands: with `--owntracks` on `run`, where OwnTracks `setWaypoints` commands go
    ///     (docs/mqtt.md, "OwnTracks regions").
    ///   - alarmAnswers: a run's alarm: where `ack` on `PREFIX/alarm/set` goes; `showsAlarm`: with
    ///     `--homeassistant`, the alarm's entities too (docs/mqtt.md).
    ///   - drainsOnFinish: a replay waits (at most `drainTimeout` seconds) for the outbox to empty
    ///     before it ends.
    public init(
        configuration: MQTTConfiguration, outbox: any EventOutbox, maxAccuracy: Double = 100, drainsOnFinish: Bool,
        drainTimeout: Double = 30, ownTracksCommands: OwnTracksCommandInbox? = nil,
        alarmAnswers: AlarmAnswers? = nil, showsAlarm: Bool = false, report: @escaping @Sendable (Problem) -> Void
    ) {
        self.configuration = configuration
        odometer = OdometerToday(calendar: configuration.calendar)
        self.report = report
        self.showsAlarm = showsAlarm && alarmAnswers != nil
        self.maxAccuracy = maxAccuracy
        self.outbox = outbox
        let prefix = configuration.prefix
        self.prefix = prefix
        let client = configuration.clientID
        connection = MQTTConnection(
            configuration: configuration,
            will: .init(
                topic: MQTTMessages.statusTopic(prefix: prefix),
                payload: MQTTMessages.status("offline", time: nil, client: client)),
            onlineStatus: {
                (
                    MQTTMessages.statusTopic(prefix: prefix),
                    MQTTMessages.status("online", time: currentUTCTime(), client: client)
                )
            },
            report: report)
        if let ownTracks = configuration.ownTracks, let inbox = ownTracksCommands {
            // Retained or not: a retained command comes again at each connection, and is applied
            // again (the same regions again change nothing; docs/mqtt.md).
            let topic = ownTracks.topic + "/cmd"
            connection.subscribe(
                .init(topic: topic, carries: .commands) { payload, _ in inbox.put(payload, topic: topic) })
        }
        if let alarmAnswers {
            let topic = MQTTMessages.alarmCommandTopic(prefix: prefix)
            connection.subscribe(
                .init(topic: topic, carries: .commands) { payload, retained in
                    MQTTMessages.alarmCommand(
                        payload, retained: retained, topic: topic, answers: alarmAnswers, report: report)
                })
        }
        let transport = MQTTEventTransport(connection: connection, ownTracksOrder: ownTracksOrder)
        var policy = OutboxDelivery.Policy()
        // The connection does the real backoff against the broker; the outbox only waits to try
        // the same event again, so a short cap means delivery resumes soon after a reconnect.
        policy.baseDelay = 0.5
        policy.maximumDelay = 5
        policy.drainTimeout = drainTimeout
        delivery = OutboxDelivery(
            transport: transport, outbox: outbox, policy: policy, drainsOnFinish: drainsOnFinish,
            report: { problem in
                // The connection already said the broker is away (and will say when it is back);
                // the delivery's own words are for failures while connected (a missing PUBACK).
                if !transport.lastFailureWasConnection.load(ordering: .relaxed) {
                    transport.outageSaid.store(true, ordering: .relaxed)
                    report(problem)
                }
            },
            notice: { message in
                // Back after an outage the delivery itself said; the connection says its own.
                if transport.outageSaid.exchange(false, ordering: .relaxed) { DeliveryNotice.standardError(message) }
            })
    }

    public var outboxTarget: String? { delivery.outboxTarget }
    public var observesFixes: Bool { true }
    /// Right after the commit, like the console: what leaves the machine as an event (`PREFIX/event`,
    /// the OwnTracks transitions) goes through the outbox, which hands out only rows the WAL sync
    /// has covered (docs/running.md, "Power cuts"). What is published at once are mirrors of the
    /// present (retained fence states, location, Home Assistant's states), which must keep the
    /// order of the fixes they describe and which the next start publishes again from the state
    /// file; a power cut can only make them run a few milliseconds ahead of the disk.
    /// The alarm's last event, waiting for storage before it becomes the retained `PREFIX/alarm`.
    private var unsyncedAlarm: [UInt8]?
    /// An `integrity` event was retained: what an earlier run left is replaced.
    private var integrityPublished = false
    /// Whether Home Assistant gets the alarm's entities (a run whose alarm can sound).
    private let showsAlarm: Bool
    public var waitsForStorage: Bool { false }
    public func outboxSynced() {
        delivery.wake()
        if let alarm = unsyncedAlarm {
            connection.publishRetained(topic: MQTTMessages.alarmTopic(prefix: prefix), payload: alarm)
            unsyncedAlarm = nil
        }
    }

    public func start() {
        // Transitions a previous run left in the outbox go out before any location of this run.
        if configuration.ownTracks != nil, ((try? outbox.counters(target: configuration.target).pending) ?? 0) > 0 {
            ownTracksOrder.holdForBacklog()
        }
        connection.start()
        delivery.start()
    }

    public func attach(_ engine: any FenceStateReading) { self.engine = engine }

    /// The event, and for an enter or exit of a fence marked `"owntracks": true`, with
    /// `--owntracks`, its OwnTracks transition (`MQTTEventTransport` publishes both). The
    /// transition's `wtst` is when the fence was registered, as the engine has it (a replay's first
    /// fix registers the fences in the same commit as its events, at the fix's own time).
    public func outboxPayload(for event: OutgoingEvent, fences: FenceSet) -> OutboxPayload {
        let happening = event.event
        guard happening.kind.isTransition, let ownTracks = configuration.ownTracks, let fence = happening.fence,
            FenceMark.ownTracks.isOn(fences, fence),
            let transition = MQTTMessages.ownTracksTransition(
                happening, fences: fences, registered: engine?.registrationTime(fence) ?? happening.time,
                tid: ownTracks.tid)
        else { return OutboxPayload(body: event.json) }
        return OutboxPayload(body: event.json, transition: transition)
    }

    public func deliver(_ event: OutgoingEvent, fences: FenceSet) {
        let claim = engineTurn.enter()
        defer { engineTurn.leave(claim) }
        delivery.deliver(event, fences: fences)
        let happening = event.event
        switch happening.payload {
        case .enter, .exit:
            guard let fence = happening.fence else { break }
            // The event itself says what changed, and when.
            publishState(fences.ids[fence], name: fences.name(fence), state: (happening.kind == .enter, happening.time))
            if configuration.ownTracks != nil, FenceMark.ownTracks.isOn(fences, fence) {
                ownTracksOrder.transitionCommitted(event.id)
            }
        case .registered(let list, _):
            for fence in list {
                let id = fences.ids[fence]
                // Inside or out as the engine has it (restored, or kept over a reload); a fence
                // that never changed is outside since it was registered.
                let state = engine?.fenceState(fence) ?? (inside: false, since: nil)
                publishState(id, name: fences.name(fence), state: (state.inside, state.since ?? happening.time))
            }
        case .unregistered(let list):
            for fence in list {
                let id = fences.ids[fence]
                // An empty retained message deletes the retained state on the broker.
                connection.publishRetained(topic: MQTTMessages.fenceTopic(prefix: prefix, id: id), payload: [])
            }
        case .deviceLost, .deviceConnected:
            receiverConnected = happening.kind == .deviceConnected
            publishReceiver()
        case .fixLost, .fixAcquired:
            fixUsable = happening.kind == .fixAcquired
            publishReceiver()
        case .stationary, .moving:
            motion = HomeAssistantMotion(happening.kind)
            publishReceiver()
        case .alarm, .alarmAcknowledged, .alarmCleared:
            // Retained once the event is on storage (`outboxSynced`): a power cut must not take
            // back an alarm that Home Assistant already showed.
            unsyncedAlarm = Array(event.json.utf8)
        case .integrity:
            connection.publishRetained(
                topic: MQTTMessages.integrityTopic(prefix: prefix), payload: Array(event.json.utf8))
            integrityPublished = true
        case .dwell, .visit, .cross, .approach, .speeding, .heartbeat, .error, .anchorWarning:
            break
        }
        if fences !== regionFences {
            let first = regionFences == nil
            refreshRegions(fences)
            refreshHomeAssistant(fences)
            // Every fence state (and config) of the first set is published now: what an earlier
            // run left for fences that are no longer in the file is cleared.
            if first { connection.sweepRetained(under: retainedPerFence) }
            if first, let status = engine?.alarmStatus { publishAlarmAtStart(status) }
            if first, !integrityPublished { publishIntegrityAtStart(happening.time) }
        }
        if configuration.homeAssistant != nil {
            // Home Assistant's event entity: `event_type` and the event's own fields. Live only
            // (HA ignores retained events; PREFIX/event is the durable record).
            let payload = JSONBuffer(capacity: event.json.utf8.count + 64)
            payload.beginObject()
            payload.key("event_type")
            payload.value(happening.kind.rawValue)
            payload.appendMembers(ofObject: event.json)
            payload.endObject()
            connection.publishLive(topic: HomeAssistantDiscovery.eventTopic(prefix: prefix), payload: payload.bytes)
        }
    }

    /// The retained topics a fence set fills: the fence states, and with `--homeassistant` the
    /// discovery configs of this node.
    private var retainedPerFence: [String] {
        // `PREFIX/fence/ID` with every id as one level (MQTTMessages.fenceTopic escapes a `/`).
        let states = prefix + "/fence/+"
        guard let homeAssistant = configuration.homeAssistant else { return [states] }
        return [states, homeAssistant.configTopic("+", "+")]
    }

    /// `--homeassistant`: the device's configs once, one occupancy config per chosen fence of this
    /// fence set and the anchor's sensors while it has an anchor; the configs of entities no longer
    /// there are cleared.
    private func refreshHomeAssistant(_ fences: FenceSet) {
        guard let homeAssistant = configuration.homeAssistant else { return }
        let version = configuration.softwareVersion
        if !deviceConfigsPublished {
            deviceConfigsPublished = true
            let alarm = showsAlarm ? homeAssistant.alarmEntities(prefix: prefix) : []
            for entity in homeAssistant.deviceEntities(prefix: prefix) + alarm {
                let config = homeAssistant.config(entity, prefix: prefix, version: version)
                connection.publishRetained(topic: config.topic, payload: Array(config.payload.utf8))
            }
        }
        let occupancy = HomeAssistantDiscovery.occupancyFences(fences)
        var entities = occupancy.map { index in
            homeAssistant.fenceEntity(prefix: prefix, id: fences.ids[index], name: fences.name(index))
        }
        let unpublished = HomeAssistantDiscovery.unpublishedFences(total: fences.count, published: occupancy.count)
        if let unpublished, unpublished != unpublishedFencesSaid { report(.broker(unpublished)) }
        unpublishedFencesSaid = unpublished
        let anchorBefore = anchor
        anchor = (0..<fences.count).first { FenceLayers.isAnchor(fences, $0) }.flatMap(fences.circle)
        if anchor != nil { entities += homeAssistant.anchorEntities(prefix: prefix) }
        var topics: Set<String> = []
        for entity in entities {
            let config = homeAssistant.config(entity, prefix: prefix, version: version)
            topics.insert(config.topic)
            connection.publishRetained(topic: config.topic, payload: Array(config.payload.utf8))
        }
        if anchor != anchorBefore { publishReceiver() }
        // An empty retained config removes the entity from Home Assistant.
        for gone in fenceConfigTopics.subtracting(topics).sorted() {
            connection.publishRetained(topic: gone, payload: [])
        }
        fenceConfigTopics = topics
    }

    /// A run begins trusting the fix: `ok` replaces what an earlier run left retained (its
    /// `jammed` would otherwise stand until the monitor changes its mind).
    private func publishIntegrityAtStart(_ time: UTCTime) {
        let payload = JSONBuffer(capacity: 96)
        payload.beginObject()
        payload.key("state")
        payload.value(IntegrityState.ok.rawValue)
        payload.key("reasons")
        payload.beginArray()
        payload.endArray()
        payload.key("since")
        time.writeJSON(to: payload)
        payload.endObject()
        connection.publishRetained(topic: MQTTMessages.integrityTopic(prefix: prefix), payload: payload.bytes)
        integrityPublished = true
    }

    /// The alarm as the state file had it when the run began, so that a dashboard shows it (an
    /// alarm that still sounds is then said again by its event, with its cause). An acknowledged
    /// alarm keeps what its last event left retained.
    private func publishAlarmAtStart(_ status: AlarmStatus) {
        guard status != .acknowledged else { return }
        var payload = JSONLine()
        payload.add("state", status.rawValue)
        connection.publishRetained(
            topic: MQTTMessages.alarmTopic(prefix: prefix), payload: Array(payload.string.utf8))
    }

    /// The device tracker's attributes and the receiver sensors (retained).
    private func publishHomeAssistantState(_ fix: Fix, time: UTCTime) {
        guard configuration.homeAssistant != nil else { return }
        lastReceiver = (fix, time)
        connection.publishRetained(
            topic: HomeAssistantDiscovery.trackerTopic(prefix: prefix),
            payload: Array(MQTTMessages.homeAssistantTracker(fix).utf8))
        publishReceiver()
    }

    private func publishReceiver() {
        guard configuration.homeAssistant != nil else { return }
        connection.publishRetained(
            topic: HomeAssistantDiscovery.receiverTopic(prefix: prefix),
            payload: Array(
                MQTTMessages.homeAssistantReceiver(
                    lastReceiver?.fix, connected: receiverConnected, fixUsable: fixUsable, motion: motion,
                    odometerToday: odometer.metres, anchor: anchor, anchorMaxDistance: engine?.anchorMaxDistance
                ).utf8))
    }

    /// A new fence set (the first, or a reload): its OwnTracks regions, and their waypoints.
    private func refreshRegions(_ fences: FenceSet) {
        regionFences = fences
        guard let ownTracks = configuration.ownTracks else { return }
        regions = FenceMark.ownTracks.indices(in: fences)
        let circles = regions.compactMap { index in
            fences.circle(index).map { circle in
                (
                    region: Self.region(fences, index), circle: circle,
                    registered: engine?.registrationTime(index) ?? UTCTime(millisecondsSinceEpoch: 0)
                )
            }
        }
        connection.publishRetained(
            topic: ownTracks.topic + "/waypoints", payload: Array(MQTTMessages.ownTracksWaypoints(circles).utf8))
    }

    static func region(_ fences: FenceSet, _ index: Int) -> MQTTMessages.OwnTracksRegion {
        let rid = fences.ids[index].text
        return MQTTMessages.OwnTracksRegion(rid: rid, desc: fences.name(index) ?? rid)
    }

    public func observeAfterJump(_ fix: Fix) {
        let claim = engineTurn.enter()
        defer { engineTurn.leave(claim) }
        odometer.restart(at: fix)
        observe(fix)
    }

    public func observe(_ fix: Fix) {
        let claim = engineTurn.enter()
        defer { engineTurn.leave(claim) }
        guard let time = fix.time, fix.latitude.isFinite, fix.longitude.isFinite else { return }
        if let accuracy = fix.accuracy, accuracy > maxAccuracy { return }
        if configuration.homeAssistant != nil {
            odometer.add(fix, time: time)
            // A usable fix after `fix_lost` is shown at once, not at the next location.
            if !fixUsable {
                fixUsable = true
                lastReceiver = (fix, time)
                publishReceiver()
            }
        }
        // Fix time, not the wall clock: a replay at any speed publishes the same locations.
        if let last = lastLocation,
            abs(Double(time.millisecondsSinceEpoch - last.millisecondsSinceEpoch)) / 1000
                < configuration.locationInterval
        {
            return
        }
        lastLocation = time
        connection.publishRetained(
            topic: MQTTMessages.locationTopic(prefix: prefix),
            payload: Array(MQTTMessages.location(fix, time: time).utf8))
        publishHomeAssistantState(fix, time: time)
        if let ownTracks = configuration.ownTracks, let fences = regionFences {
            let inside = regions.filter { engine?.fenceState($0).inside == true }.map { Self.region(fences, $0) }
            if let text = MQTTMessages.ownTracksLocation(fix, time: time, tid: ownTracks.tid, inside: inside),
                let now = ownTracksOrder.location(Array(text.utf8))
            {
                connection.publishRetained(topic: ownTracks.topic, payload: now)
            }
        }
    }

    /// A live run stops delivering; a replay drains its outbox (bounded), while its reports can
    /// still become `error` events.
    public func stop() {
        delivery.stop()
    }

    /// Events first (a replay delivers what its drain reported), then the retained `offline` status
    /// and a clean disconnect (so the broker keeps the will for a crash).
    public func finish() {
        delivery.finish()
        connection.stop(
            finalStatus: (
                MQTTMessages.statusTopic(prefix: prefix),
                MQTTMessages.status("offline", time: currentUTCTime(), client: configuration.clientID)
            ))
    }

    private func publishState(_ id: FenceID, name: String?, state: (inside: Bool, since: UTCTime)) {
        connection.publishRetained(
            topic: MQTTMessages.fenceTopic(prefix: prefix, id: id),
            payload: Array(MQTTMessages.fenceState(id: id, name: name, inside: state.inside, since: state.since).utf8))
    }
}
