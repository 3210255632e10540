import Presentation

/// `maxweight`: the heaviest vehicle allowed (a weak bridge), in tonnes or as the sign writes it
/// (`7.5`, `7.5 t`, `10 st`, `20000 lbs`: `Weight`). A vehicle heavier than it as loaded
/// (`--vehicle-weight`) is flagged `too_heavy`.
public enum MaxWeight: VehicleRestriction {
    public static let properties = [RuleProperty("maxweight", .weight)]

    public static func resolve(_ values: RuleValues, into rules: inout FenceRules, context: inout RuleContext) {
        rules.maxWeight = values[0]?.number
    }

    public static let flag = "too_heavy"
    public static let shout = "TOO HEAVY"
    public static let spokenWarning = "Too heavy!"

    public static func isBroken(_ rules: FenceRules, by vehicle: VehicleProfile) -> Bool {
        guard let limit = rules.maxWeight, let weight = vehicle.weight else { return false }
        return weight > limit
    }

    /// Kilograms.
    public static func limit(_ rules: FenceRules) -> (key: String, value: Double)? {
        rules.maxWeight.map { ("maxweight", $0) }
    }

    public static func limitText(_ rules: FenceRules, units: MeasurementUnits) -> String? {
        rules.maxWeight.map { "weight limit " + Weight.text($0) }
    }

    public static func spokenLimit(_ rules: FenceRules, units: MeasurementUnits) -> String? {
        rules.maxWeight.map { Weight.spoken($0) }
    }
}
