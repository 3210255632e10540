import JSONOutput

/// A CSV cell as the JSON value of a fence property: a spreadsheet has only text, and the
/// properties the loader reads want numbers and booleans.
enum CSVCell {
    /// The properties read as numbers (docs/fences.md): their cells are numbers when they read as one.
    static let numberKeys: Set<String> = [
        "dwell", "hysteresis", "approach", "speed_limit", "speed_limit_kmh", "clearance",
    ]
    /// Every property key the loader or the sinks read, matched in any case in a header.
    static let knownKeys: Set<String> = numberKeys.union([
        "notify", "tags", "active", "timezone", "expires", "alarm", "owntracks", "homeassistant", "notes",
    ])

    /// Appends the value of `text` (trimmed) for property `key`: `true` and `false` (any case) as
    /// booleans, a number for a number property when the cell is a JSON number, else a string, so
    /// that a cell like `10'6"` still reaches the loader's check and its message.
    static func append(_ text: String, key: String, to json: JSONBuffer) {
        let lowered = text.lowercased()
        if lowered == "true" || lowered == "false" {
            json.value(lowered == "true")
        } else if numberKeys.contains(key) && isJSONNumber(text) {
            json.beginRawValue()
            json.append(raw: text)
        } else {
            json.value(text)
        }
    }
}
