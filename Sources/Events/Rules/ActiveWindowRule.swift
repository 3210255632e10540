import Fences
import NMEA

/// `active` (in the fence's `timezone`, else the user's zone): outside its opening hours a fence
/// takes no part, silently: a
/// receiver inside it when its window closes keeps no inside state and hears nothing. When its
/// window opens the fence is evaluated as at start (an initial `enter` if the receiver is in it).
final class ActiveWindowRule: EngineRule {
    /// Fences with an `active` window, ascending: the ones looked at.
    private let windowed: [Int32]
    /// Per fence of the set: outside its window.
    private var dormant: [Bool]
    /// `openedStamp[f] == fixCount`: the window of fence `f` opened at this fix.
    private var openedStamp: [UInt32]
    private var fixCount: UInt32 = 0
    /// The windows are looked at again from this fix time on (ms): the next whole UTC minute
    /// (windows are in minutes, and every zone offset since 1972 is whole minutes), and at once
    /// if the fix time goes back before `lastCheck`.
    private var nextCheck = Int64.min
    private var lastCheck = Int64.min

    init?(fences: FenceSet) {
        var windowed: [Int32] = []
        for index in 0..<fences.count where fences.settings(index).rules?.active != nil {
            windowed.append(Int32(index))
        }
        guard !windowed.isEmpty else { return nil }
        self.windowed = windowed
        dormant = Array(repeating: false, count: fences.count)
        openedStamp = Array(repeating: 0, count: fences.count)
    }

    func play(of fence: Int) -> FencePlay {
        if dormant[fence] { return .outOfPlay }
        return fixCount != 0 && openedStamp[fence] == fixCount ? .cameIntoPlay : .inPlay
    }

    func beforeFix(time: UTCTime, location: GeofenceEvent.Location, engine: EventEngine) {
        fixCount &+= 1
        if fixCount == 0 {
            // The stamp wrapped (after 4 billion fixes): clear the stamps so none is mistaken.
            for index in openedStamp.indices { openedStamp[index] = 0 }
            fixCount = 1
        }
        let now = time.millisecondsSinceEpoch
        // A million fences with windows need not be looked at on every fix of the same minute.
        guard now >= nextCheck || now < lastCheck else { return }
        lastCheck = now
        let minute: Int64 = 60_000
        let minuteNow = now >= 0 ? now / minute : (now - minute + 1) / minute
        nextCheck = (minuteNow + 1) * minute
        for stored in windowed {
            let fence = Int(stored)
            guard let schedule = engine.fences.settings(fence).rules?.active else { continue }
            let active = schedule.isActive(atMilliseconds: now, localZone: engine.settings.localZone)
            if active == !dormant[fence] { continue }
            dormant[fence] = !active
            if active {
                openedStamp[fence] = fixCount
            } else if engine.isInside(fence) {
                engine.dropSilently(fence, at: now)
            }
        }
    }

    func entered(_ fence: Int) {}

    func holdsExit(of fence: Int, beyond: Bool, at now: Int64, engine: EventEngine) -> Bool { false }

    func afterFix(_ fix: Fix, time: UTCTime, location: GeofenceEvent.Location, engine: EventEngine) {}

    func foresee(_ ahead: inout FixesAhead, engine: EventEngine) { ahead.due(nextCheck) }
}
