import Fences
import NMEA

/// Position and altitude steps between consecutive fixes that the speed cannot explain.
struct StepWatch {
    /// Seconds between fixes beyond which a step says nothing (the fix was lost in between).
    static let longestGap = 10.0
    /// Metres of position noise a step may hold besides what the speed covers.
    static let positionSlack = 100.0
    /// Metres of altitude noise, and the climb in metres per second no vehicle exceeds.
    static let altitudeSlack = 100.0
    static let climb = 20.0

    private var last: (time: Int64, fix: Fix)?

    mutating func observe(_ fix: Fix, time: Int64) -> (position: Bool, altitude: Bool) {
        defer { last = (time, fix) }
        guard let last else { return (false, false) }
        let seconds = Double(time - last.time) / 1000
        guard seconds > 0, seconds <= Self.longestGap else { return (false, false) }
        let metres = Geodesy.haversine(
            lat1: last.fix.latitude, lon1: last.fix.longitude, lat2: fix.latitude, lon2: fix.longitude)
        let speed = max(last.fix.speed ?? 0, fix.speed ?? 0)
        let allowed = speed * seconds * 2 + Self.positionSlack + 2 * ((last.fix.accuracy ?? 0) + (fix.accuracy ?? 0))
        var altitudeStep = false
        if let before = last.fix.altitude, let now = fix.altitude {
            altitudeStep = abs(now - before) > Self.altitudeSlack + Self.climb * seconds
        }
        return (metres > allowed, altitudeStep)
    }
}
