import Fences
import NMEA

/// The one alarm a run holds (docs/running.md, "Alarms"), as the state file keeps it: latched from
/// the event that raised it until a person answers it, and silent after the answer until its
/// condition ends and comes back, or gets worse.
public struct AlarmLatch: Sendable, Equatable {
    public var cause: AlarmCause
    /// The fence of the causing event, by id: the fence file may change while the alarm lasts.
    public var fenceID: FenceID?
    /// What keeps the cause true; nil once it ended (or for a momentary cause).
    public var condition: AlarmCondition?
    /// Raised and not answered: it sounds.
    public var unanswered: Bool
    /// When it was last raised: the fix time of the causing event, or of the fix that raised it
    /// again (a drag twice as far).
    public var raisedAt: UTCTime
    /// For a dragging anchor: the boat's distance from the anchor when the alarm was last raised,
    /// in metres; twice that raises it again after an answer.
    public var distance: Double?

    public init(
        cause: AlarmCause, fenceID: FenceID?, condition: AlarmCondition?, unanswered: Bool, raisedAt: UTCTime,
        distance: Double? = nil
    ) {
        self.cause = cause
        self.fenceID = fenceID
        self.condition = condition
        self.unanswered = unanswered
        self.raisedAt = raisedAt
        self.distance = distance
    }

    /// What the retained topic and Home Assistant show.
    public var status: AlarmStatus {
        if unanswered { return .active }
        return condition == nil ? .clear : .acknowledged
    }

    /// Whether `event` ends this alarm's condition.
    func isEnded(by event: GeofenceEvent, fences: FenceSet) -> Bool {
        guard let condition else { return false }
        let sameFence = event.fence.map { fences.ids[$0] } == fenceID
        switch condition {
        case .outside: return event.kind.ends(.outside) && sameFence
        case .inside: return event.kind.ends(.inside) && sameFence
        case .noFix: return event.kind.ends(.noFix)
        case .unreliable:
            if case .integrity(let integrity) = event.payload { return !integrity.state.isUnreliable }
            return false
        case .momentary: return false
        }
    }
}

extension GeofenceEvent.Kind {
    /// Whether an event of this kind ends an alarm's `condition` (about the same fence, for a
    /// fence's condition): coming back in, leaving, a fix again.
    fileprivate func ends(_ condition: AlarmCondition) -> Bool {
        switch self {
        case .enter: condition == .outside
        case .exit: condition == .inside
        case .fixAcquired: condition == .noFix
        case .dwell, .visit, .cross, .approach, .speeding, .fixLost, .deviceLost, .deviceConnected, .heartbeat,
            .registered, .unregistered, .error, .stationary, .moving, .anchorWarning, .alarm, .alarmAcknowledged,
            .alarmCleared, .integrity:
            false
        }
    }
}
