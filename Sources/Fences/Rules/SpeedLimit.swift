/// `speed_limit` (m/s) or `speed_limit_kmh`: how fast one may go inside the fence; and
/// `maxspeed:hgv` (km/h, as OpenStreetMap writes it) for heavy goods vehicles (`--hgv`). The
/// engine's part, the `speeding` event, is Events' `SpeedLimitRule`.
public enum SpeedLimit: FenceRuleDefinition {
    public static let properties = [
        RuleProperty("speed_limit", .number(unit: "m/s", max: Limits.maxSpeed)),
        RuleProperty("speed_limit_kmh", .number(unit: "km/h", max: Limits.maxSpeed * 3.6)),
        RuleProperty("maxspeed:hgv", .number(unit: "km/h", max: Limits.maxSpeed * 3.6)),
    ]

    public static func resolve(_ values: RuleValues, into rules: inout FenceRules, context: inout RuleContext)
        throws(RuleProblem)
    {
        let metresPerSecond = values[0]?.number
        let kilometresPerHour = values[1]?.number
        if metresPerSecond != nil, kilometresPerHour != nil {
            throw .both(properties[0].name, properties[1].name)
        }
        rules.speedLimit = metresPerSecond ?? kilometresPerHour.map { $0 / 3.6 }
        rules.hgvSpeedLimit = values[2]?.number.map { $0 / 3.6 }
    }
}

extension FenceRules {
    /// The limit that holds for `vehicle` (m/s): a heavy goods vehicle's own when it is stricter.
    public func speedLimit(for vehicle: VehicleProfile) -> Double? {
        guard vehicle.hgv, let hgvSpeedLimit else { return speedLimit }
        return min(speedLimit ?? .infinity, hgvSpeedLimit)
    }
}
