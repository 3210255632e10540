import Events
import Fences
import GRDB

/// The state file is the durable outbox of docs/running.md: `commit` adds one row per event and target in
/// the same transaction as the event; the delivery sinks take rows out in order. (The column keeps
/// its first name, `endpoint`, from when webhooks were the only target.)
extension StateStore: EventOutbox {
    public func nextUndelivered(target: String) throws -> OutboxItem? {
        let unmarked = notYetMarked(target: target)
        var arguments: StatementArguments = [target, durableOutboxRow]
        arguments += unmarked.arguments
        return try database.read { db in
            try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT seq, endpoint, event_id,
                          COALESCE(body, (SELECT json FROM event WHERE event.id = outbox.event_id)) AS body,
                          transition, attempts, next_attempt FROM outbox
                        WHERE endpoint = ? AND delivered_at IS NULL AND seq <= ? AND \(unmarked.sql) ORDER BY seq LIMIT 1
                        """),
                arguments: arguments
            ).map { row in
                // Clamped: `attempts + 1` and waiting until `next_attempt` must not overflow.
                OutboxItem(
                    seq: row["seq"], target: target, eventID: row.stored("event_id") ?? "",
                    body: row.stored("body") ?? "", transition: row.stored("transition"),
                    attempts: min(max(row.stored("attempts", as: Int.self) ?? 0, 0), 1_000_000),
                    nextAttempt: min(max(row.storedTime("next_attempt") ?? 0, 0), 1 << 48))
            }
        }
    }

    /// Kept in memory until the next write to the file carries it (`DeliveredMarks`).
    public func markDelivered(_ item: OutboxItem, at time: Int64) throws {
        let full = deliveredMarks.withLock { marks in
            marks.add(DeliveredMarks.Mark(seq: item.seq, target: item.target, time: time))
            return marks.isFull
        }
        if full { try persistDeliveredMarks() }
    }

    public func persistDeliveredMarks() throws {
        guard deliveredMarks.withLock({ !$0.marks.isEmpty }) else { return }
        try database.write { db in try writeDeliveredMarks(db) }
    }

    public func markFailed(_ item: OutboxItem, error: String, retryAt time: Int64) throws {
        try database.write { db in
            try db.execute(
                sql:
                    "UPDATE outbox SET attempts = attempts + 1, next_attempt = ?, last_error = ?, last_error_at = ? WHERE seq = ?",
                arguments: [time, error, Self.wallClock(), item.seq])
        }
    }

    public func counters(target: String) throws -> OutboxCounters {
        // A row delivered but not yet marked in the file counts as delivered (its attempts are
        // the same either way: the mark adds the successful one).
        let unmarked = notYetMarked(target: target)
        var arguments = unmarked.arguments
        arguments += unmarked.arguments
        arguments += [target]
        return try database.read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT
                      SUM(CASE WHEN delivered_at IS NULL AND \(unmarked.sql) THEN 0 ELSE 1 END) AS delivered,
                      SUM(CASE WHEN delivered_at IS NULL AND \(unmarked.sql) THEN 1 ELSE 0 END) AS pending,
                      SUM(CASE WHEN delivered_at IS NOT NULL THEN attempts - 1 ELSE attempts END) AS failed
                    FROM outbox WHERE endpoint = ?
                    """,
                arguments: arguments)
            let lastError = try Row.fetchOne(
                db,
                sql:
                    "SELECT last_error, last_error_at FROM outbox WHERE endpoint = ? AND last_error IS NOT NULL ORDER BY seq DESC LIMIT 1",
                arguments: [target])
            return OutboxCounters(
                delivered: row?["delivered"] ?? 0, pending: row?["pending"] ?? 0, failedAttempts: row?["failed"] ?? 0,
                lastError: lastError?["last_error"], lastErrorAt: lastError?["last_error_at"])
        }
    }

    /// Every target that has rows in the outbox (webhook URLs, MQTT brokers without their
    /// passwords) with its counters, in the order the targets first appeared: what `status` shows.
    public func outboxCounters() throws -> [(target: String, counters: OutboxCounters)] {
        let targets = try database.read { db in
            try String.fetchAll(db, sql: "SELECT endpoint FROM outbox GROUP BY endpoint ORDER BY MIN(seq)")
        }
        return try targets.map { ($0, try counters(target: $0)) }
    }
}
