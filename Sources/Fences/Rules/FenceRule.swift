import Presentation

/// One rule a fence's properties can carry (docs/fences.md, "Rules"), defined in one place: the
/// properties it reads (the same keys in GeoJSON, as CSV columns and as KML ExtendedData names,
/// each with the form its value is written in), how their values become the rule (with the
/// problems a file is refused for), and where the rule is kept in a fence's `FenceRules`. The
/// rules are the cases of `FenceRuleKind`; the lists of keys the CSV and KML readers use are
/// derived from them (`FenceProperties`).
///
/// What the engine does with a rule is answered per case of `FenceRuleKind` in Events
/// (`FenceRuleKind.engineRule`, a switch with no default), so a new rule fails to compile until
/// it has said so; a rule that restricts vehicles says it here (`VehicleRestriction`).
public protocol FenceRuleDefinition {
    /// The properties it reads, in the order `resolve` finds their values.
    static var properties: [RuleProperty] { get }

    /// Sets the rule in `rules` from the values of `properties` as written (`values[i]` for the
    /// i-th; nil when the feature has not got it). A bad value is thrown in the words the file is
    /// refused with.
    static func resolve(_ values: RuleValues, into rules: inout FenceRules, context: inout RuleContext)
        throws(RuleProblem)
}

/// A property a rule reads and the form of its value.
public struct RuleProperty: Sendable {
    public enum Form: Sendable, Equatable {
        /// A string (`"Mo-Fr 08:00-18:00"`).
        case text
        /// A number from zero to `max` in `unit`.
        case number(unit: String, max: Double)
        /// A height or another length: a number of metres, or the text of a sign (`Height`), read
        /// as metres.
        case height
        /// A weight: a number of tonnes, or the text of a sign (`Weight`), read as kilograms.
        case weight
        /// One of these words (any case), as text.
        case choice([String])
        /// Values with the times they hold, as OpenStreetMap's conditional restrictions write them
        /// (`30 @ (Mo-Fr 07:00-19:00)`), as text: `ConditionalLimit.parts` reads them.
        case conditional(ConditionalLimit.Quantity)

        /// A measure's value from the text of a sign (metres, kilograms); nil for text that is
        /// none, or for a form that is no measure.
        public func measure(_ text: String) -> Double? {
            switch self {
            case .text, .number, .choice, .conditional: nil
            case .height: Height.metres(text)
            case .weight: Weight.kilograms(text)
            }
        }

        /// What a bad measure is told: the forms that are read; nil for a form that is no measure.
        public var measureForms: String? {
            switch self {
            case .text, .number, .choice, .conditional: nil
            case .height: Height.forms
            case .weight: Weight.forms
            }
        }
    }

    /// Static text: the loader compares it with the file's bytes as they are.
    public let key: StaticString
    public let form: Form

    public init(_ key: StaticString, _ form: Form) {
        self.key = key
        self.form = form
    }

    public var name: String { key.description }
}

/// A rule property's value as the loader read it: text, or a number (a height in metres).
public enum RuleValue: Sendable, Equatable {
    case text(String)
    case number(Double)

    public var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    public var number: Double? {
        if case .number(let number) = self { return number }
        return nil
    }
}

/// The values of one rule's properties, in the order of its `properties`.
public struct RuleValues {
    let all: [RuleValue?]
    let offset: Int

    public subscript(_ index: Int) -> RuleValue? { all[offset + index] }
}

/// What the rules of one feature share while they are resolved: the file's caches and the
/// feature's time zone (set by `active`'s `timezone`; nil without one, and then `active`, the
/// conditional limits and an `expires` without offset are read in the user's zone).
public struct RuleContext {
    let cache: FenceRuleCache
    public var timezone: ZoneOffsets?
}

/// Why a feature's rule properties are refused, with the values written; `description` is the
/// text the file's error names.
public enum RuleProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// A `.choice` property's value that is none of its words (`hgv 'never'`).
    case notAChoice(property: String, value: String, choices: [String])
    /// `expires` that is no ISO 8601 time.
    case notATime(property: String, value: String)
    /// Two properties that say the same thing, both given (`speed_limit` and `speed_limit_kmh`).
    case both(String, String)
    /// A `timezone` that cannot be used.
    case zone(ZoneError)
    /// `active` that is no opening hours.
    case hours(property: String, value: String, OpeningHoursError)
    /// The first part of a conditional limit that is not read.
    case conditional(property: String, ConditionalLimit.Unreadable)

    public var description: String {
        switch self {
        case .notAChoice(let property, let value, let choices):
            "\(property) '\(HumanText.printable(value))' is not one of " + choices.joined(separator: ", ")
        case .notATime(let property, let value):
            "\(property) '\(value)' is not an ISO 8601 time like 2026-02-06T18:00:00Z "
                + "(or with an offset, +01:00; without one, in the fence's timezone or yours)"
        case .both(let one, let other): "\(one) and \(other): give one of them"
        case .zone(let error): "timezone: \(error)"
        case .hours(let property, let value, let error): "\(property) '\(value)': \(error.text)"
        case .conditional(let property, let unreadable):
            "\(property) '\(HumanText.printable(unreadable.text))': \(unreadable.cause.text)"
        }
    }
}
