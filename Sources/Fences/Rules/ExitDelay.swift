/// `delay` (seconds): how long the receiver must stay beyond the fence's exit distance, on every
/// usable fix, before its `exit` is told. A position thrown out of the fence by multipath for a
/// few seconds comes back before then and says nothing; a boat that drags keeps going. The
/// engine's part is Events' `ExitDelayRule`.
public enum ExitDelay: FenceRuleDefinition {
    public static let properties = [RuleProperty("delay", .number(unit: "s", max: Limits.maxSeconds))]

    public static func resolve(_ values: RuleValues, into rules: inout FenceRules, context: inout RuleContext)
        throws(RuleProblem)
    {
        guard let seconds = values[0]?.number, seconds > 0 else { return }
        rules.exitDelay = seconds
    }
}
