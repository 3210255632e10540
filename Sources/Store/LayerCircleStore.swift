import Fences
import GRDB

/// The fence layers' circles (the anchor, OwnTracks regions: docs/running.md, "Fence layers"),
/// kept so that a restart runs on the same ones. One row per circle; `position` keeps the order
/// the commands gave.
enum LayerCircleSchema {
    static let migrationName = "layer-circles-v1"
    static let sql = """
        CREATE TABLE layer_circle (
            layer TEXT NOT NULL,
            id TEXT NOT NULL,
            name TEXT,
            lat REAL NOT NULL,
            lon REAL NOT NULL,
            radius REAL NOT NULL,
            position INTEGER NOT NULL,
            PRIMARY KEY (layer, id)
        );
        """
}

extension StateStore {
    /// The saved circles of `layer`, in their order. A row that does not read back (a damaged file)
    /// is left out.
    public func layerCircles(_ layer: LayerCircle.Layer) throws -> [LayerCircle] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT id, name, lat, lon, radius, created FROM layer_circle WHERE layer = ? ORDER BY position",
                arguments: [layer.rawValue]
            ).compactMap { row in
                guard let id = row.stored("id", as: String.self), let lat = row.stored("lat", as: Double.self),
                    let lon = row.stored("lon", as: Double.self), let radius = row.stored("radius", as: Double.self)
                else { return nil }
                return LayerCircle(
                    layer: layer, id: id, name: row.stored("name", as: String.self),
                    circle: CircleShape(lat: lat, lon: lon, radius: radius),
                    created: row.stored("created", as: Int64.self))
            }
        }
    }

    /// Replaces the saved circles of `layer` with `circles`, in one transaction.
    public func saveLayerCircles(_ layer: LayerCircle.Layer, _ circles: [LayerCircle]) throws {
        try database.write { db in
            try db.execute(sql: "DELETE FROM layer_circle WHERE layer = ?", arguments: [layer.rawValue])
            for (position, circle) in circles.enumerated() {
                try db.execute(
                    sql:
                        "INSERT INTO layer_circle (layer, id, name, lat, lon, radius, position, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    arguments: [
                        layer.rawValue, circle.id, circle.name, circle.circle.lat, circle.circle.lon,
                        circle.circle.radius, position, circle.created,
                    ])
            }
        }
    }
}

/// The largest distance of the boat from the anchor so far (docs/running.md, "At anchor"), on the
/// anchor's row: a new anchor (a new row) starts without one.
enum AnchorMaxDistanceSchema {
    static let migrationName = "anchor-max-distance"
    static let sql = "ALTER TABLE layer_circle ADD COLUMN max_distance REAL"
}

extension StateStore {
    /// The largest distance from the saved anchor so far, in metres; nil before the first fix.
    public func anchorMaxDistance() throws -> Double? {
        try database.read { db in
            try Row.fetchOne(db, sql: "SELECT max_distance FROM layer_circle WHERE layer = 'anchor'")?
                .stored("max_distance", as: Double.self)
        }
    }

    public func saveAnchorMaxDistance(_ metres: Double) throws {
        try database.write { db in
            try db.execute(
                sql: "UPDATE layer_circle SET max_distance = ? WHERE layer = 'anchor'", arguments: [metres])
        }
    }
}
