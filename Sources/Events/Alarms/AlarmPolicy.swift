import Fences

/// Which events raise an alarm (docs/running.md, "Alarms"): with `--alarm`, the anchor's `exit`,
/// an event flagged with a restriction the vehicle breaks (`too_low`) and `fix_lost` during an anchor watch; the types of `--alarm-on`; and
/// the types a fence's `alarm` property lists. An `integrity` event that says the positions are
/// not believed (`jammed`, `spoofed`) raises one with `--alarm` or during an anchor watch: the
/// watch is blind.
public struct AlarmPolicy: Sendable, Equatable {
    /// `--alarm`: the built-in causes.
    public var builtIn = false
    /// `--alarm-on TYPES`.
    public var types: Set<GeofenceEvent.Kind> = []

    public init(builtIn: Bool = false, types: Set<GeofenceEvent.Kind> = []) {
        self.builtIn = builtIn
        self.types = types
    }

    /// The kinds `--alarm-on` may name: the alarm's own events cannot raise one.
    public static func isSelectable(_ kind: GeofenceEvent.Kind) -> Bool { kind.alarmRole == .none }

    /// The condition `event` raises an alarm for, or nil when it raises none.
    /// - Parameter anchorWatch: an anchor watch is set (its `fix_lost` is an alarm).
    public func condition(of event: GeofenceEvent, fences: FenceSet, anchorWatch: Bool) -> AlarmCondition? {
        guard event.kind.alarmRole == .none else { return nil }
        let fenceAsks = event.fence.map { fence in
            event.kind.fenceEventType.map { fences.settings(fence).alarm?.contains($0) ?? false } ?? false
        }
        let raises =
            types.contains(event.kind) || fenceAsks == true || (builtIn && isBuiltInCause(event, fences, anchorWatch))
            || ((builtIn || anchorWatch) && Self.saysUnreliable(event))
        guard raises else { return nil }
        switch event.payload {
        // An exit without moving (the fence expired or went away) leaves nothing to come back into.
        case .exit(let exit): return exit.reason == nil ? .outside : .momentary
        case .enter: return .inside
        case .fixLost: return .noFix
        case .integrity(let integrity): return integrity.state.isUnreliable ? .unreliable : .momentary
        case .dwell, .visit, .cross, .approach, .speeding, .fixAcquired, .deviceLost, .deviceConnected, .heartbeat,
            .registered, .unregistered, .error, .stationary, .moving, .anchorWarning, .alarm, .alarmAcknowledged,
            .alarmCleared:
            return .momentary
        }
    }

    /// An `integrity` event saying the positions are not believed.
    static func saysUnreliable(_ event: GeofenceEvent) -> Bool {
        if case .integrity(let integrity) = event.payload { return integrity.state.isUnreliable }
        return false
    }

    /// What `--alarm` raises it for: the anchor's `exit`, a restriction the vehicle breaks
    /// (`too_low`), `fix_lost` during an anchor watch.
    private func isBuiltInCause(_ event: GeofenceEvent, _ fences: FenceSet, _ anchorWatch: Bool) -> Bool {
        switch event.payload {
        case .exit(let exit): FenceLayers.isAnchor(fences, exit.fence)
        case .enter(let enter): !enter.restrictions.isEmpty
        case .approach(let approach): !approach.restrictions.isEmpty
        case .fixLost: anchorWatch
        case .integrity(let integrity): integrity.state.isUnreliable
        case .dwell, .visit, .cross, .speeding, .fixAcquired, .deviceLost, .deviceConnected, .heartbeat, .registered,
            .unregistered, .error, .stationary, .moving, .anchorWarning, .alarm, .alarmAcknowledged, .alarmCleared:
            false
        }
    }
}
