import Events
import NMEA
import Store

// The live state a running run shows `status` and the web page (`LiveBoard`): set after each
// believed fix and each commit of events, on the engine's thread, without a write to storage.
extension EngineLoop {
    /// - Parameter fix: the fix just used; nil after a commit of events alone.
    func publishLive(_ fix: Fix?) {
        guard let board = configuration.liveBoard else { return }
        let now = currentUTCTime().millisecondsSinceEpoch
        var point: TrackPoint?
        if let fix, let time = fix.time { point = TrackPoint(fix, time: time.millisecondsSinceEpoch) }
        let odometer = track?.odometerToday
        let events = summary.events
        let ignored = summary.ignoredFixes
        let alarm = alarmStatus
        let anchorDistance = anchorDistance
        let anchorMax = anchorMaxDistance
        board.publish(point: point) { state in
            state.updatedAt = now
            if let fix, let point {
                state.fix = point
                state.fixQuality = fix.quality
                state.fixWall = now
            }
            if let odometer {
                state.odometerDay = odometer.day
                state.odometerToday = odometer.metres
            }
            state.anchorDistance = anchorDistance
            state.anchorMaxDistance = anchorMax
            state.ignoredFixes = ignored
            state.events = events
            state.alarm = alarm
        }
    }
}
