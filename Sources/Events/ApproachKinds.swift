import Fences

/// Which fences `--approach` warns of (`--approach-kinds`, docs/events.md "Approach"): a warning
/// is for a hazard, so by default a fence with a restriction the vehicle breaks (a bridge lower
/// than the truck) and a fence without road rules (a place, a zone), not every road with a speed
/// limit. A fence's own `approach` property always applies, whatever its kind.
public struct ApproachKinds: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A fence with a restriction the vehicle breaks (`too_low`, `too_heavy`, ...).
    public static let restrictions = ApproachKinds(rawValue: 1)
    /// A fence with no speed limit and no restriction for vehicles.
    public static let plain = ApproachKinds(rawValue: 2)
    /// A fence with a speed limit (`speed_limit`, `maxspeed:hgv`, a conditional one).
    public static let speedLimits = ApproachKinds(rawValue: 4)
    /// A fence with a restriction the vehicle does not break (a 4 m bridge for a 3.5 m truck, or
    /// any clearance when no `--vehicle-height` is given).
    public static let passable = ApproachKinds(rawValue: 8)

    public static let hazards: ApproachKinds = [.restrictions, .plain]
    public static let all: ApproachKinds = [.restrictions, .plain, .speedLimits, .passable]

    /// The words of `--approach-kinds`, each with its kind.
    public static let names: [(name: String, kinds: ApproachKinds)] = [
        ("restrictions", .restrictions), ("plain", .plain), ("speed-limits", .speedLimits), ("passable", .passable),
        ("all", .all),
    ]

    /// `restrictions,plain,speed-limits`; nil when a word is none of `names` (or none is given).
    public init?(parsing text: String) {
        var kinds: ApproachKinds = []
        for word in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let entry = Self.names.first(where: { $0.name == word }) else { return nil }
            kinds.formUnion(entry.kinds)
        }
        guard !kinds.isEmpty else { return nil }
        self = kinds
    }

    /// The kinds a fence with `rules` (as they hold now) is of, for a vehicle that breaks
    /// `broken` of them: `restrictions` alone when it breaks one, else its speed limit and its
    /// restrictions, else `plain`.
    public init(rules: FenceRules?, broken: BrokenRestrictions) {
        guard broken.isEmpty else {
            self = .restrictions
            return
        }
        var kinds: ApproachKinds = []
        if rules?.limitsSpeed == true { kinds.insert(.speedLimits) }
        if let rules, VehicleRestrictionKind.allCases.contains(where: { $0.definition.limit(rules) != nil }) {
            kinds.insert(.passable)
        }
        if rules?.hgv != nil || rules?.conditional?.limitsWeight == true { kinds.insert(.passable) }
        self = kinds.isEmpty ? .plain : kinds
    }
}

extension EventEngine {
    /// How far ahead `fence` is warned of at `milliseconds`, with the restrictions the vehicle
    /// breaks there: its own `approach`, else `--approach` when the fence is of a kind
    /// `--approach-kinds` names; nil when it is not warned of.
    func approachWarning(of fence: Int, atMilliseconds milliseconds: Int64) -> (
        reach: Double, restrictions: BrokenRestrictions
    )? {
        let own = fences.settings(fence).approach
        guard own != nil || settings.approach != nil else { return nil }
        let rules = rulesInForce(of: fence, atMilliseconds: milliseconds)
        let broken = BrokenRestrictions(rules, vehicle: settings.vehicle)
        if let own { return (own, broken) }
        guard let reach = settings.approach,
            !settings.approachKinds.isDisjoint(with: ApproachKinds(rules: rules, broken: broken))
        else { return nil }
        return (reach, broken)
    }
}
