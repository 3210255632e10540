import Fences

/// Seeded generator (SplitMix64) so randomized tests are reproducible.
public struct SeededGenerator: RandomNumberGenerator {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Loads GeoJSON text, expecting success.
public func fenceSet(_ json: String) throws -> FenceSet { try FenceSet.parse(json) }

/// The error message for GeoJSON (or CSV) text that must be refused.
public func loadError(_ text: String, csv: Bool = false, file: String = "f.geojson") -> String? {
    do {
        _ = try FenceSet.parse(text, file: file, csv: csv)
        return nil
    } catch {
        return error.message
    }
}

public func collection(_ features: String...) -> String {
    "{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}"
}

public func circleFeature(id: String, lon: Double, lat: Double, radius: Double, extra: String = "") -> String {
    "{\"type\":\"Feature\",\"id\":\(id),\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(lon),\(lat)]},"
        + "\"properties\":{\"radius\":\(radius)\(extra)}}"
}

public func ringJSON(_ ring: [(Double, Double)]) -> String {
    "[" + ring.map { "[\($0.0),\($0.1)]" }.joined(separator: ",") + "]"
}

public func polygonFeature(id: String, rings: [[(Double, Double)]], properties: String = "{}") -> String {
    "{\"type\":\"Feature\",\"id\":\(id),\"geometry\":{\"type\":\"Polygon\",\"coordinates\":["
        + rings.map(ringJSON).joined(separator: ",") + "]},\"properties\":\(properties)}"
}

public func multiPolygonFeature(id: String, parts: [[[(Double, Double)]]]) -> String {
    "{\"type\":\"Feature\",\"id\":\(id),\"geometry\":{\"type\":\"MultiPolygon\",\"coordinates\":["
        + parts.map { "[" + $0.map(ringJSON).joined(separator: ",") + "]" }.joined(separator: ",")
        + "]},\"properties\":{}}"
}

public func hits(_ set: FenceSet, _ lat: Double, _ lon: Double) -> [Int] {
    let h = FenceHits()
    set.fences(containingLat: lat, lon: lon, into: h)
    return h.array
}

/// Closed square ring (lon, lat), counter-clockwise.
public func square(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> [(Double, Double)] {
    [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]
}
