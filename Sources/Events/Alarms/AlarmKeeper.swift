import Fences
import NMEA

/// The alarm of a run (docs/running.md, "Alarms"): raised by the events its policy names, answered
/// by a person, cleared when its condition ends. Each step gives the alarm event that says so,
/// which the loop commits, with the latch, before any sink hears of it. Engine thread only.
public struct AlarmKeeper: Sendable {
    public let policy: AlarmPolicy
    public private(set) var latch: AlarmLatch?
    /// The latch changed since `takeChange`: the state file must be told.
    private var changed = false

    /// - Parameter saved: the alarm the state file held at the start.
    public init(policy: AlarmPolicy, saved: AlarmLatch?) {
        self.policy = policy
        latch = saved
    }

    /// The alarm events that one commit's `events` (against `fences`) give, in their order.
    /// - Parameter anchorWatch: an anchor watch is set.
    /// - Parameter anchorDistance: the boat's distance from the anchor at these events, if known.
    public mutating func respond(
        to events: [GeofenceEvent], fences: FenceSet, anchorWatch: Bool, anchorDistance: Double?
    ) -> [GeofenceEvent] {
        var said: [GeofenceEvent] = []
        for event in events where event.kind.alarmRole == .none {
            if var current = latch, current.isEnded(by: event, fences: fences) {
                current.condition = nil
                latch = current.status == .clear ? nil : current
                changed = true
                said.append(GeofenceEvent(.alarmCleared(alarm(current, fences: fences)), time: event.time))
            }
            guard let condition = policy.condition(of: event, fences: fences, anchorWatch: anchorWatch) else {
                continue
            }
            let fenceID = event.fence.map { fences.ids[$0] }
            if let current = latch {
                // Sounding already, or answered while this same condition lasts: nothing new to say.
                let same = current.condition == condition && current.fenceID == fenceID
                if current.unanswered || (same && condition != .momentary) { continue }
            }
            let isAnchor = event.fence.map { FenceLayers.isAnchor(fences, $0) } == true
            let raised = AlarmLatch(
                cause: AlarmCause(eventID: event.id(fences: fences), kind: event.kind), fenceID: fenceID,
                condition: condition == .momentary ? nil : condition, unanswered: true, raisedAt: event.time,
                distance: isAnchor && condition == .outside ? anchorDistance : nil)
            latch = raised
            changed = true
            said.append(
                GeofenceEvent(.alarm(alarm(raised, fences: fences)), time: event.time, location: event.location))
        }
        return said
    }

    /// A person answered: the `alarm_acknowledged` event, or nil when no alarm sounds.
    public mutating func acknowledge(by who: AlarmAcknowledger, at time: UTCTime, fences: FenceSet)
        -> GeofenceEvent?
    {
        guard var current = latch, current.unanswered else { return nil }
        current.unanswered = false
        latch = current.status == .clear ? nil : current
        changed = true
        return GeofenceEvent(.alarmAcknowledged(alarm(current, fences: fences), by: who), time: time)
    }

    /// The boat's distance from the anchor at a fix: an answered drag that doubled its distance
    /// sounds again (docs/running.md, "Alarms"). Returns that `alarm` event.
    /// - Parameter location: the fix's position, which the `alarm` event carries as the first one did.
    public mutating func anchorDistance(
        _ distance: Double, at time: UTCTime, location: GeofenceEvent.Location, fences: FenceSet
    ) -> GeofenceEvent? {
        guard var current = latch, !current.unanswered, current.condition == .outside,
            let first = current.distance, distance >= 2 * first
        else { return nil }
        current.unanswered = true
        current.distance = distance
        current.raisedAt = time
        latch = current
        changed = true
        return GeofenceEvent(.alarm(alarm(current, fences: fences)), time: time, location: location)
    }

    /// A usable fix: a `fix_lost` alarm's condition ends. Within a run the engine's `fix_acquired`
    /// says so first; a run that starts with such an alarm saved (answered or not) has no lost fix
    /// to acquire again, and would otherwise keep it, which silences the next `fix_lost`. Returns
    /// the `alarm_cleared` event.
    public mutating func usableFix(at time: UTCTime, fences: FenceSet) -> GeofenceEvent? {
        guard var current = latch, current.condition == .noFix else { return nil }
        current.condition = nil
        latch = current.status == .clear ? nil : current
        changed = true
        return GeofenceEvent(.alarmCleared(alarm(current, fences: fences)), time: time)
    }

    /// At the start of a run: the saved alarm, said again when it still sounds (a run that starts
    /// after a crash or a power cut rings at once).
    public func announcement(at time: UTCTime, fences: FenceSet) -> GeofenceEvent? {
        guard let latch, latch.unanswered else { return nil }
        return GeofenceEvent(.alarm(alarm(latch, fences: fences)), time: time)
    }

    /// The latch to write, once per change: `.some(nil)` when the alarm is gone.
    public mutating func takeChange() -> AlarmLatch?? {
        guard changed else { return .none }
        changed = false
        return .some(latch)
    }

    /// What an alarm event says of `latch`, its fence looked up in `fences`.
    private func alarm(_ latch: AlarmLatch, fences: FenceSet) -> GeofenceEvent.Alarm {
        let lookup = latch.fenceID.flatMap { id in fences.ids.firstIndex(exactly: id) }
        return GeofenceEvent.Alarm(
            fence: lookup, cause: latch.cause, status: latch.status, anchorDistance: latch.distance)
    }
}
