import JSONInput

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
        let found = text.withUnsafeBufferPointer { bytes -> (closing: Int, hasFeatures: Bool, afterLast: Int)? in
            var scanner = JSONScanner(bytes)
            return try? Self.featuresArray(&scanner)
        }
        guard let found else { return nil }
        (closing, hasFeatures, afterLast) = found
    }

    /// Reads the top-level object with the one JSON reader, up to the end of its first `features`
    /// array: where that array closes, and where its last element (or its `[`) ends.
    private static func featuresArray(_ scanner: inout JSONScanner) throws(JSONSyntaxError)
        -> (closing: Int, hasFeatures: Bool, afterLast: Int)?
    {
        var found: (closing: Int, hasFeatures: Bool, afterLast: Int)?
        try scanner.members { (scanner, key) throws(JSONSyntaxError) in
            guard found == nil, scanner.spanEquals(key, "features"), scanner.peek() == UInt8(ascii: "[") else {
                try scanner.skipValue()
                return
            }
            var afterLast = scanner.pos + 1
            var hasFeatures = false
            try scanner.elements { (scanner) throws(JSONSyntaxError) in
                try scanner.skipValue()
                hasFeatures = true
                afterLast = scanner.pos
            }
            found = (scanner.pos - 1, hasFeatures, afterLast)
        }
        return found
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
