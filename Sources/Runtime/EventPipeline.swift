import Alerts
import Geofence
import NMEA
import Store
import Synchronization

/// The engine thread's last step for `run` and `replay`: a fix's events go to the store first
/// (event log, fence states, webhook outbox, in one transaction), then to the sinks. A `kill -9`
/// at any moment therefore loses no event that was printed, and a restart restores the states
/// without a second `enter` (SPEC §8).
final class EventPipeline {
    private(set) var fences: FenceSet
    let store: StateStore?
    let sinks: [EventSink]
    let webhooks: [WebhookDelivery]
    private(set) var delivered = 0

    init(fences: FenceSet, store: StateStore?, sinks: [EventSink], webhooks: [WebhookDelivery]) {
        self.fences = fences
        self.store = store
        self.sinks = sinks
        self.webhooks = webhooks
    }

    /// Commits and hands on `events` (rendered against `set`, the fences they refer to), with the
    /// fence states after them.
    func deliver(_ events: [GeofenceEvent], insideStates: [FenceStateRecord], fences set: FenceSet? = nil) throws {
        guard !events.isEmpty else { return }
        let set = set ?? fences
        let outgoing = events.map { OutgoingEvent($0, fences: set) }
        let fresh = try store?.commit(
            events: outgoing, insideStates: insideStates, fences: set, webhookEndpoints: webhooks.map(\.endpoint))
            ?? outgoing
        for event in fresh {
            delivered += 1
            for sink in sinks { sink.deliver(event, fences: set) }
        }
        if !fresh.isEmpty { for webhook in webhooks { webhook.notify() } }
    }

    func replaceFences(_ set: FenceSet) { fences = set }

    /// Ends the sinks' background work (hooks), bounded; see `EventSink.stop`.
    func stopSinks() {
        for sink in sinks { sink.stop() }
    }

    func finish() {
        for sink in sinks { sink.finish() }
    }
}

/// Messages from sinks and delivery threads (a hook failing, a webhook down) waiting to become
/// `error` events on the engine thread.
final class ProblemReports: Sendable {
    private let pending = Mutex<[String]>([])

    var report: @Sendable (String) -> Void { { [self] message in pending.withLock { $0.append(message) } } }

    func take() -> [String] { pending.withLock { reports in defer { reports.removeAll() }; return reports } }
}
