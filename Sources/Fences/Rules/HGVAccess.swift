import Presentation

/// Whether heavy goods vehicles may drive on a fence's road, as OpenStreetMap's `hgv` says.
public enum HGVAccess: String, Sendable, Equatable, CaseIterable {
    /// Closed to them.
    case no
    /// Only to reach a place on it (not flagged: the driver may be going there).
    case destination
    /// Open, or a road meant for them.
    case yes, designated
}

/// `hgv`: `no`, `destination`, `designated` or `yes`. A heavy goods vehicle (`--hgv`) on a road
/// with `hgv=no` is flagged `no_hgv`.
public enum HGVAccessRule: VehicleRestriction {
    public static let properties = [RuleProperty("hgv", .choice(HGVAccess.allCases.map(\.rawValue)))]

    public static func resolve(_ values: RuleValues, into rules: inout FenceRules, context: inout RuleContext)
        throws(RuleProblem)
    {
        guard let text = values[0]?.text else { return }
        guard let access = HGVAccess(rawValue: text.lowercased()) else {
            throw .notAChoice(
                property: properties[0].name, value: text, choices: HGVAccess.allCases.map(\.rawValue))
        }
        rules.hgv = access
    }

    public static let flag = "no_hgv"
    public static let shout = "NO HGV"
    public static let spokenWarning = "No lorries!"

    public static func isBroken(_ rules: FenceRules, by vehicle: VehicleProfile) -> Bool {
        vehicle.hgv && rules.hgv == .no
    }

    public static func limit(_ rules: FenceRules) -> (key: String, value: Double)? { nil }

    public static func limitText(_ rules: FenceRules, units: MeasurementUnits) -> String? { nil }

    public static func spokenLimit(_ rules: FenceRules, units: MeasurementUnits) -> String? { nil }
}
