import Presentation

/// `maxspeed:conditional` (and one way along a road, `maxspeed:forward:conditional` and
/// `maxspeed:backward:conditional`), `maxspeed:hgv:conditional` and `maxweight:conditional`: limits that
/// hold at some times only, as OpenStreetMap's conditional restrictions write them: a value, `@`
/// and a time in the opening-hours form of `active` (`30 @ (Mo-Fr 07:00-19:00)`, `60 @ 23:00-05:00`),
/// several separated by `;` (a time holding a `;` in parentheses: `30 @ (Mo-Fr 07:00-09:00,14:00-16:00;
/// SH off)`). While a time holds, its value is the fence's limit in place of `speed_limit`,
/// `maxspeed:hgv` or `maxweight` (the strictest, when several hold at once); the times are read in
/// the fence's `timezone`, else in the user's zone (the engine's `EventSettings.localZone`).
///
/// Only times are read: a condition of weather, of the vehicle or of its use (`wet`, `snow`,
/// `weight>7.5`, `delivery`, `AND`) is not, and a file that carries one is refused (`fences
/// import` keeps such parts aside and says so in its summary, never applies them). No holiday
/// calendar is known: every day is read as an ordinary one (`OpeningHours`), so `PH off` and `SH
/// off` change nothing and a school zone's limit holds on school holidays too. The engine's part
/// is Events' `ConditionalLimitRule`.
public enum ConditionalLimits: FenceRuleDefinition {
    public static let properties = ConditionalLimit.Quantity.allCases.map { RuleProperty($0.key, .conditional($0)) }

    public static func resolve(_ values: RuleValues, into rules: inout FenceRules, context: inout RuleContext)
        throws(RuleProblem)
    {
        var limits: [ConditionalLimit] = []
        for (index, quantity) in ConditionalLimit.Quantity.allCases.enumerated() {
            guard let text = values[index]?.text else { continue }
            let parts = ConditionalLimit.parts(text, quantity: quantity, cache: context.cache)
            if let unreadable = parts.unreadable.first {
                throw .conditional(property: quantity.key.description, unreadable)
            }
            limits += parts.limits
        }
        guard !limits.isEmpty else { return }
        rules.conditional = ConditionalLimitTable(limits: limits, zone: context.timezone)
    }
}

/// One value of a conditional limit and the time it holds.
public struct ConditionalLimit: Sendable, Equatable {
    /// What a conditional limit limits, with its property key.
    public enum Quantity: Int, Sendable, Equatable, CaseIterable {
        case speed
        /// A road's limit one way along its line only (in the order of its vertices, and against it).
        case forwardSpeed
        case backwardSpeed
        case hgvSpeed
        case weight

        public var key: StaticString {
            switch self {
            case .speed: "maxspeed:conditional"
            case .forwardSpeed: "maxspeed:forward:conditional"
            case .backwardSpeed: "maxspeed:backward:conditional"
            case .hgvSpeed: "maxspeed:hgv:conditional"
            case .weight: "maxweight:conditional"
            }
        }

        /// The value of one part in SI (m/s, kilograms); nil when it is none.
        func value(_ text: Substring) -> Double? {
            let trimmed = String(text).trimmingSpaces
            switch self {
            case .speed, .forwardSpeed, .backwardSpeed, .hgvSpeed:
                for (unit, kilometresPerHour) in ConditionalLimit.speedUnits where trimmed.hasSuffix(unit) {
                    let number = String(trimmed.dropLast(unit.count)).trimmingSpaces
                    guard let value = Double(number), value.isFinite, value > 0, value <= Limits.maxSpeed * 3.6
                    else { return nil }
                    return value * kilometresPerHour / 3.6
                }
                return nil
            case .weight:
                return Weight.kilograms(trimmed).flatMap { $0 <= Limits.maxTonnes * 1000 ? $0 : nil }
            }
        }

        var forms: String {
            switch self {
            case .speed, .forwardSpeed, .backwardSpeed, .hgvSpeed: "a speed like 30, 30 km/h, 20 mph or 10 knots"
            case .weight: Weight.forms
            }
        }
    }

    public let quantity: Quantity
    /// Metres per second, or kilograms.
    public let value: Double
    public let hours: OpeningHours

    /// The units of a speed with their km/h, as `maxspeed` writes them; km/h with none.
    static let speedUnits: [(String, Double)] = [
        ("km/h", 1), ("kmh", 1), ("mph", 1.609344), ("knots", 1.852), ("kn", 1.852), ("", 1),
    ]

    /// A part that is not read, and why.
    public struct Unreadable: Sendable, Equatable {
        /// The part as written.
        public let text: String
        public let cause: Cause

        /// Why a part is not read.
        public enum Cause: Sendable, Equatable {
            case noAt
            case notAValue(Quantity)
            /// The condition is not a time; with what is wrong with it when it looks like one.
            case notATime(OpeningHoursError?)

            public var text: String {
                switch self {
                case .noAt: "no '@' between the value and its condition"
                case .notAValue(let quantity): "the value is not \(quantity.forms)"
                case .notATime(nil): "the condition is not a time"
                case .notATime(let error?): "the condition is not a time (\(error.text))"
                }
            }
        }
    }

    /// The parts of a conditional value: the ones read (time conditions), in order, and the ones
    /// that are not (with why), as written.
    public static func parts(_ text: String, quantity: Quantity) -> (
        limits: [ConditionalLimit], read: [String], unreadable: [Unreadable]
    ) { parts(text, quantity: quantity, cache: nil) }

    static func parts(_ text: String, quantity: Quantity, cache: FenceRuleCache?) -> (
        limits: [ConditionalLimit], read: [String], unreadable: [Unreadable]
    ) {
        var limits: [ConditionalLimit] = []
        var read: [String] = []
        var unreadable: [Unreadable] = []
        for written in rejoinedHolidayRules(topLevelParts(text)) {
            guard !written.isEmpty else { continue }
            guard let at = written.firstIndex(of: "@") else {
                unreadable.append(Unreadable(text: written, cause: .noAt))
                continue
            }
            guard let value = quantity.value(written[..<at]) else {
                unreadable.append(Unreadable(text: written, cause: .notAValue(quantity)))
                continue
            }
            var condition = String(written[written.index(after: at)...]).trimmingSpaces
            if condition.hasPrefix("("), condition.hasSuffix(")") {
                condition = String(condition.dropFirst().dropLast()).trimmingSpaces
            }
            // Holidays (`PH off`, `SH off`, `Su,PH`) are read by `OpeningHours`: every day an ordinary one.
            let rules = condition.split(separator: ";").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
            guard !rules.isEmpty, !condition.contains(" AND ") else {
                unreadable.append(Unreadable(text: written, cause: .notATime(nil)))
                continue
            }
            do throws(OpeningHoursError) {
                let joined = rules.joined(separator: "; ")
                let hours: OpeningHours
                if let cache {
                    hours = try cache.openingHours(joined)
                } else {
                    hours = try OpeningHours(parsing: joined)
                }
                limits.append(ConditionalLimit(quantity: quantity, value: value, hours: hours))
                read.append(written)
            } catch {
                // What is wrong with a time (`Mo-Fx 07:00-19:00`); a word or a measure (`wet`,
                // `length>10`) is simply no time.
                unreadable.append(Unreadable(text: written, cause: .notATime(condition.contains(":") ? error : nil)))
            }
        }
        return (limits, read, unreadable)
    }

    /// The parts, trimmed, with a holiday rule that a `;` outside parentheses split from the time
    /// before it put back into that time: `30 @ Mo-Fr 07:00-19:00; PH off` (a form mappers write)
    /// is `30 @ (Mo-Fr 07:00-19:00; PH off)`, not a part without a value.
    static func rejoinedHolidayRules(_ parts: [Substring]) -> [String] {
        var joined: [String] = []
        for part in parts {
            let written = String(part).trimmingSpaces
            let selector = written.split(separator: " ").first ?? ""
            guard let last = joined.last, let at = last.firstIndex(of: "@"), !written.contains("@"),
                !selector.isEmpty, selector.split(separator: ",").allSatisfy(OpeningHours.holidayNames.contains)
            else {
                joined.append(written)
                continue
            }
            let condition = String(last[last.index(after: at)...]).trimmingSpaces
            joined[joined.count - 1] =
                condition.hasPrefix("(") && condition.hasSuffix(")")
                ? String(last.dropLast()) + "; " + written + ")"
                : String(last[..<at]).trimmingSpaces + " @ (" + condition + "; " + written + ")"
        }
        return joined
    }

    /// `text` split at the `;` outside parentheses.
    static func topLevelParts(_ text: String) -> [Substring] {
        var parts: [Substring] = []
        var depth = 0
        var start = text.startIndex
        for index in text.indices {
            switch text[index] {
            case "(": depth += 1
            case ")": depth = max(0, depth - 1)
            case ";" where depth == 0:
                parts.append(text[start..<index])
                start = text.index(after: index)
            default: break
            }
        }
        parts.append(text[start...])
        return parts
    }
}

/// A fence's conditional limits and the zone their times are read in (nil: the user's).
public struct ConditionalLimitTable: Sendable, Equatable {
    public let limits: [ConditionalLimit]
    public let zone: ZoneOffsets?

    /// Whether one of them limits speed, or weight.
    public var limitsSpeed: Bool { limits.contains { $0.quantity != .weight } }
    public var limitsWeight: Bool { limits.contains { $0.quantity == .weight } }
}

extension FenceRules {
    /// The rules as they hold at `milliseconds` since the epoch: each conditional limit whose time
    /// holds (read in the fence's zone, else in `localZone`) in place of its plain limit, the
    /// strictest when several hold (the conditional limits stay, for what is asked of the fence at
    /// any time: `limitsSpeed`). Without conditional limits, the rules themselves.
    public func inForce(atMilliseconds milliseconds: Int64, localZone: ZoneOffsets) -> FenceRules {
        guard let conditional else { return self }
        var rules = self
        var strictest = [Double?](repeating: nil, count: ConditionalLimit.Quantity.allCases.count)
        for limit in conditional.limits
        where ActiveSchedule(hours: limit.hours, zone: conditional.zone).isActive(
            atMilliseconds: milliseconds, localZone: localZone)
        {
            strictest[limit.quantity.rawValue] = min(strictest[limit.quantity.rawValue] ?? .infinity, limit.value)
        }
        let bothWays = strictest[ConditionalLimit.Quantity.speed.rawValue]
        if let bothWays {
            // `maxspeed:conditional` holds both ways along a road, in place of each way's own.
            rules.speedLimit = bothWays
            rules.forwardSpeedLimit = nil
            rules.backwardSpeedLimit = nil
        }
        // One way's conditional limit holds that way, in place of its plain limit (the stricter,
        // when the both-ways one holds too).
        if let forward = strictest[ConditionalLimit.Quantity.forwardSpeed.rawValue] {
            rules.forwardSpeedLimit = min(forward, bothWays ?? .infinity)
        }
        if let backward = strictest[ConditionalLimit.Quantity.backwardSpeed.rawValue] {
            rules.backwardSpeedLimit = min(backward, bothWays ?? .infinity)
        }
        if let speed = strictest[ConditionalLimit.Quantity.hgvSpeed.rawValue] {
            rules.hgvSpeedLimit = speed
            rules.hgvForwardSpeedLimit = nil
            rules.hgvBackwardSpeedLimit = nil
        }
        if let weight = strictest[ConditionalLimit.Quantity.weight.rawValue] { rules.maxWeight = weight }
        return rules
    }

    /// Whether a speed limit holds here at some time: `speed_limit`, one way's, `maxspeed:hgv` or
    /// a conditional one.
    public var limitsSpeed: Bool {
        speedLimit != nil || forwardSpeedLimit != nil || backwardSpeedLimit != nil || hgvSpeedLimit != nil
            || hgvForwardSpeedLimit != nil || hgvBackwardSpeedLimit != nil || conditional?.limitsSpeed == true
    }
}
