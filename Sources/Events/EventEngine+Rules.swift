import Fences
import NMEA

// The fence rules of docs/fences.md ("Rules") in the engine, all judged on fix time so that a
// replay gives the same events as the drive: `expires` and `active` decide which fences take part
// at a fix, `speed_limit` raises `speeding`, `clearance` flags `too_low`.
extension EventEngine {
    /// Before the fix is looked at: fences past their `expires` time are removed as a reload
    /// removes a fence (an `exit` with reason `expired` if the receiver was inside, then one
    /// `unregistered` naming them); fences whose `active` window closed drop out silently, and
    /// those whose window opened are evaluated as at start.
    func applyTimedRules(time: UTCTime, location: GeofenceEvent.Location) {
        let now = time.millisecondsSinceEpoch
        // A million fences with windows need not be looked at on every fix of the same minute.
        guard now >= rules.nextCheck || now < rules.lastCheck else { return }
        rules.lastCheck = now
        let minute: Int64 = 60_000
        let minuteNow = now >= 0 ? now / minute : (now - minute + 1) / minute
        var nextCheck = (minuteNow + 1) * minute
        var expiredNow: [Int] = []
        for stored in rules.timed {
            let fence = Int(stored)
            guard !rules.expired[fence], let fenceRules = fences.settings(fence).rules else { continue }
            if let expires = fenceRules.expires, now < expires { nextCheck = min(nextCheck, expires) }
            if let expires = fenceRules.expires, now >= expires {
                rules.expired[fence] = true
                rules.dormant[fence] = true
                expiredNow.append(fence)
                if inside[fence] {
                    let fenceSettings = fences.settings(fence)
                    leave(fence, time: time, location: location, settings: fenceSettings, reason: .expired)
                    dropFromInsideList(fence)
                }
                continue
            }
            guard let schedule = fenceRules.active else { continue }
            let active = schedule.isActive(atMilliseconds: now)
            if active == !rules.dormant[fence] { continue }
            rules.dormant[fence] = !active
            if active {
                rules.activatedStamp[fence] = fixNumber
            } else if inside[fence] {
                // Out of its window a fence keeps no inside state and says nothing.
                inside[fence] = false
                exitCount[fence] = 0
                dwellFired[fence] = false
                enterTime[fence] = now
                dropFromInsideList(fence)
            }
        }
        rules.nextCheck = nextCheck
        if !expiredNow.isEmpty { pending.append(.unregistered(expiredNow, at: time)) }
    }

    private func dropFromInsideList(_ fence: Int) {
        if let position = insideList.firstIndex(of: Int32(fence)) { insideList.remove(at: position) }
    }

    /// After the fix's enters: `speeding` once a usable fix inside a fence with a `speed_limit` has
    /// been above it on `speedingConfirm` consecutive fixes; once per visit, re-armed when the
    /// speed falls below 90 % of the limit. Inside several limited fences one event reports the
    /// strictest limit of those being exceeded. A fix without a speed changes nothing.
    func checkSpeeds(_ fix: Fix, time: UTCTime, location: GeofenceEvent.Location) {
        guard let speed = fix.speed, speed.isFinite else { return }
        var strictest: (fence: Int, limit: Double)?
        var confirmed = false
        for stored in insideList {
            let fence = Int(stored)
            guard let limit = fences.settings(fence).rules?.speedLimit else { continue }
            if speed > limit {
                if rules.speedCount[fence] < UInt8.max { rules.speedCount[fence] += 1 }
                if strictest.map({ limit < $0.limit }) ?? true { strictest = (fence, limit) }
                if Int(rules.speedCount[fence]) >= settings.speedingConfirm, !rules.speedFired[fence] {
                    confirmed = true
                }
            } else {
                rules.speedCount[fence] = 0
                if speed < 0.9 * limit { rules.speedFired[fence] = false }
            }
        }
        guard confirmed, let strictest else { return }
        // The strictest fence already reported this stretch of speeding: the looser one that
        // confirms now adds nothing.
        let alreadyReported = rules.speedFired[strictest.fence]
        for stored in insideList {
            let fence = Int(stored)
            guard let limit = fences.settings(fence).rules?.speedLimit, speed > limit,
                Int(rules.speedCount[fence]) >= settings.speedingConfirm || fence == strictest.fence
            else { continue }
            rules.speedFired[fence] = true
        }
        guard !alreadyReported else { return }
        let speeding = GeofenceEvent.Speeding(fence: strictest.fence, speed: speed, limit: strictest.limit)
        append(
            GeofenceEvent(.speeding(speeding), time: time, location: location),
            settings: fences.settings(strictest.fence))
    }

    /// `true` when the fence's clearance is below `--vehicle-height`; nil otherwise (the field
    /// is left out of the event).
    func tooLow(_ fenceSettings: FenceSettings) -> Bool? {
        guard let height = settings.vehicleHeight, let clearance = fenceSettings.rules?.clearance,
            clearance < height
        else { return nil }
        return true
    }
}
