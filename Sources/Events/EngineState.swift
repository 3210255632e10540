import Fences
import NMEA

/// What the engine must remember across restarts (docs/running.md): per fence, whether the receiver is
/// inside and since when, plus a hash of the fence's geometry so that a changed fence starts fresh.
/// The store persists these records; the engine takes them back with `restore`.
public struct FenceStateRecord: Sendable, Equatable {
    public var fenceID: FenceID
    public var geometryHash: UInt64
    public var inside: Bool
    public var enterTime: Int64
    public var dwellFired: Bool
    /// A fence with a `delay` whose exit waits: the fix time (ms) of the first fix of the run beyond
    /// its exit distance; nil when the last usable fix was within it (docs/fences.md, "delay").
    public var exitDelaySince: Int64?

    public init(
        fenceID: FenceID, geometryHash: UInt64, inside: Bool, enterTime: Int64, dwellFired: Bool,
        exitDelaySince: Int64? = nil
    ) {
        self.fenceID = fenceID
        self.geometryHash = geometryHash
        self.inside = inside
        self.enterTime = enterTime
        self.dwellFired = dwellFired
        self.exitDelaySince = exitDelaySince
    }
}

/// The engine's present, for sinks that mirror it (MQTT's retained fence states), read on the
/// engine thread instead of being rebuilt from the events.
public protocol FenceStateReading: AnyObject {
    /// Whether the receiver is inside fence `fence` (an index into the fence set of the events
    /// being delivered) and since when it is inside or outside; `since` is nil for a fence it has
    /// neither entered nor left.
    func fenceState(_ fence: Int) -> (inside: Bool, since: UTCTime?)
    /// When fence `fence` was first announced by a `registered` event (an unchanged id keeps its
    /// time over a reload); nil before that.
    func registrationTime(_ fence: Int) -> UTCTime?
    /// Where the run's alarm stands (docs/running.md, "Alarms"); nil for a run that keeps none.
    var alarmStatus: AlarmStatus? { get }
    /// The largest distance of the boat from the anchor so far, in metres (an anchor watch).
    var anchorMaxDistance: Double? { get }
}

extension FenceStateReading {
    public var alarmStatus: AlarmStatus? { nil }
    public var anchorMaxDistance: Double? { nil }
}

extension EventEngine: FenceStateReading {
    public func fenceState(_ fence: Int) -> (inside: Bool, since: UTCTime?) {
        let time = enterTimeOf(fence)
        return (isInside(fence), time == Self.neverChanged ? nil : UTCTime(millisecondsSinceEpoch: time))
    }

    public func registrationTime(_ fence: Int) -> UTCTime? {
        let time = registrationTimeOf(fence)
        return time == Self.neverChanged ? nil : UTCTime(millisecondsSinceEpoch: time)
    }

    /// On reload: the fences of `previous` that the receiver had left keep when it left them, in
    /// this engine, where their id and geometry are unchanged (those inside come back through
    /// `restore`); every fence whose id stays keeps when it was registered.
    public func keepExitTimes(of previous: EventEngine) {
        for old in 0..<previous.fences.count {
            guard let fence = fences.ids.firstIndex(exactly: previous.fences.ids[old]) else { continue }
            if let registered = previous.registrationTime(old) {
                keepRegistrationTime(fence, registered.millisecondsSinceEpoch)
            }
            let state = previous.fenceState(old)
            guard !state.inside, let since = state.since,
                fences.geometryHash(fence) == previous.fences.geometryHash(old)
            else { continue }
            markOutside(fence, since: since.millisecondsSinceEpoch)
        }
    }
}

extension EventEngine {
    /// The fences the receiver is inside of, as records to save.
    public func snapshot() -> [FenceStateRecord] {
        insideFences.map { fence in
            FenceStateRecord(
                fenceID: fences.ids[fence], geometryHash: fences.geometryHash(fence), inside: true,
                enterTime: enterTimeOf(fence), dwellFired: dwellFiredOf(fence),
                exitDelaySince: exitDelay?.beyondSince(of: fence))
        }
    }

    /// Grows each time the saved state of a fence changes at a fix that need raise no event: an
    /// exit `delay` whose count began or broke off. The caller saves `snapshot()` when it grew
    /// since it last saved, so that a restart carries on with the count instead of beginning it
    /// again (a run restarted over and over would never leave the fence).
    public var quietStateChanges: Int { exitDelay?.changes ?? 0 }

    /// Takes saved states back silently (docs/events.md): a receiver that was inside and still is gets no
    /// second `enter`. Records of fences that are gone, or whose geometry changed, are ignored:
    /// those fences start fresh. Call before the first fix.
    public func restore(_ records: [FenceStateRecord]) {
        // The saved records are the few fences the receiver was inside of; the set may hold a
        // million: the table is of the records, and the set is walked once against it.
        var recordByID: [FenceID: FenceStateRecord] = [:]
        for record in records where record.inside { recordByID[record.fenceID] = record }
        guard !recordByID.isEmpty else { return }
        for fence in 0..<fences.count {
            guard let record = recordByID[fences.ids[fence]], fences.geometryHash(fence) == record.geometryHash,
                // A time from a damaged state file beyond ±2^48 ms (year 10889) would overflow
                // `now - enterTime`: such a fence starts fresh instead.
                (-(1 << 48)...(1 << 48)).contains(record.enterTime)  // not abs(): abs(Int64.min) traps
            else { continue }
            markInside(fence, since: record.enterTime, dwellFired: record.dwellFired)
            if let since = record.exitDelaySince, (-(1 << 48)...(1 << 48)).contains(since), let exitDelay {
                exitDelay.restore(fence, beyondSince: since)
                // The count began at a usable fix beyond the exit distance: one for `--exit-confirm`.
                exitCount[fence] = 1
            }
        }
    }
}
