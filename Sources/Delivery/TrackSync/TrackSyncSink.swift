import Events
import Fences
import Foundation
import NMEA
import Platform

/// `--sync URL` on `run` and `replay --state`: the sender works on a thread of its own from the
/// start; a `stationary` or `moving` event sends what is queued at once, below the threshold
/// too; at the end it sends the rest within `--drain-timeout`, and what is left waits in the
/// state file for the next run or `gpsfence sync`.
final class TrackSyncSink: EventSink {
    let sender: TrackSyncSender
    private let drainTimeout: Double
    private let store: any TrackSyncStore
    private let report: @Sendable (Problem) -> Void

    init(
        sender: TrackSyncSender, store: any TrackSyncStore, drainTimeout: Double,
        report: @escaping @Sendable (Problem) -> Void
    ) {
        self.sender = sender
        self.store = store
        self.drainTimeout = drainTimeout
        self.report = report
    }

    func start() { sender.start() }

    func deliver(_ event: OutgoingEvent, fences: FenceSet) {
        if Self.flushesAtOnce(event.event.kind) { sender.requestFlush() }
    }

    /// A stop and a start send what is queued at once (docs/running.md, "Track sync"). Every kind
    /// is named, so a new one is decided here.
    static func flushesAtOnce(_ kind: GeofenceEvent.Kind) -> Bool {
        switch kind {
        case .stationary, .moving: true
        case .enter, .exit, .dwell, .visit, .cross, .approach, .speeding, .fixLost, .fixAcquired, .deviceLost,
            .deviceConnected, .heartbeat, .registered, .unregistered, .error, .anchorWarning, .alarm,
            .alarmAcknowledged, .alarmCleared, .integrity:
            false
        }
    }

    /// Before the other sinks finish, so that a server still down at the end is an `error` event.
    func stop() {
        guard !sender.stop(drainUntil: monotonicSeconds() + drainTimeout) else { return }
        let left = (try? store.syncBacklog(target: sender.configuration.target)) ?? nil
        report(
            .delivery(
                .trackLeft(target: sender.displayName, points: left, statePath: store.path, drainTimeout: drainTimeout))
        )
    }

    func finish() {}
}

extension TrackSyncConfiguration {
    /// The sink of a run or replay with this configuration.
    public func sink(
        store: any TrackSyncStore, drainTimeout: Double, report: @escaping @Sendable (Problem) -> Void
    ) throws(TrackSyncError) -> EventSink {
        let sender: TrackSyncSender
        do { sender = try TrackSyncSender(configuration: self, store: store, report: report) } catch {
            throw .stateFile(path: store.path, cause: error)
        }
        return TrackSyncSink(sender: sender, store: store, drainTimeout: drainTimeout, report: report)
    }
}
