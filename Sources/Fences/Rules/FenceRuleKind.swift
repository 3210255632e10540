import Presentation

/// The closed list of the rules a fence can carry, in the order their properties are resolved
/// (`active` first: its `timezone` is the zone `expires` reads local times in). Each case names
/// its one definition; a switch over the cases (none has a default) is how another module says
/// what it does with each rule, so a new case is a compile error wherever that must be said.
public enum FenceRuleKind: Hashable, Sendable, CaseIterable {
    case active
    case expires
    case delay
    case speedLimit
    /// A rule that flags the `approach` and `enter` of a vehicle that breaks it.
    case restriction(VehicleRestrictionKind)
    /// Speed and weight limits that hold at some times only.
    case conditionalLimits

    public static let allCases: [FenceRuleKind] =
        [.active, .expires, .delay, .speedLimit] + VehicleRestrictionKind.allCases.map(FenceRuleKind.restriction)
        + [.conditionalLimits]

    public var definition: any FenceRuleDefinition.Type {
        switch self {
        case .active: ActiveHours.self
        case .expires: Expiry.self
        case .delay: ExitDelay.self
        case .speedLimit: SpeedLimit.self
        case .restriction(let restriction): restriction.definition
        case .conditionalLimits: ConditionalLimits.self
        }
    }

    /// Every rule's properties, each with its rule and its place among that rule's properties.
    static let properties: [(kind: FenceRuleKind, property: RuleProperty)] = allCases.flatMap { kind in
        kind.definition.properties.map { (kind, $0) }
    }

    /// The keys of `properties`, for the loader's look-up of every key of every feature (static
    /// text: nothing to retain while it compares).
    static let keys: [StaticString] = properties.map(\.property.key)

    /// Each rule's definition with the index of its first property in `properties`, in the order
    /// they are resolved. Metatypes, immutable once built.
    nonisolated(unsafe) static let resolvers: [(definition: any FenceRuleDefinition.Type, offset: Int)] = {
        var offset = 0
        return allCases.map { kind in
            defer { offset += kind.definition.properties.count }
            return (kind.definition, offset)
        }
    }()
}

/// The rules that restrict vehicles: each compares a fence's limit with the vehicle's own
/// measure (`VehicleProfile`) and flags what the vehicle breaks.
public enum VehicleRestrictionKind: Int, Hashable, Sendable, CaseIterable {
    case clearance
    case width
    case length
    case weight
    case axleLoad
    case hgv

    public var definition: any VehicleRestriction.Type {
        switch self {
        case .clearance: Clearance.self
        case .width: MaxWidth.self
        case .length: MaxLength.self
        case .weight: MaxWeight.self
        case .axleLoad: MaxAxleLoad.self
        case .hgv: HGVAccessRule.self
        }
    }
}

/// A rule that restricts vehicles, defined in one place: besides its properties, whether a
/// vehicle breaks it and how the events it flags say so (the JSON field, the console, the
/// notification, speech and the hooks' environment). The engine applies every restriction the
/// same way: an `approach` or `enter` of a fence whose restriction the vehicle breaks carries its
/// flag, comes first among its fix's events, and rings the alarm with `--alarm`. It raises no
/// event of its own, so it adds nothing to the foresight of quiet fixes.
public protocol VehicleRestriction: FenceRuleDefinition {
    /// The event's field (`"too_low": true`), and with `GPSFENCE_` before it in capitals, the
    /// hooks' variable (`GPSFENCE_TOO_LOW=1`).
    static var flag: String { get }
    /// What a person reads (`TOO LOW`) and hears first (`Too low!`).
    static var shout: String { get }
    static var spokenWarning: String { get }

    /// Whether `vehicle` breaks the rule of a fence with `rules`; false when either lacks the
    /// measure.
    static func isBroken(_ rules: FenceRules, by vehicle: VehicleProfile) -> Bool

    /// The fence's limit in SI units for machines: the hooks' `GPSFENCE_` + its property key in
    /// capitals (`GPSFENCE_CLEARANCE=3.2`).
    static func limit(_ rules: FenceRules) -> (key: String, value: Double)?

    /// The fence's limit as a person reads it after the shout (`clearance 3.2 m`) and hears it after
    /// the fence's name (`3 metres 20`).
    static func limitText(_ rules: FenceRules, units: MeasurementUnits) -> String?
    static func spokenLimit(_ rules: FenceRules, units: MeasurementUnits) -> String?
}

/// The restrictions of its fence a vehicle breaks, as an `approach` or `enter` carries them:
/// empty for most events, never a flag that says "not broken".
public struct BrokenRestrictions: Sendable, Equatable, Sequence, ExpressibleByArrayLiteral {
    private var bits: UInt32 = 0

    public init() {}

    public init(arrayLiteral kinds: VehicleRestrictionKind...) {
        for kind in kinds { insert(kind) }
    }

    /// Those of a fence with `rules` that `vehicle` breaks.
    public init(_ rules: FenceRules?, vehicle: VehicleProfile) {
        guard let rules, !vehicle.isEmpty else { return }
        for kind in VehicleRestrictionKind.allCases where kind.definition.isBroken(rules, by: vehicle) {
            insert(kind)
        }
    }

    public var isEmpty: Bool { bits == 0 }

    public func contains(_ kind: VehicleRestrictionKind) -> Bool { bits & (1 << kind.rawValue) != 0 }

    public mutating func insert(_ kind: VehicleRestrictionKind) { bits |= 1 << kind.rawValue }

    /// The broken restrictions in the order of `VehicleRestrictionKind`.
    public func makeIterator() -> IndexingIterator<[VehicleRestrictionKind]> {
        VehicleRestrictionKind.allCases.filter { contains($0) }.makeIterator()
    }
}
