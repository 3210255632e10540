import Foundation

/// The vertices of a GeoJSON (RFC 7946) LineString: a bare geometry, a Feature, or the first
/// LineString or MultiLineString feature of a FeatureCollection. Positions are [lon, lat, alt?].
enum GeoJSONRoute {
    static func parse(_ data: Data, file: String) throws(InputError) -> [RoutePoint] {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw InputError(message: "\(file): not valid JSON (\(error.localizedDescription))")
        }
        guard let object = root as? [String: Any] else {
            throw InputError(message: "\(file): a GeoJSON object is expected at the top level")
        }
        guard let lines = try lineStrings(object, file: file), !lines.isEmpty else {
            throw InputError(
                message: "\(file): no LineString to follow (a route wants a LineString or MultiLineString)")
        }
        var points: [RoutePoint] = []
        for (lineIndex, line) in lines.enumerated() {
            for (index, position) in line.enumerated() {
                let place = "\(file): LineString \(lineIndex), position \(index)"
                guard let numbers = position as? [Any], numbers.count >= 2,
                    let longitude = (numbers[0] as? NSNumber)?.doubleValue,
                    let latitude = (numbers[1] as? NSNumber)?.doubleValue
                else { throw InputError(message: "\(place): a position is [lon, lat] or [lon, lat, alt]") }
                guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
                    throw InputError(message: "\(place): [\(longitude), \(latitude)] is out of range")
                }
                let altitude = numbers.count > 2 ? (numbers[2] as? NSNumber)?.doubleValue : nil
                points.append(RoutePoint(latitude: latitude, longitude: longitude, altitude: altitude))
            }
        }
        return points
    }

    private static func lineStrings(_ object: [String: Any], file: String) throws(InputError) -> [[Any]]? {
        switch object["type"] as? String {
        case "LineString":
            return (object["coordinates"] as? [Any]).map { [$0] }
        case "MultiLineString":
            return (object["coordinates"] as? [Any])?.compactMap { $0 as? [Any] }
        case "Feature":
            guard let geometry = object["geometry"] as? [String: Any] else { return nil }
            return try lineStrings(geometry, file: file)
        case "FeatureCollection":
            for case let feature as [String: Any] in object["features"] as? [Any] ?? [] {
                if let lines = try lineStrings(feature, file: file), !lines.isEmpty { return lines }
            }
            return nil
        default:
            return nil
        }
    }
}
