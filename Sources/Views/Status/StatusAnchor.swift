import Events
import Fences
import JSONOutput
import NMEA
import Presentation
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
    /// Degrees true from the last fix to the anchor.
    public var bearing: Double? = nil
    /// The largest distance from the anchor so far, in metres.
    public var maxDistance: Double? = nil

    /// The saved anchor of `store`; nil when the run has none.
    static func read(_ store: StateStore, receiver: ReceiverRecord, states: [FenceStateRecord]) throws -> AnchorStatus?
    {
        guard let anchor = try store.layerCircles(.anchor).first else { return nil }
        var distance: Double?
        var bearing: Double?
        if let lat = receiver.lastLat, let lon = receiver.lastLon {
            distance = Geodesy.haversine(lat1: anchor.circle.lat, lon1: anchor.circle.lon, lat2: lat, lon2: lon)
            bearing = Geodesy.bearing(lat1: lat, lon1: lon, lat2: anchor.circle.lat, lon2: anchor.circle.lon)
        }
        let inside = states.contains { $0.fenceID == .string(anchor.id) && $0.inside }
        // The run writes the largest distance every few seconds: the last fix may be beyond it.
        let largest = [try store.anchorMaxDistance(), distance].compactMap { $0 }.max()
        return AnchorStatus(
            lat: anchor.circle.lat, lon: anchor.circle.lon, radius: anchor.circle.radius, distance: distance,
            inside: inside, bearing: bearing, maxDistance: largest)
    }

    var json: String {
        var object = JSONLine()
        object.add("lat", lat, decimals: JSONPrecision.coordinate)
        object.add("lon", lon, decimals: JSONPrecision.coordinate)
        object.add("radius", radius)
        object.add("distance", distance.map { ($0 * 10).rounded() / 10 })
        object.add("inside", inside)
        object.add("bearing", bearing.map { $0.rounded() })
        object.add("max_distance", maxDistance.map { ($0 * 10).rounded() / 10 })
        return object.string
    }

    /// Two lines under the receiver's.
    func lines(units: MeasurementUnits) -> [String] {
        let position = units.position(lat: lat, lon: lon)
        let away =
            distance.map { metres in
                units.distance(metres) + " from it"
                    + (bearing.map { ", bearing \(Int($0.rounded()) % 360)°" } ?? "")
                    + (metres > radius ? ", OUTSIDE the circle" : "")
            }
            ?? "no fix yet"
        let largest = maxDistance.map { "                 at most \(units.distance($0)) from it so far" }
        return [
            "  anchor         \(position), radius \(units.distance(radius))",
            "                 \(away)",
        ] + (largest.map { [$0] } ?? [])
    }
}
