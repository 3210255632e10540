/// Fewer pages per event's commit (migration `v5-fewer-pages`, docs/performance.md "Live cost"): the
/// event log and the outbox rebuilt without AUTOINCREMENT (its counter page was written with every
/// event), the outbox's pending index holding only undelivered rows (a delivered row's entry no
/// longer moves), and the fence states keyed by their id alone (`WITHOUT ROWID`: one b-tree, not a
/// table and its index). Every column, row and seq is kept.
enum FewerPagesSchema {
    static let migration = """
        CREATE TABLE fence_state_keyed (
            fence_id TEXT PRIMARY KEY,
            geometry_hash INTEGER NOT NULL,
            inside INTEGER NOT NULL,
            enter_time INTEGER NOT NULL,
            dwell_fired INTEGER NOT NULL
        ) WITHOUT ROWID;
        INSERT OR IGNORE INTO fence_state_keyed (fence_id, geometry_hash, inside, enter_time, dwell_fired)
            SELECT fence_id, geometry_hash, inside, enter_time, dwell_fired FROM fence_state WHERE fence_id IS NOT NULL;
        DROP TABLE fence_state;
        ALTER TABLE fence_state_keyed RENAME TO fence_state;
        CREATE TABLE event_plain (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            type TEXT NOT NULL,
            time INTEGER NOT NULL,
            fence_id TEXT,
            json TEXT NOT NULL
        );
        INSERT INTO event_plain (seq, id, type, time, fence_id, json)
            SELECT seq, id, type, time, fence_id, json FROM event ORDER BY seq;
        DROP TABLE event;
        ALTER TABLE event_plain RENAME TO event;
        CREATE TABLE outbox_plain (
            seq INTEGER PRIMARY KEY,
            endpoint TEXT NOT NULL,
            event_id TEXT NOT NULL,
            body TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            next_attempt INTEGER NOT NULL DEFAULT 0,
            delivered_at INTEGER,
            last_error TEXT,
            transition TEXT,
            UNIQUE(endpoint, event_id)
        );
        INSERT INTO outbox_plain (seq, endpoint, event_id, body, attempts, next_attempt, delivered_at, last_error, transition)
            SELECT seq, endpoint, event_id, body, attempts, next_attempt, delivered_at, last_error, transition
            FROM outbox ORDER BY seq;
        DROP TABLE outbox;
        ALTER TABLE outbox_plain RENAME TO outbox;
        CREATE INDEX outbox_pending ON outbox(endpoint, seq) WHERE delivered_at IS NULL;
        """
}
