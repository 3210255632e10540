import Presentation

/// `maxaxleload`: the heaviest axle allowed, in tonnes or as the sign writes it (`Weight`). A
/// vehicle whose heaviest axle carries more (`--vehicle-axle-load`) is flagged `axle_too_heavy`.
public enum MaxAxleLoad: VehicleRestriction {
    public static let properties = [RuleProperty("maxaxleload", .weight)]

    public static func resolve(_ values: RuleValues, into rules: inout FenceRules, context: inout RuleContext) {
        rules.maxAxleLoad = values[0]?.number
    }

    public static let flag = "axle_too_heavy"
    public static let shout = "AXLE TOO HEAVY"
    public static let spokenWarning = "Axle too heavy!"

    public static func isBroken(_ rules: FenceRules, by vehicle: VehicleProfile) -> Bool {
        guard let limit = rules.maxAxleLoad, let load = vehicle.axleLoad else { return false }
        return load > limit
    }

    /// Kilograms.
    public static func limit(_ rules: FenceRules) -> (key: String, value: Double)? {
        rules.maxAxleLoad.map { ("maxaxleload", $0) }
    }

    public static func limitText(_ rules: FenceRules, units: MeasurementUnits) -> String? {
        rules.maxAxleLoad.map { "axle load limit " + Weight.text($0) }
    }

    public static func spokenLimit(_ rules: FenceRules, units: MeasurementUnits) -> String? {
        rules.maxAxleLoad.map { Weight.spoken($0) + " an axle" }
    }
}
