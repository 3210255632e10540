import Fences
import Foundation
import JSONOutput
import NMEA
import Store

/// The field report's data for GIS tools (docs/report.md): GeoJSON (one FeatureCollection: the fences,
/// a LineString per continuous stretch of track, a Point per event with the event's properties)
/// and GPX 1.0 (a track segment per stretch with time, elevation and speed; events as waypoints).
/// Exports keep every usable fix: only the drawing is simplified.
public enum ReportExports {
    public static func geoJSON(_ report: FieldReport) -> String {
        var features: [String] = []
        for fence in 0..<report.fences.count {
            let info = report.fences.info(fence)
            let parts = polygons(report.fences.outline(fence)).map { part in
                "["
                    + part.map { ring in
                        "[" + ring.map { "[\(coordinate($0.lon)),\(coordinate($0.lat))]" }.joined(separator: ",") + "]"
                    }.joined(separator: ",") + "]"
            }
            let geometry =
                parts.count == 1
                ? "{\"type\":\"Polygon\",\"coordinates\":\(parts[0])}"
                : "{\"type\":\"MultiPolygon\",\"coordinates\":[\(parts.joined(separator: ","))]}"
            var properties = JSONLine()
            properties.add("kind", "fence")
            properties.addRaw("id", json: info.id.json)
            properties.add("name", info.name)
            switch report.fences.kinds[fence] {
            case .circle:
                if let circle = report.fences.circle(fence) { properties.add("radius", circle.radius) }
            case .corridor:
                // the outline drawn round the route; the radius says how wide it is
                if let corridor = report.fences.corridor(fence) { properties.add("radius", corridor.radius) }
            case .polygon:
                break
            }
            features.append(feature(properties.string, geometry))
        }
        for (index, stretch) in report.stretches.enumerated() where stretch.count >= 2 {
            var properties = JSONLine()
            properties.add("kind", "track")
            properties.add("stretch", index)
            properties.add("start", UTCTime(millisecondsSinceEpoch: stretch.first!.time).description)
            properties.add("end", UTCTime(millisecondsSinceEpoch: stretch.last!.time).description)
            properties.add("points", stretch.count)
            let coordinates = stretch.map { point in
                point.altitude.map {
                    "[\(coordinate(point.lon)),\(coordinate(point.lat)),\(formatted($0, decimals: JSONPrecision.metres))]"
                }
                    ?? "[\(coordinate(point.lon)),\(coordinate(point.lat))]"
            }
            features.append(
                feature(
                    properties.string,
                    "{\"type\":\"LineString\",\"coordinates\":[\(coordinates.joined(separator: ","))]}"))
        }
        for event in report.events {
            guard let lat = event.lat, let lon = event.lon else { continue }
            // The event's own fields, flattened one level so that GIS tables show them as columns.
            var properties = JSONLine()
            properties.add("kind", "event")
            properties.add("event_id", event.id)
            properties.add("type", event.type)
            properties.add("time", UTCTime(millisecondsSinceEpoch: event.time).description)
            properties.add("fence_id", event.fenceID.isEmpty ? nil : event.fenceID)
            properties.add("fence_name", event.fenceName)
            let happening = event.record.event
            switch happening.payload {
            case .enter(let enter): properties.add("initial", enter.initial)
            case .approach(let approach):
                properties.add("distance", approach.distance)
                properties.add("eta", approach.eta)
            case .dwell(let dwell):
                properties.add("duration", dwell.duration)
                properties.add("enter_time", dwell.enterTime.description)
            case .visit(let visit):
                properties.add("duration", visit.duration)
                properties.add("enter_time", visit.enterTime.description)
                properties.add("exit_time", visit.exitTime.description)
            case .deviceLost(let message, _), .deviceConnected(let message, _), .error(let message, _):
                properties.add("message", message)
            case .registered(_, let message): if let message { properties.add("message", message) }
            case .exit, .cross, .speeding, .fixLost, .fixAcquired, .heartbeat, .unregistered,
                .stationary, .moving, .anchorWarning, .alarm, .alarmAcknowledged, .alarmCleared:
                break
            }
            if let location = happening.location {
                for (key, value) in [
                    ("accuracy", location.accuracy), ("speed", location.speed), ("track", location.track),
                ] {
                    if let value { properties.add(key, value) }
                }
            }
            features.append(
                feature(
                    properties.string, "{\"type\":\"Point\",\"coordinates\":[\(coordinate(lon)),\(coordinate(lat))]}"))
        }
        return "{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n"
    }

    typealias Ring = [(lat: Double, lon: Double)]

    /// Rings as GeoJSON polygons: a ring inside another ring of the same fence is that ring's
    /// hole; every other ring is an exterior (a part of a MultiPolygon).
    static func polygons(_ rings: [Ring]) -> [[Ring]] {
        func inside(_ point: (lat: Double, lon: Double), _ ring: Ring) -> Bool {
            var result = false
            for (a, b) in zip(ring, ring.dropFirst()) where (a.lat > point.lat) != (b.lat > point.lat) {
                if point.lon < a.lon + (point.lat - a.lat) / (b.lat - a.lat) * (b.lon - a.lon) { result.toggle() }
            }
            return result
        }
        let container = rings.indices.map { index in
            rings.indices.first { other in other != index && inside(rings[index][0], rings[other]) }
        }
        var parts: [[Ring]] = []
        var partOf: [Int: Int] = [:]
        for index in rings.indices where container[index] == nil {
            partOf[index] = parts.count
            parts.append([rings[index]])
        }
        for index in rings.indices {
            if let outer = container[index], let part = partOf[outer] { parts[part].append(rings[index]) }
        }
        return parts
    }

    static func feature(_ properties: String, _ geometry: String) -> String {
        "{\"type\":\"Feature\",\"properties\":\(properties),\"geometry\":\(geometry)}"
    }

    public static func gpx(_ report: FieldReport) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<gpx version=\"1.0\" creator=\"gpsfence\" xmlns=\"http://www.topografix.com/GPX/1/0\">\n"
        for event in report.events {
            guard let lat = event.lat, let lon = event.lon else { continue }
            out += "<wpt lat=\"\(coordinate(lat))\" lon=\"\(coordinate(lon))\">"
            out += "<time>\(UTCTime(millisecondsSinceEpoch: event.time))</time>"
            let name = event.type + (event.fenceID.isEmpty ? "" : " " + (event.fenceName ?? event.fenceID))
            // What a person reads in a GPS program's waypoint list: the details the report's table
            // shows, in the report's units (the event's JSON is in the GeoJSON export).
            let details = ReportHTML.details(event, in: report)
            out += "<name>\(ReportHTML.escape(name))</name>"
            if !details.isEmpty { out += "<desc>\(ReportHTML.escape(details))</desc>" }
            out += "<type>\(ReportHTML.escape(event.type))</type></wpt>\n"
        }
        out += "<trk><name>\(ReportHTML.escape(report.title))</name>\n"
        for stretch in report.stretches {
            out += "<trkseg>\n"
            for point in stretch {
                out += "<trkpt lat=\"\(coordinate(point.lat))\" lon=\"\(coordinate(point.lon))\">"
                if let altitude = point.altitude {
                    out += "<ele>\(formatted(altitude, decimals: JSONPrecision.metres))</ele>"
                }
                out += "<time>\(UTCTime(millisecondsSinceEpoch: point.time))</time>"
                if let course = point.course {
                    out += "<course>\(formatted(course, decimals: JSONPrecision.degrees))</course>"
                }
                if let speed = point.speed {
                    out += "<speed>\(formatted(speed, decimals: JSONPrecision.speed))</speed>"
                }
                if let satellites = point.satellites { out += "<sat>\(satellites)</sat>" }
                if let hdop = point.hdop { out += "<hdop>\(formatted(hdop, decimals: JSONPrecision.dop))</hdop>" }
                out += "</trkpt>\n"
            }
            out += "</trkseg>\n"
        }
        return out + "</trk>\n</gpx>\n"
    }

    /// At the position precision of docs/formats.md, through the one number formatter.
    static func coordinate(_ value: Double) -> String { formatted(value, decimals: JSONPrecision.coordinate) }
}
