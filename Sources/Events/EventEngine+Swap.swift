import Fences
import NMEA

/// How the fences of one set map onto the next: for each fence of the old set, its index in the
/// new one (the same id), or -1 when it is gone. Built away from the engine thread (a million
/// ids take a while to hash), then used by the engine thread for the swap itself.
public struct FenceSetMatch: Sendable {
    public let old: FenceSet
    public let new: FenceSet
    /// Per fence of `old`: the index of the fence with the same id in `new`, or -1.
    public let newIndexOfOld: [Int32]
    /// The fences of `new` that are new (an id `old` lacks) or reshaped (same id, other geometry),
    /// in file order: the ones a swap registers.
    public let arrivals: [Int]

    public init(old: FenceSet, new: FenceSet) {
        var indexByID: [FenceID: Int32] = [:]
        indexByID.reserveCapacity(new.count)
        for index in 0..<new.count { indexByID[new.ids[index]] = Int32(index) }
        var mapping = [Int32](repeating: -1, count: old.count)
        for index in 0..<old.count { mapping[index] = indexByID[old.ids[index]] ?? -1 }
        var unchanged = [Bool](repeating: false, count: new.count)
        for index in 0..<old.count where mapping[index] >= 0 {
            let fence = Int(mapping[index])
            unchanged[fence] = new.geometryHash(fence) == old.geometryHash(index)
        }
        self.old = old
        self.new = new
        newIndexOfOld = mapping
        arrivals = unchanged.indices.filter { !unchanged[$0] }
    }

    /// Fences of the old set whose id the new set lacks, in file order.
    public var gone: [Int] { newIndexOfOld.indices.filter { newIndexOfOld[$0] < 0 } }
}

/// Replacing the fence set while the receiver runs (docs/events.md "Fences that change"): the old
/// engine lets go of the fences that leave, the new one takes over the state of those that stay
/// and looks at once at the last usable fix for those that come.
extension EventEngine {
    /// The receiver leaves `fences` now, without moving: `exit` with `reason` (and `visit` for a
    /// stay that reached the dwell time), located at the last usable fix, for each of those it is
    /// inside of; `time` is when the set was replaced.
    public func leave(
        _ fences: [Int], reason: TransitionReason, at time: UTCTime, _ emit: (GeofenceEvent) throws -> Void
    ) rethrows {
        let location = previous.map(GeofenceEvent.Location.init)
        pending.removeAll(keepingCapacity: true)
        for fence in fences where inside[fence] {
            leave(fence, time: time, location: location, settings: self.fences.settings(fence), reason: reason)
            // Outside since the last usable fix, not since the swap.
            enterTime[fence] = lastUsableTime ?? time.millisecondsSinceEpoch
        }
        insideList.removeAll { !inside[Int($0)] }
        try flush(emit)
    }

    /// Takes over from `previous` (the engine of `match.old`) before anything else is done with
    /// this one: the last fix, the motion and the clock go on; a fence with the same id and the same
    /// geometry keeps whether the receiver is inside and since when; every fence whose id stays
    /// keeps when it was registered. A fence whose geometry changed while the receiver was inside
    /// stays inside, silently, when its new shape still contains the last usable fix (an edited
    /// outline does not raise a second `enter`); the caller gave the others their `exit` first.
    public func takeOver(from previous: EventEngine, match: FenceSetMatch) {
        self.previous = previous.previous
        lastUsableTime = previous.lastUsableTime
        lastStep = previous.lastStep
        lost = previous.lost
        lastHeartbeat = previous.lastHeartbeat
        motion = previous.motion
        for old in 0..<match.old.count {
            let fence = Int(match.newIndexOfOld[old])
            guard fence >= 0 else { continue }
            registrationTime[fence] = previous.registrationTime[old]
            let since = previous.enterTime[old]
            guard since != Self.neverChanged else { continue }
            let sameShape = fences.geometryHash(fence) == match.old.geometryHash(old)
            if previous.inside[old] {
                if sameShape || stillContainsLastFix(fence) {
                    markInside(fence, since: since, dwellFired: previous.dwellFired[old])
                }
                if sameShape, let count = previous.exitDelay?.beyondSince(of: old) {
                    exitDelay?.restore(fence, beyondSince: count)
                }
            } else if sameShape {
                markOutside(fence, since: since)
            }
        }
    }

    /// Fences whose source said when they were made (an OwnTracks waypoint's `tst`) are registered
    /// at that time, not when this run saw them: before `start`, which registers the rest.
    public func keepRegistrationTimes(_ times: [(fence: Int, time: Int64)]) {
        for (fence, time) in times where registrationTime.indices.contains(fence) { registrationTime[fence] = time }
    }

    /// Starts this engine after a swap: `registered` at `time` names only `fences` (the arrivals:
    /// an unchanged fence was registered before and keeps its registration time), with `message`
    /// saying where the new set came from.
    public func start(
        at time: UTCTime, registering fences: [Int], message: String, _ emit: (GeofenceEvent) throws -> Void
    ) rethrows {
        guard !started else { return }
        started = true
        for fence in registrationTime.indices where registrationTime[fence] == Self.neverChanged {
            registrationTime[fence] = time.millisecondsSinceEpoch
        }
        try emit(GeofenceEvent(.registered(fences: fences, message: message), time: time))
    }

    /// Whether fence `fence` of this engine contains the last usable fix.
    func stillContainsLastFix(_ fence: Int) -> Bool {
        guard let fix = previous else { return false }
        return fences.contains(fence: fence, lat: fix.latitude, lon: fix.longitude)
    }

    /// The fences that contain the last usable fix and that the receiver is not yet inside of
    /// (new ones, reshaped ones) are entered now: `enter` with `initial: true` and the `reason`
    /// (`added`, `changed`), unless `--no-initial`, at `time`, located at that fix. Nothing when
    /// the fix is lost.
    public func enterAtOnce(at time: UTCTime, _ emit: (GeofenceEvent) throws -> Void) rethrows {
        guard let fix = previous, !lost, let fixTime = lastUsableTime else { return }
        pending.removeAll(keepingCapacity: true)
        let location = GeofenceEvent.Location(fix)
        fences.fences(containingLat: fix.latitude, lon: fix.longitude, into: containing)
        for stored in containing.indices where !inside[Int(stored)] {
            let fence = Int(stored)
            markInside(fence, since: fixTime, dwellFired: false)
            let fenceSettings = fences.settings(fence)
            if settings.initial {
                // A fence registered by this swap is new; one registered before it was reshaped.
                let reason: TransitionReason =
                    registrationTime[fence] == time.millisecondsSinceEpoch ? .added : .changed
                let enter = GeofenceEvent.Enter(fence: fence, initial: true, reason: reason)
                append(GeofenceEvent(.enter(enter), time: time, location: location), settings: fenceSettings)
            }
            if (fenceSettings.dwell ?? settings.dwell) == 0 {
                dwellFired[fence] = true
                let dwell = GeofenceEvent.Dwell(
                    fence: fence, enterTime: UTCTime(millisecondsSinceEpoch: fixTime), duration: 0)
                append(GeofenceEvent(.dwell(dwell), time: time, location: location), settings: fenceSettings)
            }
        }
        try flush(emit)
    }
}

extension EventEngine {
    /// The fences of this engine (the old set of `match`) that the receiver is inside of and that
    /// the new set takes away: `removed` (the id is gone) and `reshaped` (same id, a new shape that
    /// no longer contains the last usable fix).
    public func departures(in match: FenceSetMatch) -> (removed: [Int], reshaped: [Int]) {
        var removed: [Int] = []
        var reshaped: [Int] = []
        for stored in insideList {
            let old = Int(stored)
            let fence = Int(match.newIndexOfOld[old])
            if fence < 0 {
                removed.append(old)
            } else if match.new.geometryHash(fence) != fences.geometryHash(old),
                !newShapeContainsLastFix(match.new, fence)
            {
                reshaped.append(old)
            }
        }
        return (removed, reshaped)
    }

    private func newShapeContainsLastFix(_ set: FenceSet, _ fence: Int) -> Bool {
        guard let fix = previous else { return false }
        return set.contains(fence: fence, lat: fix.latitude, lon: fix.longitude)
    }
}
