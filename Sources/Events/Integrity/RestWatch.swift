import Fences
import NMEA

/// Whether the receiver has been at rest: every fix of the last `restSeconds` slow and near the
/// first of them. A vehicle at rest does not drive into a tunnel, so a whole sky lost at once
/// there is a jammer switched on beside it (or its antenna cut off: a tracker blinded either way).
struct RestWatch {
    /// Seconds of slow fixes that make a rest.
    static let restSeconds = 30.0
    /// m/s: a boat swinging at anchor, a parked vehicle's noise; not a vehicle crawling in a queue.
    static let slowest = 0.5
    /// Metres from the rest's first fix that the position's wander and a boat's swing may reach.
    static let radius = 30.0
    /// Seconds without a fix after which the rest says nothing (the receiver may have moved).
    static let longestGap = 10.0

    private var first: (time: Int64, fix: Fix)?
    private var lastTime: Int64?

    mutating func observe(_ fix: Fix, time: Int64) {
        defer { lastTime = time }
        let slow = (fix.speed ?? 0) <= Self.slowest
        guard slow else {
            first = nil
            return
        }
        if let lastTime, Double(time - lastTime) / 1000 > Self.longestGap { first = nil }
        if let first,
            Geodesy.haversine(
                lat1: first.fix.latitude, lon1: first.fix.longitude, lat2: fix.latitude, lon2: fix.longitude)
                <= Self.radius
        {
            return
        }
        first = (time, fix)
    }

    /// At rest at `time` (a cycle that may have no fix of its own): the rest lasted `restSeconds`
    /// up to a fix no more than `longestGap` before.
    func isAtRest(at time: Int64) -> Bool {
        guard let first, let lastTime, Double(time - lastTime) / 1000 <= Self.longestGap else { return false }
        return Double(lastTime - first.time) / 1000 >= Self.restSeconds
    }
}
