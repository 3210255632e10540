import Fences

/// The durable queue between the engine and the delivery sinks (webhooks, MQTT): one row per event
/// and target, committed with the event before any sink sees it (docs/running.md).
///
/// It lives beside the event it carries so that both ends point down to it: the state store
/// implements it, and the delivery sinks in Delivery consume it, without either knowing the other.
public protocol EventOutbox: Sendable {
    /// The oldest undelivered event for `target`: delivery is in order, so only this one may be
    /// tried (a later event never overtakes it).
    func nextUndelivered(target: String) throws -> OutboxItem?
    func markDelivered(_ item: OutboxItem, at time: Int64) throws
    func markFailed(_ item: OutboxItem, error: String, retryAt time: Int64) throws
    func counters(target: String) throws -> OutboxCounters
    /// Writes the "delivered" marks the outbox may keep in memory to spare the disk (it writes
    /// them with its next commit); delivery calls it when it stops.
    func persistDeliveredMarks() throws
}

/// One event waiting for (or past) delivery to one target (a webhook URL, an MQTT broker).
public struct OutboxItem: Sendable, Equatable {
    public var seq: Int64
    public var target: String
    public var eventID: String
    /// The event's JSON line: a webhook's request body, MQTT's `PREFIX/event` message.
    public var body: String
    /// With MQTT and `--owntracks`, the OwnTracks transition of an `enter` or `exit`, published
    /// to its own topic with the event and acknowledged like it.
    public var transition: String?
    public var attempts: Int
    /// Wall clock, ms since 1970: not before then.
    public var nextAttempt: Int64

    public init(
        seq: Int64, target: String, eventID: String, body: String, transition: String? = nil, attempts: Int,
        nextAttempt: Int64
    ) {
        self.seq = seq
        self.target = target
        self.eventID = eventID
        self.body = body
        self.transition = transition
        self.attempts = attempts
        self.nextAttempt = nextAttempt
    }
}

/// Delivery counters of one target (docs/running.md: "delivery counters are visible").
public struct OutboxCounters: Sendable, Equatable {
    public var delivered: Int
    public var pending: Int
    /// Attempts that failed, over all events.
    public var failedAttempts: Int
    public var lastError: String?
    /// Wall clock (ms since 1970) of that error; nil in a file from before it was kept.
    public var lastErrorAt: Int64?

    public init(delivered: Int, pending: Int, failedAttempts: Int, lastError: String?, lastErrorAt: Int64? = nil) {
        self.delivered = delivered
        self.pending = pending
        self.failedAttempts = failedAttempts
        self.lastError = lastError
        self.lastErrorAt = lastErrorAt
    }
}

/// What one outbox row carries (see `OutboxItem`), as the sink that owns the target words it.
public struct OutboxPayload: Sendable, Equatable {
    public var body: String
    public var transition: String?

    public init(body: String, transition: String? = nil) {
        self.body = body
        self.transition = transition
    }
}
