import Events
import Fences
import GRDB
import NMEA

/// The alarm's latch and the answers waiting for the run (docs/running.md, "Alarms"). The latch is
/// written in the commit of the event that changed it, so it is on storage before any sink that
/// waits for storage hears of the alarm, and a run that restarts finds it.
enum AlarmSchema {
    static let migrationName = "alarm-v1"
    static let sql = """
        CREATE TABLE alarm (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            cause_id TEXT NOT NULL,
            cause_type TEXT NOT NULL,
            fence_id TEXT,
            condition TEXT,
            unanswered INTEGER NOT NULL,
            raised_at INTEGER NOT NULL,
            distance REAL
        );
        CREATE TABLE alarm_request (
            seq INTEGER PRIMARY KEY,
            by TEXT NOT NULL,
            at INTEGER NOT NULL
        );
        """

    /// Replaces the latch (nil: no alarm) inside a commit.
    static func write(_ latch: AlarmLatch?, in db: Database) throws {
        try db.executeCached(sql: "DELETE FROM alarm")
        guard let latch else { return }
        try db.executeCached(
            sql: """
                INSERT INTO alarm (id, cause_id, cause_type, fence_id, condition, unanswered, raised_at, distance)
                VALUES (1, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                latch.cause.eventID, latch.cause.kind.rawValue, latch.fenceID?.json, latch.condition?.rawValue,
                latch.unanswered, latch.raisedAt.millisecondsSinceEpoch, latch.distance,
            ])
    }
}

extension StateStore {
    /// The alarm the state file holds; nil when there is none (or its row does not read back).
    public func alarmLatch() throws -> AlarmLatch? {
        try database.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM alarm WHERE id = 1"),
                let causeID = row.stored("cause_id", as: String.self),
                let kind = row.stored("cause_type", as: String.self).flatMap(GeofenceEvent.Kind.init(rawValue:)),
                let unanswered = row.stored("unanswered", as: Bool.self),
                let raisedAt = row.storedTime("raised_at")
            else { return nil }
            return AlarmLatch(
                cause: AlarmCause(eventID: causeID, kind: kind),
                fenceID: row.stored("fence_id", as: String.self).flatMap { FenceID(json: $0) },
                condition: row.stored("condition", as: String.self).flatMap(AlarmCondition.init(rawValue:)),
                unanswered: unanswered, raisedAt: UTCTime(millisecondsSinceEpoch: raisedAt),
                distance: row.stored("distance", as: Double.self))
        }
    }

    /// `gpsfence ack`: an answer for the run that holds the file (or the next one) to take.
    public func requestAcknowledgement(by who: AlarmAcknowledger, at time: UTCTime) throws {
        try database.write { db in
            try db.execute(
                sql: "INSERT INTO alarm_request (by, at) VALUES (?, ?)",
                arguments: [who.rawValue, time.millisecondsSinceEpoch])
        }
    }

    /// The answers waiting, oldest first; they are taken (removed).
    public func takeAcknowledgementRequests() throws -> [AlarmAcknowledger] {
        try database.write { db in
            let rows = try String.fetchAll(db, sql: "SELECT by FROM alarm_request ORDER BY seq")
            if !rows.isEmpty { try db.execute(sql: "DELETE FROM alarm_request") }
            return rows.compactMap(AlarmAcknowledger.init(rawValue:))
        }
    }
}
