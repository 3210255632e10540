import Fences
import NMEA
import Platform

/// How many of the receiver's next fixes cannot raise an event, so that a live reader may sleep
/// through their cycles and read them together with the cycle after (docs/performance.md, "Live
/// cost"). Nothing is skipped: every fix still goes through `process`, in order, with its own
/// time, and the events are the same. The foresight only decides when the reader wakes, so a fix
/// it misjudged (a position that jumped farther than foreseen) has its events delivered late, by
/// the cycles slept through, never lost or changed.
///
/// The receiver is taken to move at most `2 × speed + 3 m/s` (the speed it reports, or the one its
/// last two fixes show, whichever is higher), plus `jumpMargin` and its accuracy estimate for the
/// scatter of a position. A fix is foreseen quiet when, by its time, the receiver can reach no
/// fence it is outside of (to enter or cross it), no approach distance, no exit distance of a
/// fence it is in and not the edge of a stop; when no timer falls due within twice that many fix
/// intervals (a receiver may skip a cycle): dwell, heartbeat, a stop being declared, `stale`; and
/// when every rule (`EngineRules.all`, each asked in turn) foresees nothing within them either.
/// Anything less plain (the fix lost, a rule that cannot judge, an exit being confirmed) is not
/// foreseen: the answer is 0.
extension EventEngine {
    /// Metres a position may jump between fixes beyond its accuracy estimate.
    static let jumpMargin = 10.0

    /// The number of fixes after the last one (at most `limit`) that cannot raise an event.
    /// Allocates nothing once its list of nearby fences has grown to its working size.
    public func quietFixesAhead(limit: Int) -> Int {
        guard limit > 0, started, !lost, let fix = previous, let now = lastUsableTime, let step = lastStep,
            step.milliseconds > 0, step.milliseconds <= 1000, abs(fix.latitude) < 85
        else { return 0 }
        var ahead = FixesAhead(limit: limit, now: now, step: step.milliseconds)
        ahead.due(now + Limits.milliseconds(settings.stale))
        if let interval = settings.heartbeat {
            guard let last = lastHeartbeat else { return 0 }
            ahead.due(last + Limits.milliseconds(interval))
        }
        for rule in rules { rule.foresee(&ahead, engine: self) }
        // Metres the receiver may move before something can happen.
        var room = Double.infinity
        switch motion.outlook(from: fix, now: now, settings: settings) {
        case .unchanging: break
        case .stopNoSoonerThan(let time): ahead.due(time)
        case .movingBeyond(let metres): room = metres
        }
        guard ahead.quiet > 0 else { return 0 }

        let interval = Double(step.milliseconds) / 1000
        let speed = max(fix.speed ?? 0, step.metres / interval)
        let perFix = interval * (2 * speed + 3)
        let margin = Self.jumpMargin + min(fix.accuracy ?? settings.accuracyCap, settings.accuracyCap)
        // Beyond this nothing can matter, even to an approach.
        let radius = margin + Double(ahead.quiet) * perFix + longestApproach
        for stored in insideList {
            let fence = Int(stored)
            let fenceSettings = fences.settings(fence)
            if exitCount[fence] > 0 { return 0 }
            if !dwellFired[fence] {
                ahead.due(enterTime[fence] + Limits.milliseconds(fenceSettings.dwell ?? settings.dwell))
            }
            let hysteresis = fenceSettings.hysteresis ?? settings.hysteresis
            let distance = fences.signedDistance(
                fence: fence, lat: fix.latitude, lon: fix.longitude, limit: radius + hysteresis + 1)
            room = min(room, hysteresis - distance)
        }
        guard ahead.quiet > 0, room > margin else { return 0 }

        let dLat = radius / Geodesy.metresPerDegree
        let dLon = radius / (Geodesy.metresPerDegree * cos(fix.latitude * Geodesy.degree))
        // Near the antimeridian the box would need two pieces: not worth foreseeing.
        guard fix.longitude - dLon > -180, fix.longitude + dLon < 180 else { return 0 }
        nearby.removeAll()
        fences.candidates(
            in: BoundingBox(
                minX: fix.longitude - dLon, minY: fix.latitude - dLat, maxX: fix.longitude + dLon,
                maxY: fix.latitude + dLat),
            into: nearby)
        for index in 0..<nearby.count {
            let fence = nearby[index]
            if inside[fence] { continue }
            var distance = fences.signedDistance(fence: fence, lat: fix.latitude, lon: fix.longitude, limit: radius + 1)
            // Even a fired approach: a path that turns away re-arms it at one fix, and back fires it
            // at the next.
            if let warning = approachWarning(of: fence, atMilliseconds: now) { distance -= warning.reach }
            room = min(room, distance)
        }
        let fixes = (room - margin) / perFix
        guard !fixes.isNaN else { return 0 }
        guard fixes <= Double(ahead.quiet) else { return ahead.quiet }
        return fixes > 0 ? Int(fixes.rounded(.up)) - 1 : 0
    }
}
