import Fences
import NMEA

/// `expires`: from that time on the fence is gone, removed as a reload removes a fence (an `exit`
/// with reason `expired` if the receiver was inside, then one `unregistered` naming the fences
/// that expired at that fix). It stays gone if the fix time goes back. A time written without a
/// zone is read in the user's (`EventSettings.localZone`).
final class ExpiresRule: EngineRule {
    /// Fences with an `expires` time, ascending.
    private let expiring: [Int32]
    /// Per fence of the set.
    private var expired: [Bool]
    /// The next `expires` of a fence not yet expired (ms); the fences are looked at again from
    /// then on, and at once if the fix time goes back before `lastCheck`.
    private var nextCheck = Int64.min
    private var lastCheck = Int64.min

    init?(fences: FenceSet) {
        var expiring: [Int32] = []
        for index in 0..<fences.count where fences.settings(index).rules?.expires != nil {
            expiring.append(Int32(index))
        }
        guard !expiring.isEmpty else { return nil }
        self.expiring = expiring
        expired = Array(repeating: false, count: fences.count)
    }

    func play(of fence: Int) -> FencePlay { expired[fence] ? .outOfPlay : .inPlay }

    func beforeFix(time: UTCTime, location: GeofenceEvent.Location, engine: EventEngine) {
        let now = time.millisecondsSinceEpoch
        guard now >= nextCheck || now < lastCheck else { return }
        lastCheck = now
        var next = Int64.max
        var expiredNow: [Int] = []
        for stored in expiring {
            let fence = Int(stored)
            guard !expired[fence],
                let expires = engine.fences.settings(fence).rules?.expires?.milliseconds(
                    localZone: engine.settings.localZone)
            else { continue }
            if now < expires {
                next = min(next, expires)
                continue
            }
            expired[fence] = true
            expiredNow.append(fence)
            if engine.isInside(fence) {
                engine.leave(
                    fence, time: time, location: location, settings: engine.fences.settings(fence), reason: .expired)
                engine.dropFromInsideList(fence)
            }
        }
        nextCheck = next
        if !expiredNow.isEmpty { engine.pending.append(.unregistered(expiredNow, at: time)) }
    }

    func entered(_ fence: Int) {}

    func holdsExit(of fence: Int, beyond: Bool, at now: Int64, engine: EventEngine) -> Bool { false }

    func afterFix(_ fix: Fix, time: UTCTime, location: GeofenceEvent.Location, engine: EventEngine) {}

    func foresee(_ ahead: inout FixesAhead, engine: EventEngine) {
        if nextCheck != Int64.max { ahead.due(nextCheck) }
    }
}
