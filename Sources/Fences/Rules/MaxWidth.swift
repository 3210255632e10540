import Presentation

/// `maxwidth`: the widest vehicle allowed (a narrow lane, a gate), in metres or as the sign writes
/// it (`2.5`, `7'6"`: `Height`). A vehicle wider than it (`--vehicle-width`) is flagged `too_wide`.
public enum MaxWidth: VehicleRestriction {
    public static let properties = [RuleProperty("maxwidth", .height)]

    public static func resolve(_ values: RuleValues, into rules: inout FenceRules, context: inout RuleContext) {
        rules.maxWidth = values[0]?.number
    }

    public static let flag = "too_wide"
    public static let shout = "TOO WIDE"
    public static let spokenWarning = "Too wide!"

    public static func isBroken(_ rules: FenceRules, by vehicle: VehicleProfile) -> Bool {
        guard let limit = rules.maxWidth, let width = vehicle.width else { return false }
        return width > limit
    }

    public static func limit(_ rules: FenceRules) -> (key: String, value: Double)? {
        rules.maxWidth.map { ("maxwidth", $0) }
    }

    public static func limitText(_ rules: FenceRules, units: MeasurementUnits) -> String? {
        rules.maxWidth.map { "width limit " + units.height($0, rounded: .down) }
    }

    public static func spokenLimit(_ rules: FenceRules, units: MeasurementUnits) -> String? {
        rules.maxWidth.map { units.spokenHeight($0, rounded: .down) + " wide" }
    }
}
