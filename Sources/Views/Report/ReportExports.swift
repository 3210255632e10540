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
        let collection = JSONBuffer(capacity: 1 << 16)
        collection.beginObject()
        collection.key("type")
        collection.value("FeatureCollection")
        collection.key("features")
        collection.beginArray()
        // One feature a line, each written in `out` and copied.
        collection.append(byte: 0x0A)
        let out = JSONBuffer()
        var first = true
        func feature(_ writeProperties: () -> Void, _ writeGeometry: () -> Void) {
            out.removeAll()
            out.beginObject()
            out.key("type")
            out.value("Feature")
            out.key("properties")
            out.beginObject()
            writeProperties()
            out.endObject()
            out.key("geometry")
            out.beginObject()
            writeGeometry()
            out.endObject()
            out.endObject()
            collection.beginRawValue()
            if !first { collection.append(byte: 0x0A) }
            first = false
            out.withUnsafeBytes { collection.append($0) }
        }
        for fence in 0..<report.fences.count {
            let info = report.fences.info(fence)
            let parts = polygons(report.fences.outline(fence))
            feature {
                out.key("kind")
                out.value("fence")
                out.key("id")
                out.beginRawValue()
                out.append(raw: info.id.json)
                out.key("name")
                out.value(info.name)
                switch report.fences.kinds[fence] {
                case .circle:
                    if let circle = report.fences.circle(fence) { writeMeasure("radius", circle.radius, to: out) }
                case .corridor:
                    // the outline drawn round the route; the radius says how wide it is
                    if let corridor = report.fences.corridor(fence) {
                        writeMeasure("radius", corridor.radius, to: out)
                    }
                case .polygon:
                    break
                }
            } _: {
                out.key("type")
                if parts.count == 1 {
                    out.value("Polygon")
                    out.key("coordinates")
                    writePolygon(parts[0], to: out)
                } else {
                    out.value("MultiPolygon")
                    out.key("coordinates")
                    out.beginArray()
                    for part in parts { writePolygon(part, to: out) }
                    out.endArray()
                }
            }
        }
        for (index, stretch) in report.stretches.enumerated() where stretch.count >= 2 {
            feature {
                out.key("kind")
                out.value("track")
                out.key("stretch")
                out.value(index)
                out.key("start")
                out.value(UTCTime(millisecondsSinceEpoch: stretch.first!.time).description)
                out.key("end")
                out.value(UTCTime(millisecondsSinceEpoch: stretch.last!.time).description)
                out.key("points")
                out.value(stretch.count)
            } _: {
                out.key("type")
                out.value("LineString")
                out.key("coordinates")
                out.beginArray()
                for point in stretch {
                    out.beginArray()
                    out.value(point.lon, decimals: JSONPrecision.coordinate)
                    out.value(point.lat, decimals: JSONPrecision.coordinate)
                    if let altitude = point.altitude { out.value(altitude, decimals: JSONPrecision.metres) }
                    out.endArray()
                }
                out.endArray()
            }
        }
        for event in report.events {
            guard let lat = event.lat, let lon = event.lon else { continue }
            feature {
                writeEventProperties(event, to: out)
            } _: {
                out.key("type")
                out.value("Point")
                out.key("coordinates")
                writePosition(lat: lat, lon: lon, to: out)
            }
        }
        collection.append(byte: 0x0A)
        collection.endArray()
        collection.endObject()
        collection.endLine()
        return collection.string
    }

    /// The event's own fields, flattened one level so that GIS tables show them as columns.
    private static func writeEventProperties(_ event: ReportEvent, to out: JSONBuffer) {
        out.key("kind")
        out.value("event")
        out.key("event_id")
        out.value(event.id)
        out.key("type")
        out.value(event.type)
        out.key("time")
        out.value(UTCTime(millisecondsSinceEpoch: event.time).description)
        out.key("fence_id")
        out.value(event.fenceID.isEmpty ? nil : event.fenceID)
        out.key("fence_name")
        out.value(event.fenceName)
        let happening = event.record.event
        switch happening.payload {
        case .enter(let enter):
            out.key("initial")
            out.value(enter.initial)
        case .approach(let approach):
            writeMeasure("distance", approach.distance, to: out)
            writeMeasure("eta", approach.eta, to: out)
        case .dwell(let dwell):
            writeMeasure("duration", dwell.duration, to: out)
            out.key("enter_time")
            out.value(dwell.enterTime.description)
        case .visit(let visit):
            writeMeasure("duration", visit.duration, to: out)
            out.key("enter_time")
            out.value(visit.enterTime.description)
            out.key("exit_time")
            out.value(visit.exitTime.description)
        case .deviceLost(let message, _), .deviceConnected(let message, _):
            out.key("message")
            out.value(message)
        case .error(let problem, _):
            out.key("message")
            out.value(problem.text)
        case .registered(_, let message):
            if let message {
                out.key("message")
                out.value(message)
            }
        case .integrity(let integrity):
            out.key("message")
            out.value(integrity.state.sentence)
        case .exit, .cross, .speeding, .fixLost, .fixAcquired, .heartbeat, .unregistered,
            .stationary, .moving, .anchorWarning, .alarm, .alarmAcknowledged, .alarmCleared:
            break
        }
        if let location = happening.location {
            for (key, value) in [("accuracy", location.accuracy), ("speed", location.speed), ("track", location.track)]
            {
                if let value { writeMeasure(key, value, to: out) }
            }
        }
    }

    /// A number of the properties: to the millimetre (or millisecond), whatever its unit.
    private static func writeMeasure(_ key: String, _ value: Double?, to out: JSONBuffer) {
        out.key(key)
        out.value(value, decimals: JSONPrecision.seconds)
    }

    private static func writePosition(lat: Double, lon: Double, to out: JSONBuffer) {
        out.beginArray()
        out.value(lon, decimals: JSONPrecision.coordinate)
        out.value(lat, decimals: JSONPrecision.coordinate)
        out.endArray()
    }

    private static func writePolygon(_ rings: [Ring], to out: JSONBuffer) {
        out.beginArray()
        for ring in rings {
            out.beginArray()
            for point in ring { writePosition(lat: point.lat, lon: point.lon, to: out) }
            out.endArray()
        }
        out.endArray()
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
