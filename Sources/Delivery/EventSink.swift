import Events
import Fences
import NMEA

/// Where events go. Sinks are called on the engine thread, or on a live source's reader thread when
/// it holds the engine's turn (one of the two at a time, never both: docs/architecture.md), and
/// must return quickly: anything slow (a hook, a webhook) queues the event and works on it
/// elsewhere.
public protocol EventSink: AnyObject {
    /// The outbox target this sink delivers from (a webhook URL, a broker), if any: the engine
    /// commits one outbox row per event for it before `deliver` is called.
    var outboxTarget: String? { get }
    /// What that outbox row carries: the event's JSON, and MQTT's OwnTracks transition. Asked on
    /// the engine thread, in event order, for each new event inside the commit's transaction
    /// (which may roll back), so before `deliver`: it must only read, never change, the sink.
    func outboxPayload(for event: OutgoingEvent, fences: FenceSet) -> OutboxPayload
    /// Called once before the first event, on the engine thread.
    func start()
    /// The engine's present (inside, since when), given before the first event: a sink that
    /// mirrors it (MQTT's retained fence topics) reads it there, on the engine thread, instead of
    /// keeping a copy of its own.
    func attach(_ engine: any FenceStateReading)
    func deliver(_ event: OutgoingEvent, fences: FenceSet)
    /// Whether `observe` wants every fix (a location feed); most sinks see only events.
    var observesFixes: Bool { get }
    /// Every fix the engine processed, after that fix's events were delivered; engine thread.
    func observe(_ fix: Fix)
    /// As `observe`, for a fix the receiver jumped to (a jump confirmed by two fixes,
    /// docs/running.md "Receiver glitches"): the way to it was not driven.
    func observeAfterJump(_ fix: Fix)
    /// Whether the sink may see an event only once it is on storage for real (synced, not just
    /// committed), so that a power cut cannot take back what it passed on: true for everything
    /// that leaves the machine or runs a program; the console and the bell are immediate.
    var waitsForStorage: Bool { get }
    /// Outbox rows up to now are synced and may be handed out: a sink that delivers from the
    /// outbox but sees its events before the sync (`waitsForStorage` false) wakes its sender here.
    func outboxSynced()
    /// Called once at the end of a run: flush what is buffered.
    func finish()
    /// Called at the end of a run before any sink's `finish`: end background work within a bounded
    /// time and report what was cut short (through the sink's report function), while the other
    /// sinks still take the resulting `error` events. Most sinks have nothing to do.
    func stop()
}

extension EventSink {
    public func stop() {}
    public var outboxTarget: String? { nil }
    public func outboxPayload(for event: OutgoingEvent, fences: FenceSet) -> OutboxPayload {
        OutboxPayload(body: event.json)
    }
    public func start() {}
    public func attach(_ engine: any FenceStateReading) {}
    public var observesFixes: Bool { false }
    public var waitsForStorage: Bool { true }
    public func outboxSynced() {}
    public func observe(_ fix: Fix) {}
    public func observeAfterJump(_ fix: Fix) { observe(fix) }
}

/// What a sink may need from the run that holds it.
public struct SinkContext: Sendable {
    /// Problems for `error` events (a hook failing, a webhook down), raised on the engine thread.
    public let reportProblem: @Sendable (Problem) -> Void
    /// The durable outbox (the state file), when the run has one.
    public let outbox: (any EventOutbox)?
    /// Whether the input is a replay that ends: delivery sinks then finish their queue before the
    /// process exits, waiting at most `drainTimeout` seconds.
    public let inputEnds: Bool
    public let drainTimeout: Double
    /// The state file's path, when the run has one: identities that must stay the same across
    /// restarts (the MQTT client id) derive from it.
    public let statePath: String?

    public init(
        reportProblem: @escaping @Sendable (Problem) -> Void, outbox: (any EventOutbox)?, inputEnds: Bool,
        drainTimeout: Double = 30, statePath: String? = nil
    ) {
        self.reportProblem = reportProblem
        self.outbox = outbox
        self.inputEnds = inputEnds
        self.drainTimeout = drainTimeout
        self.statePath = statePath
    }
}
