import Fences
import NMEA

/// `speed_limit` (and `maxspeed:hgv` for `--hgv`): `speeding` once a usable fix inside a fence with a limit has been above it on
/// `speedingConfirm` consecutive fixes, on the road being driven spanning `speedingConfirm` - 1
/// seconds or more too (three fixes at 1 Hz: at 10 Hz a third of a second is shorter than a
/// receiver's error takes to move off a road, and a road joined at a junction is matched a few
/// metres late); once per visit, re-armed when the speed falls below 90 %
/// of the limit. Of the roads, only the road being driven counts (`RoadMatcher`), from the fix
/// it became that road, even a few metres beyond its footprint; of the other fences, those the
/// receiver is inside of. Under several limits one event reports the strictest of those being
/// exceeded. The limit is the one in force at the fix's time (a conditional one while its time
/// holds: `ConditionalLimitRule`); on the road being driven, the limit of the way it is driven
/// along its line (`RoadMatcher.travel`), the strictest of a fence's ways elsewhere. A road
/// chosen among others the vehicle could still be on (`RoadMatcher.forEachRival`: at the start
/// of a drive, or past a junction) is held to the highest of their limits until the fixes tell
/// them apart: the error's lean toward a slower road beside the one driven (a ramp along a
/// motorway, a service road leaving the street) is no speeding, and a speed above every one of
/// them is told as soon, with the road and limit that held it (the limit certainly broken, which
/// is the chosen road's own once the others have fallen away). A fix without a speed changes
/// nothing.
final class SpeedLimitRule: EngineRule {
    /// Per fence of the set: consecutive usable fixes above the limit, and whether this visit's
    /// `speeding` has been raised.
    private var count: [UInt8]
    private var fired: [Bool]
    /// Per fence: the time (milliseconds, wrapping: only spans of minutes are taken) of the first
    /// of the consecutive fixes above the limit.
    private var since: [UInt32]
    /// The road being driven at the last fix: a road becoming it starts a visit.
    private var lastRoad: Int?

    init?(fences: FenceSet) {
        guard
            (0..<fences.count).contains(where: {
                let rules = fences.settings($0).rules
                return rules?.limitsSpeed == true
            })
        else { return nil }
        count = Array(repeating: 0, count: fences.count)
        fired = Array(repeating: false, count: fences.count)
        since = Array(repeating: 0, count: fences.count)
    }

    /// Whether fence `fence`'s fixes above the limit, up to the one at `now`, confirm `speeding`
    /// (`road`: it is the road being driven).
    private func confirms(_ fence: Int, road: Int?, now: Int64, confirm: Int) -> Bool {
        guard Int(count[fence]) >= confirm else { return false }
        guard fence == road else { return true }
        return Int64(UInt32(truncatingIfNeeded: now) &- since[fence]) >= Int64(confirm - 1) * 1000
    }

    /// The limit of `fence` in force at `now` for the vehicle: on the road being driven (`road`),
    /// the limit of the way it is driven along its line.
    private func limit(of fence: Int, road: Int?, now: Int64, engine: EventEngine) -> Double? {
        engine.rulesInForce(of: fence, atMilliseconds: now)?.speedLimit(
            for: engine.settings.vehicle, along: fence == road ? engine.roads.travel : nil)
    }

    /// The limit above which `limit` (of `fence`) counts as exceeded, and the fence it is of: on a
    /// road chosen among others it could still be, the highest limit of them all.
    private func threshold(
        _ limit: Double, of fence: Int, road: Int?, now: Int64, engine: EventEngine
    ) -> (fence: Int, limit: Double) {
        var highest = (fence: fence, limit: limit)
        guard fence == road else { return highest }
        engine.roads.forEachRival { rival in
            if let theirs = engine.rulesInForce(of: rival, atMilliseconds: now)?.speedLimit(
                for: engine.settings.vehicle, along: nil), theirs > highest.limit
            {
                highest = (rival, theirs)
            }
        }
        return highest
    }

    func play(of fence: Int) -> FencePlay { .inPlay }

    func beforeFix(time: UTCTime, location: GeofenceEvent.Location, engine: EventEngine) {}

    /// A visit starts at `enter`, but a road's starts when it becomes the road being driven
    /// (`afterFix`): entering the road already driven at the fix before (its fixes had been a few
    /// metres beyond its footprint) neither forgets the fixes above its limit nor tells its
    /// `speeding` again.
    func entered(_ fence: Int) {
        guard fence != lastRoad else { return }
        count[fence] = 0
        fired[fence] = false
    }

    func holdsExit(of fence: Int, beyond: Bool, at now: Int64, engine: EventEngine) -> Bool { false }

    func afterFix(_ fix: Fix, time: UTCTime, location: GeofenceEvent.Location, engine: EventEngine) {
        guard let speed = fix.speed, speed.isFinite else { return }
        let confirm = engine.settings.speedingConfirm
        let now = time.millisecondsSinceEpoch
        let road = engine.roads.road
        if road != lastRoad, let road {
            count[road] = 0
            fired[road] = false
        }
        lastRoad = road
        // `fence`: the one counted; `held`: the fence and limit reported.
        var strictest: (fence: Int, held: (fence: Int, limit: Double))?
        var confirmed = false
        for fence in Limited(engine: engine) {
            guard let limit = limit(of: fence, road: road, now: now, engine: engine) else { continue }
            let held = threshold(limit, of: fence, road: road, now: now, engine: engine)
            if speed > held.limit {
                if count[fence] == 0 { since[fence] = UInt32(truncatingIfNeeded: now) }
                if count[fence] < UInt8.max { count[fence] += 1 }
                if strictest.map({ held.limit < $0.held.limit }) ?? true { strictest = (fence, held) }
                if confirms(fence, road: road, now: now, confirm: confirm), !fired[fence] { confirmed = true }
            } else {
                count[fence] = 0
                if speed < 0.9 * limit { fired[fence] = false }
            }
        }
        guard confirmed, let strictest else { return }
        // The strictest fence already reported this stretch of speeding: the looser one that
        // confirms now adds nothing.
        let alreadyReported = fired[strictest.fence]
        for fence in Limited(engine: engine) {
            guard let limit = limit(of: fence, road: road, now: now, engine: engine),
                speed > threshold(limit, of: fence, road: road, now: now, engine: engine).limit,
                confirms(fence, road: road, now: now, confirm: confirm) || fence == strictest.fence
            else { continue }
            fired[fence] = true
        }
        guard !alreadyReported else { return }
        let speeding = GeofenceEvent.Speeding(fence: strictest.held.fence, speed: speed, limit: strictest.held.limit)
        engine.append(
            GeofenceEvent(.speeding(speeding), time: time, location: location),
            settings: engine.fences.settings(strictest.held.fence))
    }

    /// The speed a receiver will report is not foreseen: inside a limited fence, no fix is quiet.
    func foresee(_ ahead: inout FixesAhead, engine: EventEngine) {
        for fence in Limited(engine: engine)
        where engine.fences.settings(fence).rules?.limitsSpeed == true {
            ahead.foreseeNone()
            return
        }
    }
}

/// The fences whose limits count at a fix: those the receiver is inside of that are not roads,
/// then the road being driven. A value walking the engine's lists: nothing is allocated.
private struct Limited: Sequence, IteratorProtocol {
    let engine: EventEngine
    var position = 0
    var roadDone = false

    init(engine: EventEngine) { self.engine = engine }

    mutating func next() -> Int? {
        while position < engine.insideList.count {
            let fence = Int(engine.insideList[position])
            position += 1
            if !engine.roads.isRoad(fence) { return fence }
        }
        guard !roadDone else { return nil }
        roadDone = true
        return engine.roads.road
    }
}
