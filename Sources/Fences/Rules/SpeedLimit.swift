/// `speed_limit` (m/s) or `speed_limit_kmh`: how fast one may go inside the fence; on a road,
/// one way along its line only, `speed_limit_forward` (in the order of its vertices) and
/// `speed_limit_backward` (against it), each also in km/h (`speed_limit_forward_kmh`, ...), where
/// the ways differ; and `maxspeed:hgv` (km/h, as OpenStreetMap writes it) for heavy goods vehicles
/// (`--hgv`), with `maxspeed:hgv:forward` and `maxspeed:hgv:backward` for one way along the road.
/// The engine's part, the `speeding` event, is Events' `SpeedLimitRule`.
public enum SpeedLimit: FenceRuleDefinition {
    public static let properties = [
        RuleProperty("speed_limit", .number(unit: "m/s", max: Limits.maxSpeed)),
        RuleProperty("speed_limit_kmh", .number(unit: "km/h", max: Limits.maxSpeed * 3.6)),
        RuleProperty("speed_limit_forward", .number(unit: "m/s", max: Limits.maxSpeed)),
        RuleProperty("speed_limit_forward_kmh", .number(unit: "km/h", max: Limits.maxSpeed * 3.6)),
        RuleProperty("speed_limit_backward", .number(unit: "m/s", max: Limits.maxSpeed)),
        RuleProperty("speed_limit_backward_kmh", .number(unit: "km/h", max: Limits.maxSpeed * 3.6)),
        RuleProperty("maxspeed:hgv", .number(unit: "km/h", max: Limits.maxSpeed * 3.6)),
        RuleProperty("maxspeed:hgv:forward", .number(unit: "km/h", max: Limits.maxSpeed * 3.6)),
        RuleProperty("maxspeed:hgv:backward", .number(unit: "km/h", max: Limits.maxSpeed * 3.6)),
    ]

    public static func resolve(_ values: RuleValues, into rules: inout FenceRules, context: inout RuleContext)
        throws(RuleProblem)
    {
        rules.speedLimit = try metresPerSecond(values, at: 0)
        rules.forwardSpeedLimit = try metresPerSecond(values, at: 2)
        rules.backwardSpeedLimit = try metresPerSecond(values, at: 4)
        rules.hgvSpeedLimit = values[6]?.number.map { $0 / 3.6 }
        rules.hgvForwardSpeedLimit = values[7]?.number.map { $0 / 3.6 }
        rules.hgvBackwardSpeedLimit = values[8]?.number.map { $0 / 3.6 }
    }

    /// The limit of the pair of properties at `index` (m/s, then km/h), in m/s.
    private static func metresPerSecond(_ values: RuleValues, at index: Int) throws(RuleProblem) -> Double? {
        let metresPerSecond = values[index]?.number
        let kilometresPerHour = values[index + 1]?.number
        if metresPerSecond != nil, kilometresPerHour != nil {
            throw .both(properties[index].name, properties[index + 1].name)
        }
        return metresPerSecond ?? kilometresPerHour.map { $0 / 3.6 }
    }
}

extension FenceRules {
    /// The limit that holds for `vehicle` (m/s) driving `travel` along the fence's line: that
    /// way's own where it has one, else `speed_limit`; the strictest of them when the way is not
    /// known (nil: the fence is no road, or the vehicle's course is not known yet). A heavy goods
    /// vehicle's own limit, chosen the same way among `maxspeed:hgv` and its one-way forms, holds
    /// when it is stricter.
    public func speedLimit(for vehicle: VehicleProfile, along travel: TravelDirection?) -> Double? {
        let limit = Self.oneWay(travel, both: speedLimit, forward: forwardSpeedLimit, backward: backwardSpeedLimit)
        guard vehicle.hgv,
            let hgvLimit = Self.oneWay(
                travel, both: hgvSpeedLimit, forward: hgvForwardSpeedLimit, backward: hgvBackwardSpeedLimit)
        else { return limit }
        return min(limit ?? .infinity, hgvLimit)
    }

    /// The limit of the way `travel`: its own, else the one for both ways; the strictest of all
    /// when the way is not known.
    private static func oneWay(_ travel: TravelDirection?, both: Double?, forward: Double?, backward: Double?)
        -> Double?
    {
        switch travel {
        case .forward: forward ?? both
        case .backward: backward ?? both
        case nil: [both, forward, backward].compactMap { $0 }.min()
        }
    }
}
