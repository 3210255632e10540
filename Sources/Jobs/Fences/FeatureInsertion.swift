/// Where a new feature goes in a GeoJSON FeatureCollection's text: just before the `]` that closes
/// its top-level `features` array, so that everything else in the file (its layout, comments in
/// names, numbers as written) stays byte for byte. Nil when the text is not a FeatureCollection.
struct FeatureInsertion {
    /// Byte offset of the closing `]`.
    let closing: Int
    /// Whether the array already holds a feature (the new one needs a comma before it).
    let hasFeatures: Bool
    /// The byte offset just after the last feature (where the comma goes).
    let afterLast: Int

    init?(_ text: [UInt8]) {
        var depth = 0
        var inString = false
        var escaped = false
        var lastKey: (start: Int, end: Int)?
        var stringStart = 0
        var arrayOpen: Int?
        var lastSignificant = -1
        for (offset, byte) in text.enumerated() {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 1 && arrayOpen == nil { lastKey = (stringStart, offset) }
                }
                lastSignificant = offset
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                stringStart = offset + 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                if depth == 2, byte == UInt8(ascii: "["), arrayOpen == nil, let key = lastKey,
                    Array(text[key.start..<key.end]) == Array("features".utf8)
                {
                    arrayOpen = offset
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 2, let open = arrayOpen, byte == UInt8(ascii: "]") {
                    closing = offset
                    hasFeatures = lastSignificant > open
                    afterLast = lastSignificant + 1
                    return
                }
                depth -= 1
            case UInt8(ascii: ","), UInt8(ascii: ":"):
                if depth == 1 && byte == UInt8(ascii: ",") { lastKey = nil }
            default:
                break
            }
            if byte > 0x20 { lastSignificant = offset }
        }
        return nil
    }

    /// `text` with `feature` (one JSON object) added as the array's last element, on a line of its
    /// own; what followed the last feature (the line break and indentation before `]`) follows it.
    func inserting(_ feature: String, into text: [UInt8]) -> [UInt8] {
        var result = Array(text[..<afterLast])
        result += Array(((hasFeatures ? "," : "") + "\n    " + feature).utf8)
        let rest = text[afterLast...]
        if rest.first != UInt8(ascii: "\n") && rest.first != UInt8(ascii: "\r") { result.append(UInt8(ascii: "\n")) }
        result += rest
        return result
    }
}
