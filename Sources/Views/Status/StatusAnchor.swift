import Events
import Fences
import JSONOutput
import NMEA
import Store

/// The anchor watch in `gpsfence status` (docs/running.md, "At anchor"): where the anchor is, its
/// radius, and how far the last fix was from it.
public struct AnchorStatus: Sendable {
    public var lat: Double
    public var lon: Double
    public var radius: Double
    /// Metres from the anchor to the last fix, when there is one.
    public var distance: Double?
    /// Whether the state file has the receiver inside the anchor circle.
    public var inside: Bool

    /// The saved anchor of `store`; nil when the run has none.
    static func read(_ store: StateStore, receiver: ReceiverRecord, states: [FenceStateRecord]) throws -> AnchorStatus?
    {
        guard let anchor = try store.layerCircles(.anchor).first else { return nil }
        var distance: Double?
        if let lat = receiver.lastLat, let lon = receiver.lastLon {
            distance = Geodesy.haversine(lat1: anchor.circle.lat, lon1: anchor.circle.lon, lat2: lat, lon2: lon)
        }
        let inside = states.contains { $0.fenceID == .string(anchor.id) && $0.inside }
        return AnchorStatus(
            lat: anchor.circle.lat, lon: anchor.circle.lon, radius: anchor.circle.radius, distance: distance,
            inside: inside)
    }

    var json: String {
        var object = JSONLine()
        object.add("lat", lat, decimals: JSONPrecision.coordinate)
        object.add("lon", lon, decimals: JSONPrecision.coordinate)
        object.add("radius", radius)
        object.add("distance", distance.map { ($0 * 10).rounded() / 10 })
        object.add("inside", inside)
        return object.string
    }

    /// Two lines under the receiver's.
    func lines(units: MeasurementUnits) -> [String] {
        let position =
            "\(formatted(lat, decimals: JSONPrecision.coordinate)), \(formatted(lon, decimals: JSONPrecision.coordinate))"
        let away =
            distance.map { units.distance($0) + " from it" + ($0 > radius ? ", OUTSIDE the circle" : "") }
            ?? "no fix yet"
        return [
            "  anchor         \(position), radius \(units.distance(radius))",
            "                 \(away)",
        ]
    }
}
