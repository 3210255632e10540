import Fences
import NMEA

/// The engine's memory of the fence rules (docs/fences.md, "Rules"), kept beside the per-fence
/// state of `EventEngine` so that a fence file without rules costs nothing: every array is empty
/// unless some fence has the rule it serves.
struct RuleState {
    /// Fences with an `active` window or an `expires` time, ascending: the ones looked at each fix.
    let timed: [Int32]
    /// Per fence (only when `timed` is not empty): outside its window or expired, so that it takes
    /// no part in containment, crossing, approach or speed.
    var dormant: [Bool]
    var expired: [Bool]
    /// `activatedStamp[f] == fixNumber`: fence `f` became active at this fix (initial evaluation).
    var activatedStamp: [UInt32]
    /// The timed fences are looked at again from this fix time on (ms): the next whole UTC minute
    /// (windows are in minutes, and every zone offset since 1972 is whole minutes) or the next
    /// `expires`, whichever comes first; and at once if the fix time goes back before `lastCheck`.
    var nextCheck = Int64.min
    var lastCheck = Int64.min
    /// Per fence (only when some fence has a `speed_limit`): consecutive usable fixes above the
    /// limit, and whether this visit's `speeding` has been raised.
    var speedCount: [UInt8]
    var speedFired: [Bool]

    init(fences: FenceSet) {
        var timed: [Int32] = []
        var anySpeedLimit = false
        for index in 0..<fences.count {
            guard let rules = fences.settings(index).rules else { continue }
            if rules.active != nil || rules.expires != nil { timed.append(Int32(index)) }
            if rules.speedLimit != nil { anySpeedLimit = true }
        }
        self.timed = timed
        let timedCount = timed.isEmpty ? 0 : fences.count
        dormant = Array(repeating: false, count: timedCount)
        expired = Array(repeating: false, count: timedCount)
        activatedStamp = Array(repeating: 0, count: timedCount)
        let speedCount = anySpeedLimit ? fences.count : 0
        self.speedCount = Array(repeating: 0, count: speedCount)
        speedFired = Array(repeating: false, count: speedCount)
    }

    func isDormant(_ fence: Int) -> Bool { !dormant.isEmpty && dormant[fence] }

    func wasActivated(_ fence: Int, at fixNumber: UInt32) -> Bool {
        !activatedStamp.isEmpty && activatedStamp[fence] == fixNumber
    }

    /// A new visit: the speed check starts over.
    mutating func resetSpeed(_ fence: Int) {
        guard !speedCount.isEmpty else { return }
        speedCount[fence] = 0
        speedFired[fence] = false
    }
}
