import Presentation

/// A feature's rule properties as written (docs/fences.md, "Rules"), gathered while its properties
/// object is read and resolved once it is read whole: `timezone` may come after `active`. The
/// values are kept in the order of `FenceRuleKind.properties`, in one buffer the file's features
/// share (`FenceRuleCache.values`): a million corridors with a speed limit allocate nothing for it.
struct FenceRuleText {
    let cache: FenceRuleCache
    private var touched = false

    init(cache: FenceRuleCache) { self.cache = cache }

    mutating func set(_ index: Int, _ value: RuleValue?) {
        cache.values[index] = value
        touched = true
    }

    /// The rules, or nil when there are none; a problem goes to `pending` (the first one wins).
    /// The shared values are cleared for the next feature.
    func resolved(pending: inout FenceProblem?) -> FenceRules? {
        guard touched else { return nil }
        // Taken out of the cache while the rules read it (one access, no copy), cleared and put
        // back for the next feature.
        var values: [RuleValue?] = []
        swap(&values, &cache.values)
        defer {
            for index in values.indices where values[index] != nil { values[index] = nil }
            swap(&values, &cache.values)
        }
        var rules = FenceRules()
        var context = RuleContext(cache: cache)
        for (definition, offset) in FenceRuleKind.resolvers {
            do throws(RuleProblem) {
                try definition.resolve(RuleValues(all: values, offset: offset), into: &rules, context: &context)
            } catch {
                pending = pending ?? .rule(error)
                return nil
            }
        }
        return rules == FenceRules() ? nil : rules
    }
}

extension GeoJSONLoader {
    /// Reads the value of `key` into `rules` when `key` is a rule property, in the form its rule
    /// says; false for other keys (nothing read).
    mutating func readRuleProperty(
        _ key: (start: Int, end: Int, escaped: Bool), into rules: inout FenceRuleText, pending: inout FenceProblem?
    ) throws -> Bool {
        let keys = FenceRuleKind.keys
        for index in keys.indices where scanner.spanEquals(key, keys[index]) {
            let entry = FenceRuleKind.properties[index]
            let name = entry.property.name
            switch entry.property.form {
            case .text, .choice, .conditional:
                rules.set(index, try ruleString(name, pending: &pending).map(RuleValue.text))
            case .number(let unit, let max):
                rules.set(index, try setting(name, unit: unit, max: max, pending: &pending).map(RuleValue.number))
            case .height:
                rules.set(index, try heightSetting(name, pending: &pending).map(RuleValue.number))
            case .weight:
                rules.set(index, try weightSetting(name, pending: &pending).map(RuleValue.number))
            }
            return true
        }
        return false
    }

    /// A height: a number of metres, or text in the forms signs use (`Height`).
    mutating func heightSetting(_ key: String, pending: inout FenceProblem?) throws -> Double? {
        guard scanner.peek() == 0x22 else {
            return try setting(key, unit: "metres", max: Limits.maxMetres, pending: &pending)
        }
        let text = try scanner.string(scanner.stringSpan())
        guard let metres = Height.metres(text), metres <= Limits.maxMetres else {
            pending = pending ?? .property(.notAHeight(key: key, text: text))
            return nil
        }
        return metres
    }

    /// A weight: a number of tonnes, or text in the forms signs use (`Weight`), in kilograms.
    mutating func weightSetting(_ key: String, pending: inout FenceProblem?) throws -> Double? {
        guard scanner.peek() == 0x22 else {
            let tonnes = try setting(key, unit: "tonnes", max: Limits.maxTonnes, pending: &pending)
            return tonnes.map { $0 * 1000 }
        }
        let text = try scanner.string(scanner.stringSpan())
        guard let kilograms = Weight.kilograms(text), kilograms <= Limits.maxTonnes * 1000 else {
            pending = pending ?? .property(.notAWeight(key: key, text: text))
            return nil
        }
        return kilograms
    }

    mutating func ruleString(_ key: String, pending: inout FenceProblem?) throws -> String? {
        let start = scanner.pos
        if scanner.consumeNull() { return nil }
        if scanner.peek() == 0x22 { return try scanner.string(scanner.stringSpan()) }
        try scanner.skipValue()
        pending = pending ?? .property(.notAString(key: key, written: snippet(start)))
        return nil
    }
}

/// What a file's rules share: a million fences naming `Europe/Berlin` read its zone file once and
/// share one table (and one parsed `active` per distinct text), instead of a copy each.
final class FenceRuleCache {
    /// The rule values of the feature being read (`FenceRuleText`), by `FenceRuleKind.properties`.
    var values = [RuleValue?](repeating: nil, count: FenceRuleKind.properties.count)
    var zones: [String: ZoneOffsets] = [:]
    var hours: [String: OpeningHours] = [:]

    func zone(_ name: String) throws(ZoneError) -> ZoneOffsets {
        if let zone = zones[name] { return zone }
        let zone = try ZoneOffsets(named: name)
        zones[name] = zone
        return zone
    }

    func openingHours(_ text: String) throws(OpeningHoursError) -> OpeningHours {
        if let parsed = hours[text] { return parsed }
        let parsed = try OpeningHours(parsing: text)
        if hours.count < 4096 { hours[text] = parsed }
        return parsed
    }
}
