import Fences
import Foundation
import NMEA

/// Metres over usable fixes (docs/report.md): a step counts once the receiver is farther from where the
/// last counted step ended than the fix's own accuracy estimate (5 m when it has none), so a parked
/// receiver's jitter (a few metres around the true spot) adds nothing, and a moving one adds its
/// path in accuracy-sized chords.
public struct Odometer: Sendable {
    private var anchor: (lat: Double, lon: Double, cosLat: Double)?
    public private(set) var metres = 0.0

    public init() {}

    /// Counting starts again at `point`, adding nothing for the way to it.
    public mutating func restart(at point: TrackPoint) {
        anchor = (point.lat, point.lon, cos(point.lat * Geodesy.degree))
    }

    /// Takes the next usable fix; returns the metres it added (0 for jitter).
    public mutating func add(_ point: TrackPoint) -> Double {
        guard let from = anchor else {
            anchor = (point.lat, point.lon, cos(point.lat * Geodesy.degree))
            return 0
        }
        let gate = max(point.accuracy ?? 5, 1)
        // At 10 Hz most fixes move less than the gate from the anchor: a flat-earth distance
        // (no trigonometry; within a fraction of a percent of the sphere's over tens of metres)
        // well inside it turns them away before the haversine formula is paid for. Near the
        // poles, where the anchor's cosine is not the fix's, the formula decides every fix.
        if abs(from.lat) < 85 {
            let north = (point.lat - from.lat) * Geodesy.degree
            var longitudeGap = abs(point.lon - from.lon)
            if longitudeGap > 180 { longitudeGap = 360 - longitudeGap }
            let eastWest = longitudeGap * Geodesy.degree * from.cosLat
            let flat = (north * north + eastWest * eastWest).squareRoot() * Geodesy.earthRadius
            if flat < gate * 0.9 { return 0 }
        }
        let step = Geodesy.haversine(lat1: from.lat, lon1: from.lon, lat2: point.lat, lon2: point.lon)
        guard step > gate else { return 0 }
        anchor = (point.lat, point.lon, cos(point.lat * Geodesy.degree))
        metres += step
        return step
    }
}

/// One kept fix of the track.
public struct TrackPoint: Sendable, Equatable {
    /// Fix time, ms since 1970 (UTC).
    public var time: Int64
    public var lat: Double
    public var lon: Double
    public var altitude: Double?
    public var speed: Double?
    public var course: Double?
    public var accuracy: Double?
    public var satellites: Int?
    public var hdop: Double?

    public init(
        time: Int64, lat: Double, lon: Double, altitude: Double? = nil, speed: Double? = nil, course: Double? = nil,
        accuracy: Double? = nil, satellites: Int? = nil, hdop: Double? = nil
    ) {
        self.time = time
        self.lat = lat
        self.lon = lon
        self.altitude = altitude
        self.speed = speed
        self.course = course
        self.accuracy = accuracy
        self.satellites = satellites
        self.hdop = hdop
    }

    public init(_ fix: Fix, time: Int64) {
        self.init(
            time: time, lat: fix.latitude, lon: fix.longitude, altitude: fix.altitude, speed: fix.speed,
            course: fix.track,
            accuracy: fix.accuracy, satellites: fix.satellitesUsed, hdop: fix.hdop)
    }
}
