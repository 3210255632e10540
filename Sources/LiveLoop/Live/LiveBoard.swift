import Events
import Platform
import Store

/// Where the engine leaves what a running run knows now (`LiveState`) for the readers on other
/// threads: the local channel that `status` asks (`LiveChannel`) and the web page. The engine only
/// ever replaces a value under a lock held for a copy, and calls the listeners, which must return
/// at once (they hand the news to a thread or task of their own): no reader can hold the engine.
public final class LiveBoard: Sendable {
    private let state: Locked<LiveState>
    private let recent: Locked<RecentTrack>
    private let listeners = Locked<[(token: Int, call: @Sendable () -> Void)]>([])
    private let nextToken = Locked(0)

    /// - Parameter recentTrackSeconds: how much of the track the board keeps in memory for the
    ///   web page (0: none; the state file has the track only once it is written).
    public init(monitoringSince: Int64, recentTrackSeconds: Int = 0) {
        state = Locked(LiveState(monitoringSince: monitoringSince))
        recent = Locked(RecentTrack(seconds: recentTrackSeconds))
    }

    /// A copy of the state now.
    public var snapshot: LiveState { state.withLock { $0 } }

    /// The points of the last `recentTrackSeconds` at or after `time` (ms since 1970), oldest first.
    public func recentTrack(since time: Int64) -> [TrackPoint] { recent.withLock { $0.points(since: time) } }

    /// Calls `onChange` after each change, on the engine's thread: it must not block.
    /// Returns the token that `stopListening` takes.
    public func listen(_ onChange: @escaping @Sendable () -> Void) -> Int {
        let token = nextToken.withLock { next in
            next += 1
            return next
        }
        listeners.withLock { $0.append((token, onChange)) }
        return token
    }

    public func stopListening(_ token: Int) {
        listeners.withLock { $0.removeAll { $0.token == token } }
    }

    /// The engine's change: applied under the lock, then told to the listeners.
    package func publish(point: TrackPoint? = nil, _ change: (inout LiveState) -> Void) {
        state.withLock { change(&$0) }
        if let point { recent.withLock { $0.append(point) } }
        for listener in listeners.withLock({ $0 }) { listener.call() }
    }
}

/// The last stretch of track, at most one point a second, in a ring that never grows past its
/// seconds.
struct RecentTrack {
    private var points: [TrackPoint] = []
    private var start = 0
    private let capacity: Int

    init(seconds: Int) { capacity = max(0, seconds) }

    mutating func append(_ point: TrackPoint) {
        guard capacity > 0 else { return }
        if let last = newest, point.time - last.time < 1000 { return }
        if points.count < capacity {
            points.append(point)
        } else {
            points[start] = point
            start = (start + 1) % capacity
        }
    }

    private var newest: TrackPoint? {
        points.isEmpty ? nil : points[(start + points.count - 1) % points.count]
    }

    func points(since time: Int64) -> [TrackPoint] {
        let ordered = points[start...] + points[..<start]
        return ordered.filter { $0.time >= time }
    }
}
