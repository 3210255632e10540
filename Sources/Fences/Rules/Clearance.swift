import Presentation

/// `clearance`: the headroom under a fence's obstacle (a bridge, a tunnel), in metres or as the
/// sign writes it (`Height`). A vehicle taller than it (`--vehicle-height`) is flagged `too_low`.
public enum Clearance: VehicleRestriction {
    public static let properties = [RuleProperty("clearance", .height)]

    public static func resolve(_ values: RuleValues, into rules: inout FenceRules, context: inout RuleContext) {
        rules.clearance = values[0]?.number
    }

    public static let flag = "too_low"
    public static let shout = "TOO LOW"
    public static let spokenWarning = "Too low!"

    public static func isBroken(_ rules: FenceRules, by vehicle: VehicleProfile) -> Bool {
        guard let clearance = rules.clearance, let height = vehicle.height else { return false }
        return clearance < height
    }

    public static func limit(_ rules: FenceRules) -> (key: String, value: Double)? {
        rules.clearance.map { ("clearance", $0) }
    }

    public static func limitText(_ rules: FenceRules, units: MeasurementUnits) -> String? {
        rules.clearance.map { "clearance " + units.height($0, rounded: .down) }
    }

    public static func spokenLimit(_ rules: FenceRules, units: MeasurementUnits) -> String? {
        rules.clearance.map { units.spokenHeight($0, rounded: .down) }
    }
}
