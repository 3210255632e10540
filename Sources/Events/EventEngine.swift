import Fences
import NMEA

/// Turns fixes into the events of docs/events.md: one state machine per fence, advanced only for the
/// fences near each fix.
///
/// Per usable fix the engine touches: the fences containing the fix (grid query), the fences it
/// is inside of (a short sorted list), the fences the segment from the previous fix passes
/// through, and, for fences with an approach distance, the fences the path ahead reaches. All
/// times are fix times, so a replay at any speed gives the same events. After the first fixes have
/// sized its scratch lists, a fix that raises no event allocates nothing.
///
/// Not thread-safe: the engine thread owns it.
public final class EventEngine {
    public let fences: FenceSet
    public let settings: EventSettings

    // Per-fence state, indexed by fence (file order); internal for the rules (Rules/).
    var inside: [Bool]
    var enterTime: [Int64]
    var dwellFired: [Bool]
    var exitCount: [UInt8]
    private var approachFired: [Bool]
    /// `containedStamp[f] == fixNumber` marks the fences containing the current fix.
    var containedStamp: [UInt32]
    var fixNumber: UInt32 = 0
    /// The rules some fence carries (`EngineRules.all`), each with its own per-fence state.
    let rules: [any EngineRule]
    /// The exit delay among them, whose per-fence count is saved with the fence states.
    let exitDelay: ExitDelayRule?

    /// Fences the receiver is inside of, ascending; and fences whose approach has fired.
    var insideList: [Int32] = []
    private var nextInsideList: [Int32] = []
    private var approachedList: [Int32] = []
    private var nextApproachedList: [Int32] = []

    let containing = FenceHits()
    private let crossed = FenceHits()
    private let ahead = FenceHits()
    /// The fences near the last fix, for `quietFixesAhead` (EventEngine+Foresight).
    let nearby = FenceHits()
    /// The road being driven, and the roads ahead along it (docs/events.md, "The road being driven").
    let roads: RoadMatcher
    private let roadsAhead = RoadsAhead()
    var pending: [GeofenceEvent] = []

    /// Longest approach distance of any fence (0: no approach events at all).
    let longestApproach: Double

    var started = false
    /// When each fence was first announced by `registered` (kept over a reload for an unchanged id).
    var registrationTime: [Int64]
    var previous: Fix?
    var lastUsableTime: Int64?
    /// From the usable fix before the last to the last: milliseconds of fix time, and metres.
    var lastStep: (milliseconds: Int64, metres: Double)?
    var lost = false
    var lastHeartbeat: Int64?
    var motion = MotionState()

    public init(fences: FenceSet, settings: EventSettings = EventSettings()) {
        self.fences = fences
        self.settings = settings
        let count = fences.count
        inside = Array(repeating: false, count: count)
        enterTime = Array(repeating: Self.neverChanged, count: count)
        registrationTime = Array(repeating: Self.neverChanged, count: count)
        dwellFired = Array(repeating: false, count: count)
        exitCount = Array(repeating: 0, count: count)
        approachFired = Array(repeating: false, count: count)
        containedStamp = Array(repeating: 0, count: count)
        rules = EngineRules.applying(to: fences)
        exitDelay = rules.lazy.compactMap { $0 as? ExitDelayRule }.first
        roads = RoadMatcher(fences: fences)
        var longest = 0.0
        for index in 0..<count {
            longest = max(longest, fences.settings(index).approach ?? settings.approach ?? 0)
        }
        longestApproach = longest
        pending.reserveCapacity(16)
        insideList.reserveCapacity(16)
        nextInsideList.reserveCapacity(16)
    }

    // MARK: - Inputs

    /// A completed fix. Usable fixes (a time, and an accuracy within `maxAccuracy`) advance the
    /// fences; others only move the clock, like a cycle without a fix.
    public func process(_ fix: Fix, _ emit: (GeofenceEvent) throws -> Void) rethrows {
        try process(fix, continuing: true, emit)
    }

    /// A fix at a place the receiver jumped to (`FixPlausibility.Verdict.jumped`): the fences are
    /// advanced as by any fix, but the way from the last usable fix was not driven, so no fence
    /// counts as crossed on it.
    public func process(afterJump fix: Fix, _ emit: (GeofenceEvent) throws -> Void) rethrows {
        try process(fix, continuing: false, emit)
    }

    private func process(_ fix: Fix, continuing: Bool, _ emit: (GeofenceEvent) throws -> Void) rethrows {
        guard let time = fix.time else { return }
        if let accuracy = fix.accuracy, accuracy > settings.maxAccuracy {
            try tick(time, emit)
            return
        }
        try startIfNeeded(time, emit)
        pending.removeAll(keepingCapacity: true)
        let now = time.millisecondsSinceEpoch
        let location = GeofenceEvent.Location(fix)
        fixNumber &+= 1
        if fixNumber == 0 {
            // The stamp wrapped (after 4 billion fixes): clear the stamps so none is mistaken.
            for index in containedStamp.indices { containedStamp[index] = 0 }
            fixNumber = 1
        }

        fences.fences(containingLat: fix.latitude, lon: fix.longitude, into: containing)
        for index in containing.indices { containedStamp[Int(index)] = fixNumber }
        roads.match(fix, accuracyCap: settings.accuracyCap)

        for rule in rules { rule.beforeFix(time: time, location: location, engine: self) }
        stayOrLeave(fix, time: time, location: location)
        enterContaining(time: time, location: location)
        if continuing, let previous { crossBetween(previous, fix, time: time, location: location) }
        approachAhead(fix, time: time, location: location)
        for rule in rules { rule.afterFix(fix, time: time, location: location, engine: self) }
        switch motion.advance(fix, at: now, settings: settings) {
        case .stationary: pending.append(GeofenceEvent(.stationary, time: time, location: location))
        case .moving: pending.append(GeofenceEvent(.moving, time: time, location: location))
        case nil: break
        }

        if lost {
            lost = false
            pending.append(GeofenceEvent(.fixAcquired, time: time, location: location))
        }
        if let interval = settings.heartbeat, lastHeartbeat.map({ now - $0 >= Limits.milliseconds(interval) }) ?? true {
            lastHeartbeat = now
            pending.append(GeofenceEvent(.heartbeat(inside: insideList.map(Int.init)), time: time, location: location))
        }
        if !continuing {
            lastStep = nil
        } else if let previous, let before = lastUsableTime {
            let metres = Geodesy.haversine(
                lat1: previous.latitude, lon1: previous.longitude, lat2: fix.latitude, lon2: fix.longitude)
            lastStep = (now - before, metres)
        }
        previous = fix
        lastUsableTime = now
        try flush(emit)
    }

    /// A receiver cycle without a usable fix (or, when the receiver falls silent, the wall clock):
    /// raises `fix_lost` once no usable fix has come for `stale` seconds. Losing the fix never
    /// exits a fence.
    public func tick(_ time: UTCTime, _ emit: (GeofenceEvent) throws -> Void) rethrows {
        try startIfNeeded(time, emit)
        guard !lost, let last = lastUsableTime,
            time.millisecondsSinceEpoch - last >= Limits.milliseconds(settings.stale)
        else { return }
        lost = true
        try emit(GeofenceEvent(.fixLost, time: time, location: previous.map(GeofenceEvent.Location.init)))
    }

    /// The receiver fell silent (no bytes at all) for `stale` seconds of wall-clock time, as the
    /// caller measured it: `fix_lost` at the wall-clock `time`, if there was a fix to lose. The
    /// caller measures the silence itself because the receiver's clock and the system clock need
    /// not agree (a receiver replaying an old route, a machine without NTP).
    public func silence(at time: UTCTime, _ emit: (GeofenceEvent) throws -> Void) rethrows {
        guard !lost, lastUsableTime != nil else { return }
        lost = true
        try emit(GeofenceEvent(.fixLost, time: time, location: previous.map(GeofenceEvent.Location.init)))
    }

    /// The stop to save with each fix's events (nil: the receiver is not stopped).
    public var motionSnapshot: MotionRecord? { motion.record }

    /// Takes a saved stop back silently: no second `stationary`; `moving` once it leaves. Call
    /// before the first fix.
    public func restoreMotion(_ record: MotionRecord?) {
        if let record { motion.restore(record) }
    }

    /// Fence indices the receiver is inside of now, ascending.
    public var insideFences: [Int] { insideList.map(Int.init) }

    /// The road being driven (a fence index), nil when the last usable fix is on none.
    public var roadBeingDriven: Int? { roads.road }

    func enterTimeOf(_ fence: Int) -> Int64 { enterTime[fence] }
    func registrationTimeOf(_ fence: Int) -> Int64 { registrationTime[fence] }
    func keepRegistrationTime(_ fence: Int, _ time: Int64) { registrationTime[fence] = time }
    func isInside(_ fence: Int) -> Bool { inside[fence] }

    /// `enterTime` of a fence the receiver has neither entered nor left.
    static let neverChanged = Int64.min

    /// Restored state of a fence the receiver is outside of: left at `time`, without an event.
    func markOutside(_ fence: Int, since time: Int64) {
        guard !inside[fence] else { return }
        enterTime[fence] = time
    }
    func dwellFiredOf(_ fence: Int) -> Bool { dwellFired[fence] }

    /// Restored state: inside since `time`, without an event.
    func markInside(_ fence: Int, since time: Int64, dwellFired fired: Bool) {
        guard !inside[fence] else { return }
        inside[fence] = true
        enterTime[fence] = time
        dwellFired[fence] = fired
        exitCount[fence] = 0
        let stored = Int32(fence)
        insideList.insert(stored, at: insideList.firstIndex { $0 > stored } ?? insideList.endIndex)
    }

    // MARK: - Per-fence rules

    /// Emits `registered` now, with `time`, instead of at the first receiver time: a live run
    /// announces its fences when it starts (wall clock); a replay keeps to the capture's clock.
    public func start(at time: UTCTime, _ emit: (GeofenceEvent) throws -> Void) rethrows {
        try startIfNeeded(time, emit)
    }

    private func startIfNeeded(_ time: UTCTime, _ emit: (GeofenceEvent) throws -> Void) rethrows {
        guard !started else { return }
        started = true
        for fence in registrationTime.indices where registrationTime[fence] == Self.neverChanged {
            registrationTime[fence] = time.millisecondsSinceEpoch
        }
        try emit(GeofenceEvent(.registered(fences: Array(0..<fences.count), message: nil), time: time))
    }

    /// Fences the receiver was inside of: still inside (dwell), or leaving (exit, visit) once it is
    /// beyond the exit distance on `exitConfirm` consecutive usable fixes (and for the fence's
    /// `delay`, when it has one: `ExitDelayRule`).
    private func stayOrLeave(_ fix: Fix, time: UTCTime, location: GeofenceEvent.Location) {
        let now = time.millisecondsSinceEpoch
        nextInsideList.removeAll(keepingCapacity: true)
        for stored in insideList {
            let fence = Int(stored)
            let fenceSettings = fences.settings(fence)
            var beyond = false
            if containedStamp[fence] != fixNumber {
                let hysteresis = fenceSettings.hysteresis ?? settings.hysteresis
                let exitDistance = max(hysteresis, min(fix.accuracy ?? 0, settings.accuracyCap))
                let distance = fences.signedDistance(
                    fence: fence, lat: fix.latitude, lon: fix.longitude, limit: exitDistance + 1)
                beyond = distance > exitDistance
            }
            let held = !rules.isEmpty && exitIsHeld(fence, beyond: beyond, at: now)
            if beyond {
                // Saturating: a `delay` may hold an exit for more fixes than the count holds.
                if exitCount[fence] < UInt8.max { exitCount[fence] += 1 }
                if Int(exitCount[fence]) >= settings.exitConfirm, !held {
                    leave(fence, time: time, location: location, settings: fenceSettings)
                    continue
                }
            } else {
                exitCount[fence] = 0
            }
            nextInsideList.append(stored)
            let dwell = fenceSettings.dwell ?? settings.dwell
            if !dwellFired[fence], now - enterTime[fence] >= Limits.milliseconds(dwell) {
                dwellFired[fence] = true
                let dwell = GeofenceEvent.Dwell(
                    fence: fence, enterTime: UTCTime(millisecondsSinceEpoch: enterTime[fence]),
                    duration: Double(now - enterTime[fence]) / 1000)
                append(GeofenceEvent(.dwell(dwell), time: time, location: location), settings: fenceSettings)
            }
        }
        swap(&insideList, &nextInsideList)
    }

    /// The receiver leaves `fence`: `exit` (with `reason` when it did not move out: docs/events.md),
    /// and `visit` for a stay that reached the dwell time.
    func leave(
        _ fence: Int, time: UTCTime, location: GeofenceEvent.Location?, settings fenceSettings: FenceSettings,
        reason: TransitionReason? = nil
    ) {
        inside[fence] = false
        exitCount[fence] = 0
        let exit = GeofenceEvent.Exit(fence: fence, reason: reason)
        append(GeofenceEvent(.exit(exit), time: time, location: location), settings: fenceSettings)
        if dwellFired[fence] {
            let visit = GeofenceEvent.Visit(
                fence: fence, enterTime: UTCTime(millisecondsSinceEpoch: enterTime[fence]), exitTime: time,
                duration: Double(time.millisecondsSinceEpoch - enterTime[fence]) / 1000)
            append(GeofenceEvent(.visit(visit), time: time, location: location), settings: fenceSettings)
        }
        dwellFired[fence] = false
        enterTime[fence] = time.millisecondsSinceEpoch
    }

    /// Fences containing the fix that the receiver was not inside of: `enter` at once (a warning
    /// must be early; exits are the ones confirmed). A road is entered only as the road being
    /// driven: a road crossed at a junction, passed over or beside is not.
    private func enterContaining(time: UTCTime, location: GeofenceEvent.Location) {
        let isFirstFix = previous == nil
        for stored in containing.indices where !inside[Int(stored)] {
            let fence = Int(stored)
            if fence != roads.road && roads.isRoad(fence) { continue }
            let fencePlay = play(of: fence)
            if fencePlay == .outOfPlay { continue }
            // A fence whose window opened at this fix is evaluated as at start (docs/fences.md).
            let activated = fencePlay == .cameIntoPlay
            inside[fence] = true
            for rule in rules { rule.entered(fence) }
            // Kept sorted by file order; the list is short, so a linear insert is cheapest.
            insideList.insert(stored, at: insideList.firstIndex { $0 > stored } ?? insideList.endIndex)
            enterTime[fence] = time.millisecondsSinceEpoch
            exitCount[fence] = 0
            dwellFired[fence] = false
            let fenceSettings = fences.settings(fence)
            if activated || !isFirstFix || settings.initial {
                let enter = GeofenceEvent.Enter(
                    fence: fence, initial: isFirstFix || activated,
                    restrictions: BrokenRestrictions(
                        rulesInForce(of: fence, atMilliseconds: time.millisecondsSinceEpoch), vehicle: settings.vehicle)
                )
                append(GeofenceEvent(.enter(enter), time: time, location: location), settings: fenceSettings)
            }
            if (fenceSettings.dwell ?? settings.dwell) == 0 {
                dwellFired[fence] = true
                let dwell = GeofenceEvent.Dwell(fence: fence, enterTime: time, duration: 0)
                append(GeofenceEvent(.dwell(dwell), time: time, location: location), settings: fenceSettings)
            }
        }
    }

    /// Fences the segment from the previous usable fix passes through while neither fix is inside
    /// them (a small fence passed at speed between two fixes).
    private func crossBetween(_ previous: Fix, _ fix: Fix, time: UTCTime, location: GeofenceEvent.Location) {
        // A fence the fix is in, or was in, is no crossing: passed over before the segment's
        // geometry, which is most of the work when the vehicle is inside a fence.
        fences.fences(
            crossedFrom: GeoPoint(lat: previous.latitude, lon: previous.longitude),
            to: GeoPoint(lat: fix.latitude, lon: fix.longitude), into: crossed
        ) { fence in !inside[fence] && containedStamp[fence] != fixNumber && isInPlay(fence) }
        for stored in crossed.indices {
            let fence = Int(stored)
            guard !fences.contains(fence: fence, lat: previous.latitude, lon: previous.longitude) else { continue }
            append(
                GeofenceEvent(.cross(fence: fence), time: time, location: location),
                settings: fences.settings(fence))
        }
    }

    /// Fences with an approach distance that the path ahead reaches within that distance: once per
    /// approach, re-armed when the path stops reaching the fence. `--approach` is for the kinds of
    /// fence `--approach-kinds` names (`approachWarning`). On a road, the roads ahead are those
    /// reached along it and the roads joined to it (`RoadsAhead`), not those the straight path
    /// meets: a tunnel under the road ahead is not approached.
    private func approachAhead(_ fix: Fix, time: UTCTime, location: GeofenceEvent.Location) {
        guard longestApproach > 0, let track = fix.track, let speed = fix.speed,
            speed >= settings.minimumApproachSpeed
        else { return }
        fences.fences(
            aheadOfLat: fix.latitude, lon: fix.longitude, bearing: track, maxDistance: longestApproach, into: ahead)
        nextApproachedList.removeAll(keepingCapacity: true)
        let now = time.millisecondsSinceEpoch
        func approach(_ fence: Int, distance: (_ reach: Double) -> Double?) {
            guard !inside[fence], containedStamp[fence] != fixNumber, isInPlay(fence),
                let warning = approachWarning(of: fence, atMilliseconds: now),
                let distance = distance(warning.reach), distance <= warning.reach
            else { return }
            nextApproachedList.append(Int32(fence))
            if !approachFired[fence] {
                let approach = GeofenceEvent.Approach(
                    fence: fence, distance: distance, eta: distance / speed, restrictions: warning.restrictions)
                append(
                    GeofenceEvent(.approach(approach), time: time, location: location),
                    settings: fences.settings(fence))
            }
        }
        let road = roads.road
        for stored in ahead.indices {
            let fence = Int(stored)
            if (road != nil || roads.deciding) && roads.isRoad(fence) { continue }
            approach(fence) { reach in
                fences.distanceAlongRay(
                    toFence: fence, lat: fix.latitude, lon: fix.longitude, bearing: track, maxDistance: reach)
            }
        }
        if let road {
            roadsAhead.walk(
                fences, from: road, lat: fix.latitude, lon: fix.longitude, bearing: track,
                maxDistance: longestApproach
            ) { roads.tags($0) }
            for k in roadsAhead.fences.indices {
                approach(Int(roadsAhead.fences[k])) { _ in roadsAhead.distances[k] }
            }
        }
        // Re-arm the fences the path no longer reaches; those still reached stay fired. A fence the
        // receiver is now inside of stays fired until the path stops reaching it after the visit.
        for stored in approachedList where !nextApproachedList.contains(stored) {
            let fence = Int(stored)
            if inside[fence] || containedStamp[fence] == fixNumber {
                nextApproachedList.append(stored)
            } else {
                approachFired[fence] = false
            }
        }
        for stored in nextApproachedList { approachFired[Int(stored)] = true }
        swap(&approachedList, &nextApproachedList)
    }

    /// A rule takes `fence` out of play while the receiver is inside: it keeps no inside state,
    /// and nothing is said.
    func dropSilently(_ fence: Int, at now: Int64) {
        inside[fence] = false
        exitCount[fence] = 0
        dwellFired[fence] = false
        enterTime[fence] = now
        dropFromInsideList(fence)
    }

    func dropFromInsideList(_ fence: Int) {
        if let position = insideList.firstIndex(of: Int32(fence)) { insideList.remove(at: position) }
    }

    // MARK: - Output

    func append(_ event: GeofenceEvent, settings fenceSettings: FenceSettings) {
        if let notify = fenceSettings.notify, let type = event.kind.fenceEventType, !notify.contains(type) { return }
        pending.append(event)
    }

    /// Emits this fix's events in the order of docs/events.md: those flagged with a broken
    /// restriction first (a vehicle too tall for what is ahead must hear it before anything
    /// else), then exit, visit,
    /// cross, enter, dwell, approach, speeding, then the rest; ties in fence file order.
    func flush(_ emit: (GeofenceEvent) throws -> Void) rethrows {
        guard !pending.isEmpty else { return }
        pending.sort { a, b in
            if a.restrictions.isEmpty != b.restrictions.isEmpty { return !a.restrictions.isEmpty }
            return a.kind.rank != b.kind.rank ? a.kind.rank < b.kind.rank : (a.fence ?? -1) < (b.fence ?? -1)
        }
        for event in pending { try emit(event) }
        pending.removeAll(keepingCapacity: true)
    }
}
