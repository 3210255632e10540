import GRDB

/// One event waiting for (or past) delivery to one webhook endpoint.
public struct OutboxItem: Sendable, Equatable {
    public var seq: Int64
    public var endpoint: String
    public var eventID: String
    public var body: String
    public var attempts: Int
    /// Wall clock, ms since 1970: not before then.
    public var nextAttempt: Int64
}

/// Delivery counters of one endpoint (SPEC §7: "delivery counters are visible").
public struct OutboxCounters: Sendable, Equatable {
    public var delivered: Int
    public var pending: Int
    /// POSTs that failed, over all events.
    public var failedAttempts: Int
    public var lastError: String?
}

extension StateStore {
    /// The oldest undelivered event for `endpoint`: delivery is in order, so only this one may be
    /// tried (a later event never overtakes it).
    public func nextUndelivered(endpoint: String) throws -> OutboxItem? {
        try database.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT seq, endpoint, event_id, body, attempts, next_attempt FROM outbox
                    WHERE endpoint = ? AND delivered_at IS NULL ORDER BY seq LIMIT 1
                    """,
                arguments: [endpoint]
            ).map { row in
                // Clamped: `attempts + 1` and waiting until `next_attempt` must not overflow.
                OutboxItem(
                    seq: row["seq"], endpoint: endpoint, eventID: row.stored("event_id") ?? "",
                    body: row.stored("body") ?? "",
                    attempts: min(max(row.stored("attempts", as: Int.self) ?? 0, 0), 1_000_000),
                    nextAttempt: min(max(row.storedTime("next_attempt") ?? 0, 0), 1 << 48))
            }
        }
    }

    public func markDelivered(_ item: OutboxItem, at time: Int64) throws {
        try database.write { db in
            try db.execute(
                sql: "UPDATE outbox SET delivered_at = ?, attempts = attempts + 1 WHERE seq = ?", arguments: [time, item.seq])
        }
    }

    public func markFailed(_ item: OutboxItem, error: String, retryAt: Int64) throws {
        try database.write { db in
            try db.execute(
                sql: "UPDATE outbox SET attempts = attempts + 1, next_attempt = ?, last_error = ? WHERE seq = ?",
                arguments: [retryAt, error, item.seq])
        }
    }

    public func outboxCounters(endpoint: String) throws -> OutboxCounters {
        try database.read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT
                      SUM(CASE WHEN delivered_at IS NOT NULL THEN 1 ELSE 0 END) AS delivered,
                      SUM(CASE WHEN delivered_at IS NULL THEN 1 ELSE 0 END) AS pending,
                      SUM(CASE WHEN delivered_at IS NOT NULL THEN attempts - 1 ELSE attempts END) AS failed
                    FROM outbox WHERE endpoint = ?
                    """,
                arguments: [endpoint])
            let lastError = try String.fetchOne(
                db, sql: "SELECT last_error FROM outbox WHERE endpoint = ? AND last_error IS NOT NULL ORDER BY seq DESC LIMIT 1",
                arguments: [endpoint])
            return OutboxCounters(
                delivered: row?["delivered"] ?? 0, pending: row?["pending"] ?? 0, failedAttempts: row?["failed"] ?? 0,
                lastError: lastError)
        }
    }
}
