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

    /// Keys whose value is a height: a number of metres, or a sign's text (`Height`).
    public static let heightKeys = Set(
        FenceRuleKind.properties.filter { $0.property.form == .height }.map(\.property.name))

    /// Every key the loader or the sinks read.
    public static let knownKeys = numberKeys.union(heightKeys).union(otherKeys).union(
        FenceRuleKind.properties.map(\.property.name))
}
