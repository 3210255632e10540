/// Fewer index pages per event's commit (migration `leaner-indexes`, docs/performance.md "Live
/// cost"). Every index an event touches adds a page to the commit, and the WAL and its index in the
/// `-shm` file with it:
/// - the outbox loses its UNIQUE(endpoint, event_id) index: a row is only ever added for an event
///   the same commit has just added to the log (whose id is unique), so it guarded nothing, while its
///   random keys put every new row on another page;
/// - a visit is keyed by its enter time and event id in one b-tree (`WITHOUT ROWID`), in place of a
///   table, the index of its unique event id and the index by enter time: three pages a visit become
///   one, at the end where the newest visits are;
/// - an outbox row's body may be NULL: the event's own JSON, kept once in the event log (a webhook's
///   body is the event itself; with 1 KB pages a second copy of a few hundred bytes was a page every
///   other event).
/// Every column and row is kept.
enum LeanerIndexesSchema {
    static let migrationName = "leaner-indexes"

    static let migration = """
        CREATE TABLE outbox_lean (
            seq INTEGER PRIMARY KEY,
            endpoint TEXT NOT NULL,
            event_id TEXT NOT NULL,
            body TEXT,
            attempts INTEGER NOT NULL DEFAULT 0,
            next_attempt INTEGER NOT NULL DEFAULT 0,
            delivered_at INTEGER,
            last_error TEXT,
            transition TEXT
        );
        INSERT INTO outbox_lean (seq, endpoint, event_id, body, attempts, next_attempt, delivered_at, last_error, transition)
            SELECT seq, endpoint, event_id, body, attempts, next_attempt, delivered_at, last_error, transition
            FROM outbox ORDER BY seq;
        DROP TABLE outbox;
        ALTER TABLE outbox_lean RENAME TO outbox;
        CREATE INDEX outbox_pending ON outbox(endpoint, seq) WHERE delivered_at IS NULL;
        CREATE TABLE visit_lean (
            event_id TEXT NOT NULL,
            fence_id TEXT NOT NULL,
            fence_name TEXT,
            enter_time INTEGER NOT NULL,
            exit_time INTEGER NOT NULL,
            duration REAL NOT NULL,
            PRIMARY KEY (enter_time, event_id)
        ) WITHOUT ROWID;
        INSERT OR IGNORE INTO visit_lean (event_id, fence_id, fence_name, enter_time, exit_time, duration)
            SELECT event_id, fence_id, fence_name, enter_time, exit_time, duration FROM visit;
        DROP TABLE visit;
        ALTER TABLE visit_lean RENAME TO visit;
        """
}
