import GRDB

/// Migration `run-targets`: when each failed delivery attempt happened (`outbox.last_error_at`),
/// the targets of the last run or replay (`receiver.run_targets`, one per line; NULL in a file no
/// run has noted them in), and whether that was a replay (`receiver.replayed`), whose fix times
/// are not now. Also when each OwnTracks region was made (`layer_circle.created`, its waypoint's
/// `tst`), so that a restart publishes it as the command gave it.
enum RunTargetsSchema {
    static let migrationName = "run-targets"

    static let migration = """
        ALTER TABLE outbox ADD COLUMN last_error_at INTEGER;
        ALTER TABLE receiver ADD COLUMN run_targets TEXT;
        ALTER TABLE receiver ADD COLUMN replayed INTEGER;
        ALTER TABLE layer_circle ADD COLUMN created INTEGER;
        """
}

extension StateStore {
    /// The delivery targets (webhooks, brokers, track sync servers) of the last run or replay;
    /// nil when no run noted them (a file from an older gpsfence): then every target counts as its.
    public func lastRunTargets() throws -> Set<String>? {
        try database.read { db in
            try String.fetchOne(db, sql: "SELECT run_targets FROM receiver WHERE id = 1")
        }.map { Set($0.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)) }
    }

    /// Removes what the state file holds for `target` (its outbox rows, delivered or waiting, and
    /// its track sync cursor) and nothing else. Returns how many rows went.
    @discardableResult
    public func forgetTarget(_ target: String) throws -> Int {
        try database.write { db in
            try db.execute(sql: "DELETE FROM outbox WHERE endpoint = ?", arguments: [target])
            var removed = db.changesCount
            try db.execute(sql: "DELETE FROM sync_cursor WHERE target = ?", arguments: [target])
            removed += db.changesCount
            return removed
        }
    }

    /// Every target the file holds rows for: the outbox's and the track sync's.
    public func knownTargets() throws -> [String] {
        try database.read { db in
            try String.fetchAll(
                db, sql: "SELECT endpoint FROM outbox GROUP BY endpoint UNION SELECT target FROM sync_cursor")
        }
    }
}
