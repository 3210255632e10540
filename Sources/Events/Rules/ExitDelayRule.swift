import Fences
import NMEA

/// `delay`: a fence the receiver is inside of is left only once every usable fix for `delay`
/// seconds of fix time has been beyond its exit distance (and at least `exitConfirm` of them): the
/// `exit` comes at the first fix that many seconds after the first one beyond, with that fix's
/// time. One fix back within the exit distance starts the count again; fixes that are not usable
/// (too inaccurate, or none) neither count nor break it.
final class ExitDelayRule: EngineRule {
    /// Per fence of the set: the fix time (ms) of the first fix of the current run beyond the exit
    /// distance, `notBeyond` when the last usable fix was within it.
    private var beyondSince: [Int64]
    private static let notBeyond = Int64.min

    init?(fences: FenceSet) {
        guard (0..<fences.count).contains(where: { fences.settings($0).rules?.exitDelay != nil }) else { return nil }
        beyondSince = Array(repeating: Self.notBeyond, count: fences.count)
    }

    func play(of fence: Int) -> FencePlay { .inPlay }

    func beforeFix(time: UTCTime, location: GeofenceEvent.Location, engine: EventEngine) {}

    func entered(_ fence: Int) { beyondSince[fence] = Self.notBeyond }

    func holdsExit(of fence: Int, beyond: Bool, at now: Int64, engine: EventEngine) -> Bool {
        guard beyond else {
            beyondSince[fence] = Self.notBeyond
            return false
        }
        guard let delay = engine.fences.settings(fence).rules?.exitDelay else { return false }
        // A fix time that went back (a receiver's clock corrected) starts the count again.
        if beyondSince[fence] == Self.notBeyond || now < beyondSince[fence] { beyondSince[fence] = now }
        return now - beyondSince[fence] < Limits.milliseconds(delay)
    }

    func afterFix(_ fix: Fix, time: UTCTime, location: GeofenceEvent.Location, engine: EventEngine) {}

    /// Nothing of its own: while an exit waits, the receiver is beyond the exit distance, and the
    /// engine foresees no quiet fix then.
    func foresee(_ ahead: inout FixesAhead, engine: EventEngine) {}
}
