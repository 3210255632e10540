import GRDB

extension StateStore {
    /// The event log's lines after the one numbered `seq` (0: from the start), oldest first, at
    /// most `limit`: what a reader that has seen up to `seq` is missing, each with its number.
    /// The lines are as logged (the event's JSON, docs/events.md).
    public func eventLines(after seq: Int64, limit: Int) throws -> [(seq: Int64, json: String)] {
        try database.read { db in
            try Row.fetchAll(
                db, sql: "SELECT seq, json FROM event WHERE seq > ? ORDER BY seq LIMIT ?", arguments: [seq, limit]
            ).map { row in (row["seq"], row["json"]) }
        }
    }

    /// The newest `count` lines of the event log, oldest first, each with its number.
    public func latestEventLines(_ count: Int) throws -> [(seq: Int64, json: String)] {
        try database.read { db in
            try Row.fetchAll(
                db, sql: "SELECT seq, json FROM event ORDER BY seq DESC LIMIT ?", arguments: [count]
            ).map { row in (row["seq"], row["json"]) }.reversed()
        }
    }
}
