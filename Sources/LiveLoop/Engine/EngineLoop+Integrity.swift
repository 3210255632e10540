import Events
import NMEA
import Platform

// The integrity monitor over every cycle (docs/running.md, "Trust in the fix"): its changes are
// `integrity` events, and while it says `jammed` or `spoofed` the positions decide no fence.
extension EngineLoop {
    /// Reads one cycle (`fix` nil: a cycle without one) into the monitor, with what the receiver
    /// said of itself in it; an `integrity` event when its judgement changed. Returns whether the
    /// cycle's position is not to be believed.
    func judgeIntegrity(_ fix: Fix?, time: UTCTime, sky: EpochSky, flags: ReceiverIntegrityFlags) -> Bool {
        let cycle = IntegrityCycle(
            time: time, fix: fix, sky: sky, flags: flags,
            monotonic: isLiveRun ? monotonicSeconds() : nil)
        if let change = integrity.observe(cycle) {
            let location = (fix ?? lastBelievedFix).map(GeofenceEvent.Location.init)
            batch.append(GeofenceEvent(.integrity(change), time: time, location: location))
        }
        return integrity.state.isUnreliable
    }
}
