/// The kept track as the track sync reads it, and the cursor it moves (docs/running.md, "Track
/// sync"): one cursor per server, the fix time of the last point that server acknowledged.
///
/// Like `EventOutbox`, it lives here so that both ends point down to it: the state store implements
/// it, and the sync's sender in Delivery consumes it, without either knowing the other.
public protocol TrackSyncStore: Sendable {
    /// Where the track is kept, for messages.
    var path: String { get }
    /// The cursor of `target`, created (at the start of the kept track) on first use.
    func openSyncCursor(target: String) throws -> Int64
    /// Up to `limit` kept points after `time`, oldest first.
    func trackPoints(after time: Int64, limit: Int) throws -> [TrackPoint]
    /// How many kept points follow `time`, counted up to `cap` at most.
    func trackBacklog(after time: Int64, cap: Int) throws -> Int
    /// Writes the cursor (only ever forward) and the last error the sender keeps in memory.
    func saveSyncCursor(target: String, ackedTime: Int64, ackedAt: Int64?, lastError: String?, lastErrorAt: Int64?)
        throws
    /// Every kept point after the cursor of `target`; nil when it has no cursor.
    func syncBacklog(target: String) throws -> Int?
    /// The motion state (`stationary` or `moving`) in force at `time`; nil when there was none.
    func motion(at time: Int64) throws -> String?
    /// The motion events after `from` up to `through`, oldest first.
    func motionChanges(after from: Int64, through: Int64) throws -> [(time: Int64, type: String)]
}
