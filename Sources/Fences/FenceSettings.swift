/// Event types a fence may ask for in its `notify` property (docs/events.md).
public enum FenceEventType: String, CaseIterable, Sendable {
    case enter, exit, dwell, visit, cross, approach, speeding
}

/// Per-fence settings read from the feature's properties; `nil` means "use the command-line default".
public struct FenceSettings: Equatable, Sendable {
    /// Seconds inside before `dwell`.
    public var dwell: Double?
    /// Metres outside needed before `exit`.
    public var hysteresis: Double?
    /// Look-ahead distance in metres for `approach`; `nil` means no approach events.
    public var approach: Double?
    /// Event types to emit for this fence; `nil` means all.
    public var notify: [FenceEventType]?
    /// Free-form tags.
    public var tags: [String]?
    /// `active`, `expires`, `speed_limit`, `clearance` (docs/fences.md, "Rules"); nil: none.
    public var rules: FenceRules?
    /// The event types of this fence that raise an alarm (`"alarm"`, docs/fences.md); nil: none.
    public var alarm: [FenceEventType]?

    public init(
        dwell: Double? = nil, hysteresis: Double? = nil, approach: Double? = nil,
        notify: [FenceEventType]? = nil, tags: [String]? = nil, rules: FenceRules? = nil
    ) {
        self.dwell = dwell
        self.hysteresis = hysteresis
        self.approach = approach
        self.notify = notify
        self.tags = tags
        self.rules = rules
    }

    public var isDefault: Bool { self == FenceSettings() }
}
