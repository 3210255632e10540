/// The kind of shape a fence has.
public enum FenceKind: UInt8, Sendable {
    case circle
    /// A Polygon or MultiPolygon (parts with holes).
    case polygon
    /// A LineString or MultiLineString widened by a radius: the points within that many metres
    /// of the line on the sphere (docs/fences.md).
    case corridor
}

/// What the event engine needs to know about one fence, besides its geometry.
public struct FenceInfo: Sendable {
    /// Position in the fence file (0-based): the order of ties and of `check` output.
    public let index: Int
    public let id: FenceID
    public let name: String?
    public let kind: FenceKind
    public let settings: FenceSettings
    /// The feature's `properties` object exactly as written in the file (JSON text), `null` when
    /// absent; the CSV loader writes `{"name":...,"radius":...}`.
    public let propertiesJSON: String
}

/// A circle on the sphere.
public struct CircleShape: Sendable, Equatable {
    public var lat: Double, lon: Double, radius: Double
    public init(lat: Double, lon: Double, radius: Double) {
        self.lat = lat
        self.lon = lon
        self.radius = radius
    }
}

/// A closed ring of (lon, lat) positions, first == last.
public typealias Ring = [(lon: Double, lat: Double)]

/// A route and how far from it still counts as on it: lines of (lon, lat) vertices (one for a
/// LineString, several for a MultiLineString), each segment the great-circle arc between its
/// vertices, and a radius in metres.
public struct CorridorShape: Sendable {
    public var lines: [[(lon: Double, lat: Double)]]
    public var radius: Double
    public init(lines: [[(lon: Double, lat: Double)]], radius: Double) {
        self.lines = lines
        self.radius = radius
    }
}

/// Geometry of a fence as handed to `FenceSetBuilder`: a circle, polygon parts (each an exterior
/// ring followed by its holes), or a corridor.
public enum FenceShape: Sendable {
    case circle(CircleShape)
    case polygon([[Ring]])
    case corridor(CorridorShape)
}
