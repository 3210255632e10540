import Fences
import NMEA

/// Samples a track at the receiver's rate: the positions a receiver moving along it would report.
///
/// A track whose every point has a time (GPX from a logger) is replayed on those times, positions
/// interpolated between points: `timing` may move its first point to another instant and play it
/// faster or slower (the vehicle moves `scale` times as fast; the receiver's clock runs at its own
/// pace). One without times (GeoJSON) is walked at a constant `speed` from `start`. Positions between vertices follow the great circle; times are whole centiseconds,
/// the resolution of an NMEA time field, so that what is sent is exactly what decodes.
public enum TrackPlayer {
    /// How a timed track is played: from `origin` (nil: its own first time), `scale` times as fast.
    public struct Timing: Sendable, Equatable {
        public var origin: UTCTime?
        public var scale: Double
        public init(origin: UTCTime? = nil, scale: Double = 1) {
            self.origin = origin
            self.scale = scale
        }
    }

    public static func fixes(
        _ points: [RoutePoint], rate: Double, speed: Double, start: UTCTime, timing: Timing = Timing()
    ) -> [SimulatedFix] {
        if isTimed(points) {
            let times = points.compactMap(\.time)
            let first = times.first!.millisecondsSinceEpoch
            // On a whole centisecond, as every time an NMEA sentence can carry.
            let origin = timing.origin.map { centiseconds(Double($0.millisecondsSinceEpoch)) } ?? first
            let scaled = times.map {
                UTCTime(
                    millisecondsSinceEpoch: origin
                        + Int64((Double($0.millisecondsSinceEpoch - first) / timing.scale).rounded()))
            }
            return timed(points, times: scaled, rate: rate)
        }
        return walked(points, rate: rate, speed: speed, start: start)
    }

    /// Whether every point has a time, in order, spanning more than an instant.
    public static func isTimed(_ points: [RoutePoint]) -> Bool {
        let times = points.compactMap(\.time)
        return times.count == points.count && points.count > 1
            && zip(times, times.dropFirst()).allSatisfy({ $0 <= $1 }) && times.last! > times.first!
    }

    static func centiseconds(_ milliseconds: Double) -> Int64 {
        Limits.milliseconds((milliseconds / 10).rounded() / 1000) * 10
    }

    static func walked(_ points: [RoutePoint], rate: Double, speed: Double, start: UTCTime) -> [SimulatedFix] {
        let startMilliseconds = centiseconds(Double(start.millisecondsSinceEpoch))
        var cumulative: [Double] = [0]
        for (a, b) in zip(points, points.dropFirst()) { cumulative.append(cumulative.last! + a.distance(to: b)) }
        let length = cumulative.last!
        var distances: [Double] = []
        var k = 0.0
        while k * speed / rate < length - 1e-6 {
            distances.append(k * speed / rate)
            k += 1
        }
        distances.append(length)
        var segment = 0
        var lastTrack = points.count > 1 ? points[0].bearing(to: points[1]) : 0
        return distances.map { distance in
            while segment < points.count - 2, cumulative[segment + 1] <= distance { segment += 1 }
            let time = UTCTime(millisecondsSinceEpoch: startMilliseconds + centiseconds(distance / speed * 1000))
            guard points.count > 1 else {
                return fix(points[0], time: time, speed: 0, track: 0)
            }
            let a = points[segment]
            let b = points[segment + 1]
            let span = cumulative[segment + 1] - cumulative[segment]
            let fraction = span > 0 ? min(1, (distance - cumulative[segment]) / span) : 0
            if span > 0 { lastTrack = a.bearing(to: b) }
            return fix(a.interpolated(to: b, fraction: fraction), time: time, speed: speed, track: lastTrack)
        }
    }

    static func timed(_ points: [RoutePoint], times: [UTCTime], rate: Double) -> [SimulatedFix] {
        let first = times.first!.millisecondsSinceEpoch
        let last = times.last!.millisecondsSinceEpoch
        var sampleTimes: [Int64] = []
        var k = 0.0
        while true {
            let time = first + centiseconds(k * 1000 / rate)
            if time >= last { break }
            sampleTimes.append(time)
            k += 1
        }
        sampleTimes.append(last)
        var segment = 0
        var lastTrack = points[0].bearing(to: points[1])
        return sampleTimes.map { time in
            while segment < points.count - 2, times[segment + 1].millisecondsSinceEpoch <= time { segment += 1 }
            let a = points[segment]
            let b = points[segment + 1]
            let t0 = times[segment].millisecondsSinceEpoch
            let t1 = times[segment + 1].millisecondsSinceEpoch
            let fraction = t1 > t0 ? min(1, Double(time - t0) / Double(t1 - t0)) : 1
            let distance = a.distance(to: b)
            let speed = t1 > t0 ? distance / (Double(t1 - t0) / 1000) : 0
            if distance > 0 { lastTrack = a.bearing(to: b) }
            return fix(
                a.interpolated(to: b, fraction: fraction), time: UTCTime(millisecondsSinceEpoch: time),
                speed: speed, track: lastTrack)
        }
    }

    static func fix(_ point: RoutePoint, time: UTCTime, speed: Double, track: Double) -> SimulatedFix {
        SimulatedFix(
            time: time, latitude: point.latitude, longitude: point.longitude, altitude: point.altitude,
            speed: speed, track: track)
    }
}
