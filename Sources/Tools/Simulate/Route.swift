import Foundation
import LiveLoop
import NMEA
import Platform

/// What `gpsfence simulate` plays: a track to walk (GPX, GeoJSON) or a capture to replay.
public enum Route: Sendable {
    case track([RoutePoint])
    case capture([CaptureEpoch])

    /// Reads a route file, telling the format from its extension, else from its first character.
    public static func load(path: String) throws(InputError) -> Route {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError.unreadableRoute(
                path: path, cause: checkAccess(path, .read).map(FileFailure.errno) ?? .notReadable)
        }
        if let problem = FileKind.sniff(data.prefix(4096)).routeProblem(path) { throw problem }
        let lower = path.lowercased()
        let first = data.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        let route: Route
        if lower.hasSuffix(".gpx") || (first == 0x3C && !lower.hasSuffix(".json") && !lower.hasSuffix(".geojson")) {
            route = .track(try GPXRoute.parse(String(decoding: data, as: UTF8.self), file: path))
        } else if lower.hasSuffix(".geojson") || lower.hasSuffix(".json") || first == 0x7B {
            route = .track(try GeoJSONRoute.parse(data, file: path))
        } else {
            let epochs = CaptureRoute.parse(Array(data))
            guard epochs.contains(where: { $0.timeOfDay != nil }) else {
                throw InputError.route(path: path, at: nil, .unknownFormat)
            }
            route = .capture(epochs)
        }
        if case .track(let points) = route, points.isEmpty {
            throw InputError.route(path: path, at: nil, .noPoints)
        }
        return route
    }
}
