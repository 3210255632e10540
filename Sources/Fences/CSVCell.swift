import JSONOutput

/// A CSV cell as the JSON value of a fence property: a spreadsheet has only text, and the
/// properties the loader reads want numbers and booleans.
enum CSVCell {
    /// Appends the value of `text` (trimmed) for property `key`: `true` and `false` (any case) as
    /// booleans, a number for a number or measure property (`FenceProperties`) when the cell is a
    /// JSON number, else a string, so that a cell like `10'6"` reaches the loader's reading of
    /// heights (or its check and its message).
    static func append(_ text: String, key: String, to json: JSONBuffer) {
        let lowered = text.lowercased()
        if lowered == "true" || lowered == "false" {
            json.value(lowered == "true")
        } else if FenceProperties.numberKeys.contains(key) || FenceProperties.measureKeys[key] != nil,
            isJSONNumber(text)
        {
            json.beginRawValue()
            json.append(raw: text)
        } else {
            json.value(text)
        }
    }
}
