import Foundation
import NMEA
import Platform
import Presentation

/// `--sync URL` and its options (docs/running.md, "Track sync").
public struct TrackSyncConfiguration: Sendable {
    public enum Format: String, Sendable, CaseIterable {
        /// One JSON object per batch (docs/formats.md).
        case json
        /// The OsmAnd protocol (Traccar), one request per point.
        case osmand
    }

    /// As given: the cursor's key in the state file.
    public var target: String
    public var url: URL
    public var format = Format.json
    /// `--sync-id`: the device name the server sees (default: the host name).
    public var device: String
    public var headers: [HTTPHeader] = []
    /// Points per request at most (`--sync-batch`).
    public var batch = 100
    /// Send once this many points are queued (`--sync-threshold`).
    public var threshold = 1
    /// Send whatever is queued at least this often, seconds (`--sync-interval`); nil: only by threshold.
    public var interval: Double?
    /// Backoff while the server is down (the outbox's: docs/running.md).
    public var backoff = OutboxDelivery.Policy()
    /// How long the cursor may stay in memory only, seconds: a `kill -9` or a power cut resends the
    /// points acknowledged in that time (the storage write budget: not one commit per request).
    public var cursorWriteInterval = 60.0
    public var requestTimeout = 10.0
    /// Whose days each point's `odometer` counts (the user's, as `status` shows "today").
    public var calendar = LocalCalendar.utc

    public init(target: String, device: String) throws(TrackSyncError) {
        guard let url = HTTPPoster.url(target) else {
            throw .notAnHTTPURL(target: target)
        }
        self.target = target
        self.url = url
        self.device = device
    }

    /// The name the server sees when `--sync-id` is not given.
    public static var defaultDevice: String { ProcessInfo.processInfo.hostName }
}

/// A track sync the user's options or state file cannot give (exit status 2). `description` is
/// its one rendering in words.
public enum TrackSyncError: Error, CustomStringConvertible, Sendable {
    /// `--sync URL`, as given, is not an http:// or https:// URL.
    case notAnHTTPURL(target: String)
    /// The state file cannot hold the sync's cursor (the store's error, which names the cause).
    case stateFile(path: String, cause: any Error)
    /// A point's OsmAnd request cannot be made into a URL from `--sync URL` (`target`, as given).
    case osmAndRequest(target: String)

    public var description: String {
        switch self {
        case .notAnHTTPURL(let target): "--sync \(target): not an http:// or https:// URL"
        case .stateFile(let path, let cause): "state file '\(path)': \(cause)"
        case .osmAndRequest(let target): "cannot build the OsmAnd request from --sync \(target)"
        }
    }
}

extension OutboxDelivery.Policy {
    /// The outbox's backoff, with jitter: between d/2 and d, d = base x 2^(attempts-1), capped.
    func delay(afterAttempts attempts: Int) -> Double {
        Backoff(initial: baseDelay, maximum: maximumDelay, jitter: true).delay(afterFailures: attempts)
    }
}
