import Foundation
import GRDB

/// The fence set last accepted from a broker (docs/running.md, "Fences from the broker"): its
/// GeoJSON as the broker sent it, kept so that a restart with the broker away runs on it.
enum AcceptedFenceSetSchema {
    /// Migration "fences-from-broker". One row per source (the broker URL without its password).
    static let table = """
        CREATE TABLE accepted_fence_set (
            source TEXT PRIMARY KEY,
            geojson BLOB NOT NULL,
            accepted_at INTEGER NOT NULL
        );
        """
}

/// A fence set kept in the state file.
public struct AcceptedFenceSet: Sendable, Equatable {
    public var geojson: [UInt8]
    /// Wall clock (ms since 1970) when it was accepted.
    public var acceptedAt: Int64
}

extension StateStore {
    /// Keeps `geojson` as the last good set from `source`, replacing the one before.
    public func saveAcceptedFenceSet(source: String, geojson: [UInt8], at time: Int64) throws {
        try database.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO accepted_fence_set (source, geojson, accepted_at) VALUES (?, ?, ?)",
                arguments: [source, Data(geojson), time])
        }
    }

    /// The last good set from `source`; nil when none was ever accepted.
    public func acceptedFenceSet(source: String) throws -> AcceptedFenceSet? {
        try database.read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT geojson, accepted_at FROM accepted_fence_set WHERE source = ?",
                    arguments: [source])
            else { return nil }
            let data: Data = row["geojson"]
            return AcceptedFenceSet(geojson: Array(data), acceptedAt: row["accepted_at"])
        }
    }
}
