import Fences

/// Which events raise an alarm (docs/running.md, "Alarms"): with `--alarm`, the anchor's `exit`,
/// an event flagged `too_low` and `fix_lost` during an anchor watch; the types of `--alarm-on`; and
/// the types a fence's `alarm` property lists.
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
        let isAnchorExit = event.kind == .exit && event.fence.map { FenceLayers.isAnchor(fences, $0) } == true
        let raises =
            types.contains(event.kind) || fenceAsks == true
            || (builtIn && (isAnchorExit || event.isTooLow || (event.kind == .fixLost && anchorWatch)))
        guard raises else { return nil }
        // An exit without moving (the fence expired or went away) leaves nothing to come back into.
        if case .exit(let exit) = event.payload, exit.reason == nil { return .outside }
        if event.kind == .enter { return .inside }
        if event.kind == .fixLost { return .noFix }
        return .momentary
    }
}
