import Fences
import NMEA
import Presentation

/// The conditional limits (`maxspeed:conditional`, `maxweight:conditional`, ...): a fence's limits
/// are those in force at the fix's time (`rulesInForce`), read in the fence's `timezone` or else
/// the user's zone (`EventSettings.localZone`), so `speeding` reports the limit in force and an
/// `approach` or `enter` is flagged `too_heavy` against the weight limit of its time. The times are
/// whole minutes, so the limits can change only at a whole minute: the foresight wakes the reader
/// there (at most once a minute), since a limit coming into force may flag the fence ahead.
final class ConditionalLimitRule: EngineRule {
    init?(fences: FenceSet) {
        guard (0..<fences.count).contains(where: { fences.settings($0).rules?.conditional != nil }) else {
            return nil
        }
    }

    func play(of fence: Int) -> FencePlay { .inPlay }

    func beforeFix(time: UTCTime, location: GeofenceEvent.Location, engine: EventEngine) {}

    func entered(_ fence: Int) {}

    func holdsExit(of fence: Int, beyond: Bool, at now: Int64, engine: EventEngine) -> Bool { false }

    func afterFix(_ fix: Fix, time: UTCTime, location: GeofenceEvent.Location, engine: EventEngine) {}

    func foresee(_ ahead: inout FixesAhead, engine: EventEngine) {
        let minute: Int64 = 60_000
        let minuteNow = ahead.now >= 0 ? ahead.now / minute : (ahead.now - minute + 1) / minute
        ahead.due((minuteNow + 1) * minute)
    }
}

extension EventEngine {
    /// The rules of `fence` as they hold at `milliseconds` (its conditional limits applied); nil
    /// for a fence without rules.
    func rulesInForce(of fence: Int, atMilliseconds milliseconds: Int64) -> FenceRules? {
        fences.settings(fence).rules?.inForce(atMilliseconds: milliseconds, localZone: settings.localZone)
    }
}

extension GeofenceEvent {
    /// The rules of the event's fence as they held at its time, which its flags were judged by
    /// and its limits are told with: conditional limits read in the fence's `timezone`, else in
    /// `localZone` (the user's, as the engine read them).
    public func fenceRules(in fences: FenceSet, localZone: ZoneOffsets) -> FenceRules? {
        fence.flatMap {
            fences.settings($0).rules?.inForce(atMilliseconds: time.millisecondsSinceEpoch, localZone: localZone)
        }
    }
}
