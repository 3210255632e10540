import Fences
import NMEA

/// `delay`: a fence the receiver is inside of is left only once every usable fix for `delay`
/// seconds of fix time has been beyond its exit distance (and at least `exitConfirm` of them): the
/// `exit` comes at the first fix that many seconds after the first one beyond, with that fix's
/// time. One fix back within the exit distance starts the count again; fixes that are not usable
/// (too inaccurate, or none) neither count nor break it, and neither does a restart: the count is
/// saved with the fence states (`FenceStateRecord.exitDelaySince`), the time the run was down
/// counting as a stretch without fixes.
final class ExitDelayRule: EngineRule {
    /// Per fence of the set: the fix time (ms) of the first fix of the current run beyond the exit
    /// distance, `notBeyond` when the last usable fix was within it.
    private var beyondSince: [Int64]
    private static let notBeyond = Int64.min
    /// Grows when a count begins or breaks off (`EventEngine.quietStateChanges`).
    private(set) var changes = 0

    init?(fences: FenceSet) {
        guard (0..<fences.count).contains(where: { fences.settings($0).rules?.exitDelay != nil }) else { return nil }
        beyondSince = Array(repeating: Self.notBeyond, count: fences.count)
    }

    func play(of fence: Int) -> FencePlay { .inPlay }

    func beforeFix(time: UTCTime, location: GeofenceEvent.Location, engine: EventEngine) {}

    func entered(_ fence: Int) { breakOff(fence) }

    func holdsExit(of fence: Int, beyond: Bool, at now: Int64, engine: EventEngine) -> Bool {
        guard beyond else {
            breakOff(fence)
            return false
        }
        guard let delay = engine.fences.settings(fence).rules?.exitDelay else { return false }
        // A fix time that went back (a receiver's clock corrected) starts the count again.
        if beyondSince[fence] == Self.notBeyond || now < beyondSince[fence] {
            beyondSince[fence] = now
            changes += 1
        }
        return now - beyondSince[fence] < Limits.milliseconds(delay)
    }

    private func breakOff(_ fence: Int) {
        guard beyondSince[fence] != Self.notBeyond else { return }
        beyondSince[fence] = Self.notBeyond
        changes += 1
    }

    /// The fix time (ms) the count of `fence` began at; nil when none runs.
    func beyondSince(of fence: Int) -> Int64? {
        beyondSince[fence] == Self.notBeyond ? nil : beyondSince[fence]
    }

    /// Takes a saved count back (a restart, a reload of an unchanged fence).
    func restore(_ fence: Int, beyondSince time: Int64) {
        beyondSince[fence] = time
    }

    func afterFix(_ fix: Fix, time: UTCTime, location: GeofenceEvent.Location, engine: EventEngine) {}

    /// Nothing of its own: while an exit waits, the receiver is beyond the exit distance, and the
    /// engine foresees no quiet fix then.
    func foresee(_ ahead: inout FixesAhead, engine: EventEngine) {}
}
