/// The property keys of a fence file, for the readers of formats that carry them as text (CSV
/// columns, KML ExtendedData names): the fence settings the loader reads, and every rule's keys
/// as its definition declares them (`FenceRuleKind`), so a new rule is known to them at once.
public enum FenceProperties {
    /// The settings read as numbers that are not rules (docs/fences.md).
    static let settingNumberKeys = ["dwell", "hysteresis", "approach"]
    /// The other keys the loader or the sinks read.
    static let otherKeys = ["notify", "tags", "alarm", "owntracks", "homeassistant", "notes"]

    /// Keys whose value is a number.
    public static let numberKeys = Set(
        settingNumberKeys
            + FenceRuleKind.properties.compactMap { entry in
                if case .number = entry.property.form { return entry.property.name }
                return nil
            })

    /// Keys whose value is a measure: a number, or a sign's text (`11'`, `7.5 t`), with its form.
    public static let measureKeys: [String: RuleProperty.Form] = Dictionary(
        uniqueKeysWithValues: FenceRuleKind.properties.compactMap { entry in
            entry.property.form.measureForms == nil ? nil : (entry.property.name, entry.property.form)
        })

    /// Keys whose value is one of a few words (`hgv`: `no`, `destination`, ...), with the words.
    public static let choiceKeys: [String: [String]] = Dictionary(
        uniqueKeysWithValues: FenceRuleKind.properties.compactMap { entry in
            guard case .choice(let words) = entry.property.form else { return nil }
            return (entry.property.name, words)
        })

    /// Keys whose value is a conditional limit (`maxspeed:conditional`), with what it limits.
    public static let conditionalKeys: [String: ConditionalLimit.Quantity] = Dictionary(
        uniqueKeysWithValues: FenceRuleKind.properties.compactMap { entry in
            guard case .conditional(let quantity) = entry.property.form else { return nil }
            return (entry.property.name, quantity)
        })

    /// Every key the loader or the sinks read.
    public static let knownKeys = numberKeys.union(measureKeys.keys).union(otherKeys).union(
        FenceRuleKind.properties.map(\.property.name))
}
