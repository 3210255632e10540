import Delivery
import Foundation
import LiveLoop
import NMEA
import Platform
import Presentation
import Store
import Views

/// `gpsfence sync`: sends the track backlog of a stopped run by hand (a laptop back on Wi-Fi),
/// with the same cursor, batches and backoff as `run --sync`, for at most `drainTimeout` seconds.
public struct SyncJob {
    public var statePath: String
    public var configuration: TrackSyncConfiguration
    public var drainTimeout = 30.0

    public init(statePath: String, configuration: TrackSyncConfiguration) {
        self.statePath = statePath
        self.configuration = configuration
    }

    /// Returns the points sent; throws `RuntimeFailure` (exit 1) when some are left.
    @discardableResult
    public func run() throws -> Int {
        guard FileManager.default.fileExists(atPath: statePath) else {
            throw StateFileMissing(path: statePath, need: .runState)
        }
        // A run that syncs sends the same points and moves the same cursor.
        let lock = try StateLock.acquire(statePath: statePath)
        defer { withExtendedLifetime(lock) {} }
        let store = try StateStore(path: statePath)
        var forcing = configuration
        // By hand, everything queued goes now: the threshold is for a run that will send later.
        forcing.threshold = 1
        let sender = try TrackSyncSender(configuration: forcing, store: store) { problem in
            OutputWriter.standardError.write(line: "gpsfence: \(problem.text)")
        }
        let before = try backlog(store)
        let deadline = monotonicSeconds() + drainTimeout
        sending: while monotonicSeconds() < deadline {
            switch try sender.step(force: true) {
            case .sent: continue
            case .waiting: break sending
            case .failed:
                guard let retryAt = sender.retryAt, retryAt < deadline else { break sending }
                napSeconds(max(retryAt - monotonicSeconds(), 0))
            }
        }
        sender.saveCursor()
        let left = try backlog(store)
        OutputWriter.standardOutput.write(
            line: "\(configuration.target): sent \(before - left) track points, \(left) remain queued")
        OutputWriter.standardOutput.flush()
        if left > 0 {
            throw RuntimeFailure.undelivered(
                target: configuration.target, .trackPoints(left, lastError: sender.lastError), within: drainTimeout)
        }
        return before - left
    }

    private func backlog(_ store: StateStore) throws -> Int {
        try store.syncCursors().first { $0.target == configuration.target }?.backlog ?? 0
    }
}
