import Events
import GRDB

/// The track sync's place in the state file (docs/running.md, "Track sync"): one cursor per
/// server, the fix time of the last track point that server acknowledged. Points after the cursor
/// are the backlog; the cursor only moves forward, and only after an acknowledgement.
enum TrackSyncSchema {
    /// Migration "v4". `acked_time` starts below every fix time, so a new server gets the whole
    /// kept track. `unsent_pruned` counts the points `--keep-days` pruned before this server had
    /// them (never silently: `status` shows it).
    static let v4 = """
        CREATE TABLE sync_cursor (
            target TEXT PRIMARY KEY,
            acked_time INTEGER NOT NULL DEFAULT -9223372036854775808,
            acked_at INTEGER,
            last_error TEXT,
            last_error_at INTEGER,
            unsent_pruned INTEGER NOT NULL DEFAULT 0
        );
        """
}

/// One server's cursor as `status` shows it.
public struct SyncCursorRecord: Sendable, Equatable {
    public var target: String
    /// Fix time (ms since 1970) of the last acknowledged point; nil: none yet.
    public var ackedTime: Int64?
    /// Wall clock (ms) of that acknowledgement.
    public var ackedAt: Int64?
    public var lastError: String?
    public var lastErrorAt: Int64?
    /// Points pruned by `--keep-days` before this server acknowledged them.
    public var unsentPruned: Int
    /// Kept points after the cursor.
    public var backlog: Int
}

extension StateStore: TrackSyncStore {
    /// The cursor of `target`, created (at the start of the kept track) on first use: the fix time
    /// of the last point it acknowledged.
    public func openSyncCursor(target: String) throws -> Int64 {
        try database.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO sync_cursor (target) VALUES (?)", arguments: [target])
            return try Int64.fetchOne(
                db, sql: "SELECT acked_time FROM sync_cursor WHERE target = ?", arguments: [target]) ?? .min
        }
    }

    /// Up to `limit` kept points after `time`, oldest first.
    public func trackPoints(after time: Int64, limit: Int) throws -> [TrackPoint] {
        try database.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM track WHERE time > ? ORDER BY time LIMIT ?", arguments: [time, limit]
            ).map(TrackPoint.init(row:))
        }
    }

    /// How many kept points follow `time`, counted up to `cap` at most (the sender only needs to
    /// know whether its threshold is reached, and a week of backlog must not be counted each second).
    public func trackBacklog(after time: Int64, cap: Int) throws -> Int {
        try database.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM (SELECT 1 FROM track WHERE time > ? LIMIT ?)", arguments: [time, cap])
                ?? 0
        }
    }

    /// Writes what the sender keeps in memory: the cursor (only ever forward) and the last error.
    /// Called rarely (docs/running.md says when), never once per point.
    public func saveSyncCursor(
        target: String, ackedTime: Int64, ackedAt: Int64?, lastError: String?, lastErrorAt: Int64?
    ) throws {
        try database.write { db in
            try db.execute(
                sql: """
                    UPDATE sync_cursor SET acked_time = MAX(acked_time, ?), acked_at = COALESCE(?, acked_at),
                    last_error = COALESCE(?, last_error), last_error_at = COALESCE(?, last_error_at) WHERE target = ?
                    """,
                arguments: [ackedTime, ackedAt, lastError, lastErrorAt, target])
        }
    }

    /// Every server's cursor with its full backlog, in the order they were first used.
    public func syncCursors() throws -> [SyncCursorRecord] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM sync_cursor ORDER BY rowid").map { row in
                let acked: Int64 = row["acked_time"]
                return SyncCursorRecord(
                    target: row["target"], ackedTime: acked == .min ? nil : acked, ackedAt: row["acked_at"],
                    lastError: row["last_error"], lastErrorAt: row["last_error_at"],
                    unsentPruned: row["unsent_pruned"],
                    backlog: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM track WHERE time > ?", arguments: [acked])
                        ?? 0)
            }
        }
    }

    /// Every kept point after the cursor of `target`; nil when it has no cursor.
    public func syncBacklog(target: String) throws -> Int? {
        try syncCursors().first { $0.target == target }?.backlog
    }

    /// Inside the track's pruning transaction, before it deletes the `limit` oldest points older
    /// than `cutoff`: counts, for each server, those it never acknowledged. A server with nothing
    /// unsent among them is not written at all (no page for the storage write budget).
    static func countUnsentBeforePruning(_ db: Database, cutoff: Int64, limit: Int) throws {
        try db.execute(
            sql: """
                UPDATE sync_cursor SET unsent_pruned = unsent_pruned + (
                  SELECT COUNT(*) FROM (SELECT time FROM track WHERE time < ? ORDER BY time LIMIT ?) AS doomed
                  WHERE doomed.time > sync_cursor.acked_time)
                WHERE EXISTS (SELECT 1 FROM track WHERE time < ? AND time > sync_cursor.acked_time)
                """,
            arguments: [cutoff, limit, cutoff])
    }

    /// The motion state (`stationary` or `moving`) in force at `time`: the last motion event at or
    /// before it, nil when there was none.
    public func motion(at time: Int64) throws -> String? {
        try database.read { db in
            try String.fetchOne(
                db,
                sql:
                    "SELECT type FROM event WHERE type IN ('stationary', 'moving') AND time <= ? ORDER BY time DESC, seq DESC LIMIT 1",
                arguments: [time])
        }
    }

    /// The motion events after `from` up to `through`, oldest first: (time, type).
    public func motionChanges(after from: Int64, through: Int64) throws -> [(time: Int64, type: String)] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT time, type FROM event WHERE type IN ('stationary', 'moving') AND time > ? AND time <= ? ORDER BY time, seq",
                arguments: [from, through]
            ).map { ($0["time"], $0["type"]) }
        }
    }
}

extension TrackPoint {
    init(row: Row) {
        self.init(
            time: row["time"], lat: row["lat"], lon: row["lon"], altitude: row["altitude"], speed: row["speed"],
            course: row["course"], accuracy: row["accuracy"], satellites: row["satellites"], hdop: row["hdop"])
    }
}
