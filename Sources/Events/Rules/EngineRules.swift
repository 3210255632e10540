import Fences
import NMEA

/// The rules the engine applies, derived from the fence rules' closed list (`FenceRuleKind`):
/// each kind answers here what applies it, so a new rule is a compile error until it has. A rule
/// with an engine part runs once a fence carries it, and the foresight asks the same list.
extension FenceRuleKind {
    /// The engine's part of the rule, or nil when it has none of its own: a vehicle restriction
    /// only flags the `approach` and `enter` the engine raises (`BrokenRestrictions`).
    var engineRule: (any EngineRule.Type)? {
        switch self {
        case .expires: ExpiresRule.self
        case .delay: ExitDelayRule.self
        case .active: ActiveWindowRule.self
        case .speedLimit: SpeedLimitRule.self
        case .restriction: nil
        case .conditionalLimits: ConditionalLimitRule.self
        }
    }

    /// The order the engine applies the rules at a fix: an expiry before a window, so a fence
    /// that does both at once leaves with reason `expired`.
    var engineOrder: Int {
        switch self {
        case .expires: 0
        case .active: 1
        case .delay: 2
        case .speedLimit: 3
        case .restriction: 4
        case .conditionalLimits: 5
        }
    }
}

enum EngineRules {
    static var all: [any EngineRule.Type] {
        FenceRuleKind.allCases.sorted { $0.engineOrder < $1.engineOrder }.compactMap(\.engineRule)
    }

    /// The rules some fence of `fences` carries.
    static func applying(to fences: FenceSet) -> [any EngineRule] {
        all.compactMap { $0.init(fences: fences) }
    }
}

extension EventEngine {
    /// What the rules say of `fence` at this fix: out of play if one of them takes it out, come
    /// into play if one brought it back, else in play.
    func play(of fence: Int) -> FencePlay {
        var play = FencePlay.inPlay
        for rule in rules {
            switch rule.play(of: fence) {
            case .outOfPlay: return .outOfPlay
            case .cameIntoPlay: play = .cameIntoPlay
            case .inPlay: break
            }
        }
        return play
    }

    func isInPlay(_ fence: Int) -> Bool { rules.isEmpty || play(of: fence) != .outOfPlay }

    /// Whether a rule holds back the exit of `fence` at this fix (every rule is asked: each
    /// follows the fixes beyond the exit distance in its own way).
    func exitIsHeld(_ fence: Int, beyond: Bool, at now: Int64) -> Bool {
        var held = false
        for rule in rules where rule.holdsExit(of: fence, beyond: beyond, at: now, engine: self) { held = true }
        return held
    }
}

/// The foresight's count as it is narrowed: how many of the fixes after the last one (at most the
/// caller's limit) are still foreseen quiet.
struct FixesAhead {
    private(set) var quiet: Int
    /// The last usable fix's time and the step to it from the one before (milliseconds).
    let now: Int64
    let step: Int64

    init(limit: Int, now: Int64, step: Int64) {
        quiet = limit
        self.now = now
        self.step = step
    }

    /// A timer falls due at `time` (ms). Fix j comes at `now + j × step`, or later if the
    /// receiver skips cycles: a timer due within twice that is not foreseen quiet. In doubles, so
    /// that a timer not yet set (`Int64.min`) means "now" rather than an overflow.
    mutating func due(_ time: Int64) {
        let spans = (Double(time) - Double(now)) / Double(2 * step)
        if spans <= Double(quiet) { quiet = max(0, Int(spans.rounded(.up)) - 1) }
    }

    /// Something the foresight cannot judge: no fix is foreseen quiet.
    mutating func foreseeNone() { quiet = 0 }
}
