import Presentation

/// `maxlength`: the longest vehicle allowed (a tight bend, a ferry), in metres or as the sign
/// writes it (`12`, `40'`: `Height`). A vehicle longer than it (`--vehicle-length`) is flagged
/// `too_long`.
public enum MaxLength: VehicleRestriction {
    public static let properties = [RuleProperty("maxlength", .height)]

    public static func resolve(_ values: RuleValues, into rules: inout FenceRules, context: inout RuleContext) {
        rules.maxLength = values[0]?.number
    }

    public static let flag = "too_long"
    public static let shout = "TOO LONG"
    public static let spokenWarning = "Too long!"

    public static func isBroken(_ rules: FenceRules, by vehicle: VehicleProfile) -> Bool {
        guard let limit = rules.maxLength, let length = vehicle.length else { return false }
        return length > limit
    }

    public static func limit(_ rules: FenceRules) -> (key: String, value: Double)? {
        rules.maxLength.map { ("maxlength", $0) }
    }

    public static func limitText(_ rules: FenceRules, units: MeasurementUnits) -> String? {
        rules.maxLength.map { "length limit " + units.height($0, rounded: .down) }
    }

    public static func spokenLimit(_ rules: FenceRules, units: MeasurementUnits) -> String? {
        rules.maxLength.map { units.spokenHeight($0, rounded: .down) + " long" }
    }
}
