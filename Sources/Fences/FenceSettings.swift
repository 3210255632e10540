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

    /// Every member unset, as `FenceSettings()` has them; read member by member, since the
    /// loader asks it of every fence, and building a default value and comparing the rules cost more.
    public var isDefault: Bool {
        dwell == nil && hysteresis == nil && approach == nil && notify == nil && tags == nil && rules == nil
            && alarm == nil
    }

    /// The members that are plain numbers and flags, copied out once per fence: two settings with
    /// different ones are unequal, and comparing these costs no copy of the rules, as `==` does.
    /// The loader compares them first with the recent settings for every fence
    /// (`FenceSetBuilder.recentSettingsRow`): a country's roads differ mostly in their limits, and
    /// the copies of comparing whole settings were a sixth of its load.
    struct PlainMembers: Equatable {
        var dwell, hysteresis, approach: Double?
        var hasRules = false
        var speedLimit, hgvSpeedLimit, clearance, maxWeight, maxWidth: Double?
        var hgv: HGVAccess?
        var hasConditional = false
    }

    var plainMembers: PlainMembers {
        var plain = PlainMembers(dwell: dwell, hysteresis: hysteresis, approach: approach)
        if let rules {
            plain.hasRules = true
            plain.speedLimit = rules.speedLimit
            plain.hgvSpeedLimit = rules.hgvSpeedLimit
            plain.clearance = rules.clearance
            plain.maxWeight = rules.maxWeight
            plain.maxWidth = rules.maxWidth
            plain.hgv = rules.hgv
            plain.hasConditional = rules.conditional != nil
        }
        return plain
    }
}
