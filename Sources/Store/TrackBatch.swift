import Events
import GRDB

/// What one track write puts in the state file: the buffered track rows, the odometer's new metres
/// per day, the last fix (for `status`), the alive stamp, and one batch of pruning. Written on its
/// own by `TrackRecorder.flush()`, or inside an event's commit (`StateStore.commit(..., track:)`),
/// whose sync to storage it then shares (docs/performance.md, "Live cost").
public struct TrackBatch: Sendable {
    var rows: [TrackPoint]
    var odometer: [Int64: Double]
    var latest: TrackPoint?
    var latestWall: Int64
    /// Fixes the run has not believed so far (`TrackRecorder.ignoredFixes`).
    var ignoredFixes: Int
    /// Wall-clock milliseconds of the write: the alive stamp.
    var now: Int64
    /// Track older than this (milliseconds of fix time) is pruned, a batch at a time; nil: none.
    var pruneBefore: Int64?

    /// Rows deleted per write at most when pruning.
    static let pruneBatch = 500

    func write(_ db: Database) throws {
        for row in rows {
            try db.executeCached(
                sql: """
                    INSERT OR REPLACE INTO track (time, lat, lon, altitude, speed, course, accuracy, satellites, hdop)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    row.time, row.lat, row.lon, row.altitude, row.speed, row.course, row.accuracy, row.satellites,
                    row.hdop,
                ])
        }
        for (day, metres) in odometer {
            try db.executeCached(
                sql:
                    "INSERT INTO odometer (day, metres) VALUES (?, ?) ON CONFLICT(day) DO UPDATE SET metres = metres + excluded.metres",
                arguments: [day, metres])
        }
        if let latest {
            try db.executeCached(
                sql: """
                    UPDATE receiver SET last_fix_time = ?, last_fix_wall = ?, last_lat = ?, last_lon = ?, last_accuracy = ?,
                    ignored_fixes = ?, updated_at = ? WHERE id = 1
                    """,
                arguments: [latest.time, latestWall, latest.lat, latest.lon, latest.accuracy, ignoredFixes, now])
        } else {
            try db.executeCached(
                sql: "UPDATE receiver SET ignored_fixes = ?, updated_at = ? WHERE id = 1",
                arguments: [ignoredFixes, now])
        }
        if let pruneBefore {
            try StateStore.countUnsentBeforePruning(db, cutoff: pruneBefore, limit: Self.pruneBatch)
            try db.executeCached(
                sql: "DELETE FROM track WHERE time IN (SELECT time FROM track WHERE time < ? ORDER BY time LIMIT ?)",
                arguments: [pruneBefore, Self.pruneBatch])
        }
    }
}
