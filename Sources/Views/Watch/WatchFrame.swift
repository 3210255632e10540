import Events
import Fences
import Foundation
import NMEA
import Presentation
import Store

/// What one refresh of `status --watch` shows (docs/report.md, "Live view"): the status report
/// of `status`, plus what a moving user looks at: speed, course and satellites of the latest
/// track point, the fence ahead with its distance and eta, and the latest events.
public struct WatchFrame: Sendable {
    public struct Ahead: Sendable {
        public var id: String
        public var name: String?
        public var distance: Double
        /// Seconds at the current speed; nil when standing still.
        public var eta: Double?
    }

    public var status: StatusReport
    public var latest: TrackPoint?
    public var ahead: Ahead?
    /// Newest last; at most `WatchFrame.eventCount`, of the kinds `isListedInWatch`.
    public var events: [EventRecord]

    static let eventCount = 6
    /// How far ahead a fence is looked for along the course.
    static let lookAhead = 10_000.0
    /// Slower than this the course is noise: no fence is "ahead".
    static let movingSpeed = 0.5
}

/// Reads frames from a state file; keeps the fence set between frames until the fence file
/// changes, so that a refresh every second does not parse a large fence file every second.
public final class WatchReader {
    let statePath: String
    /// Whose "today" and "this month" the status counts.
    let calendar: LocalCalendar
    private var fences: (path: String, stamp: FenceFileStamp?, set: FenceSet)?

    public init(statePath: String, calendar: LocalCalendar = .utc) {
        self.statePath = statePath
        self.calendar = calendar
    }

    /// - Parameter live: what the running run answered on its local channel; its last fix is the
    ///   frame's, with its speed and course.
    public func frame(now: Int64, live: LiveState? = nil) throws -> WatchFrame {
        let status = try StatusReport.read(statePath: statePath, now: now, calendar: calendar, live: live)
        let store = try StateStore(path: statePath, access: .readOnly)
        let lastFix = status.receiver.lastFixTime ?? now
        let latest = try live?.fix ?? store.track(from: lastFix - 120_000).last
        let events = try store.eventRecords(from: lastFix - 86_400_000).filter(\.kind.isListedInWatch)
        var frame = WatchFrame(
            status: status, latest: latest, ahead: nil, events: Array(events.suffix(WatchFrame.eventCount)))
        if status.running, let latest, let speed = latest.speed, let course = latest.course,
            speed >= WatchFrame.movingSpeed,
            let set = fenceSet(status.receiver.fencesPath)
        {
            frame.ahead = Self.ahead(set, lat: latest.lat, lon: latest.lon, course: course, speed: speed)
        }
        return frame
    }

    func fenceSet(_ path: String?) -> FenceSet? {
        guard let path, !path.isEmpty else { return nil }
        let stamp = FenceFileStamp.read(path)
        if let cached = fences, cached.path == path, let stamp, stamp == cached.stamp {
            return cached.set
        }
        guard let set = try? FenceSet.load(path: path) else { return nil }
        fences = (path, stamp, set)
        return set
    }

    /// The nearest fence the course leads into (not one the position is inside).
    static func ahead(_ set: FenceSet, lat: Double, lon: Double, course: Double, speed: Double) -> WatchFrame.Ahead? {
        var best: WatchFrame.Ahead?
        for (fence, distance) in set.nearestFences(lat: lat, lon: lon, count: 32)
        where distance > 0 && distance <= WatchFrame.lookAhead {
            guard
                let along = set.distanceAlongRay(
                    toFence: fence, lat: lat, lon: lon, bearing: course, maxDistance: WatchFrame.lookAhead),
                along < (best?.distance ?? .infinity)
            else { continue }
            best = WatchFrame.Ahead(id: set.ids[fence].text, name: set.name(fence), distance: along, eta: along / speed)
        }
        return best
    }
}

extension GeofenceEvent.Kind {
    /// Whether the live view's recent events list it: all but the heartbeat, which says only that
    /// the run is alive (the header says that) and would push the events that matter off the list.
    var isListedInWatch: Bool {
        switch self {
        case .heartbeat: false
        case .enter, .exit, .dwell, .visit, .cross, .approach, .speeding, .fixLost, .fixAcquired, .deviceLost,
            .deviceConnected, .registered, .unregistered, .error, .stationary, .moving, .anchorWarning, .alarm,
            .alarmAcknowledged, .alarmCleared, .integrity:
            true
        }
    }
}
