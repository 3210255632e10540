import Events
import Foundation
import JSONOutput
import NMEA

/// What a track point carries beyond the stored row: known only from the points around it.
struct SyncedPoint {
    var point: TrackPoint
    /// Metres on the point's local day (the sync's calendar) up to it, over the kept track points.
    var odometer: Double
    /// `stationary` or `moving`, from the last motion event at or before the point; nil: none yet.
    var motion: String?
    /// The day's odometer just after this point: where the next request starts once this one is acknowledged.
    var odometerAfter: TrackSyncSender.DayOdometer?
}

/// The request bodies of the two sync formats (docs/formats.md, "Track sync").
enum TrackSyncBody {
    /// `--sync-format json`: `{"device":...,"locations":[...]}`, one request per batch.
    static func json(device: String, points: [SyncedPoint]) -> Data {
        let out = JSONBuffer(capacity: 256 + points.count * 220)
        out.beginObject()
        out.key("device")
        out.value(device)
        out.key("locations")
        out.beginArray()
        for synced in points {
            let point = synced.point
            out.beginObject()
            out.key("id")
            out.value(point.time)
            out.key("time")
            UTCTime(millisecondsSinceEpoch: point.time).writeJSON(to: out)
            out.key("lat")
            out.value(point.lat, decimals: JSONPrecision.coordinate)
            out.key("lon")
            out.value(point.lon, decimals: JSONPrecision.coordinate)
            out.key("alt")
            out.value(point.altitude, decimals: JSONPrecision.metres)
            out.key("speed")
            out.value(point.speed, decimals: JSONPrecision.speed)
            out.key("track")
            out.value(point.course, decimals: JSONPrecision.degrees)
            out.key("accuracy")
            out.value(point.accuracy, decimals: JSONPrecision.metres)
            out.key("odometer")
            out.value(synced.odometer, decimals: JSONPrecision.metres)
            out.key("motion")
            out.value(synced.motion)
            out.endObject()
        }
        out.endArray()
        out.endObject()
        return out.withUnsafeBytes { Data($0) }
    }

    /// `--sync-format osmand`: the OsmAnd protocol as Traccar takes it, one point per request, its
    /// fields as query parameters of `url` (the server's own query kept in front of them).
    static func osmAnd(url: URL, device: String, point: TrackPoint) -> URL? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        var items = components.queryItems ?? []
        items.append(URLQueryItem(name: "id", value: device))
        items.append(URLQueryItem(name: "lat", value: number(point.lat, JSONPrecision.coordinate)))
        items.append(URLQueryItem(name: "lon", value: number(point.lon, JSONPrecision.coordinate)))
        // Seconds since 1970: what OsmAnd sends; points are at least a second apart, so no two share one.
        items.append(URLQueryItem(name: "timestamp", value: String(floorDivide(point.time, 1000))))
        if let speed = point.speed {
            items.append(URLQueryItem(name: "speed", value: number(speed * 3600 / 1852, JSONPrecision.speed)))
        }
        if let course = point.course {
            items.append(URLQueryItem(name: "bearing", value: number(course, JSONPrecision.degrees)))
        }
        if let altitude = point.altitude {
            items.append(URLQueryItem(name: "altitude", value: number(altitude, JSONPrecision.metres)))
        }
        if let accuracy = point.accuracy {
            items.append(URLQueryItem(name: "accuracy", value: number(accuracy, JSONPrecision.metres)))
        }
        if let hdop = point.hdop { items.append(URLQueryItem(name: "hdop", value: number(hdop, JSONPrecision.dop))) }
        components.queryItems = items
        return components.url
    }

    /// A number as the JSON writer prints it (the same precision in both formats).
    static func number(_ value: Double, _ decimals: Int) -> String {
        let out = JSONBuffer(capacity: 32)
        out.writeNumber(value, decimals: decimals)
        return out.string
    }
}
