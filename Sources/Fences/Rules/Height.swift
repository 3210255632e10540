/// A height as road signs and vehicle papers write it (docs/fences.md, "Rules"): metres (`3.2`,
/// `3.2 m`, `3.2m`) or feet and inches (`10'6"`, `10'`, `10 ft`, `10ft`, `10 ft 6 in`, `126 in`).
/// One reader for the fence property `clearance` and for `--vehicle-height`, so that a bridge
/// signed `10'6"` and a truck measured in feet compare in the same metres.
public enum Height {
    static let metresPerFoot = 0.3048
    static let metresPerInch = 0.0254

    /// The height in metres, or nil for text that is none of the forms above (or not above zero).
    public static func metres(_ text: String) -> Double? {
        var reader = Reader(text)
        reader.skipSpaces()
        guard let first = reader.number() else { return nil }
        reader.skipSpaces()
        if reader.atEnd { return positive(first) }
        if reader.word(["m", "metres", "meters", "metre", "meter"]) {
            reader.skipSpaces()
            return reader.atEnd ? positive(first) : nil
        }
        if reader.word(["in", "inch", "inches"]) || reader.mark(inchMarks) {
            reader.skipSpaces()
            return reader.atEnd ? positive(first * metresPerInch) : nil
        }
        guard reader.word(["ft", "feet", "foot"]) || reader.mark(footMarks) else { return nil }
        reader.skipSpaces()
        if reader.atEnd { return positive(first * metresPerFoot) }
        // Inches after feet: `10'6"`, `10 ft 6 in`, and `10'6` as it is often typed.
        guard let inches = reader.number(), inches < 12 else { return nil }
        reader.skipSpaces()
        if !reader.atEnd {
            guard reader.word(["in", "inch", "inches"]) || reader.mark(inchMarks) else { return nil }
            reader.skipSpaces()
            guard reader.atEnd else { return nil }
        }
        return positive(first * metresPerFoot + inches * metresPerInch)
    }

    /// What a bad height is told: the forms that are read.
    public static let forms = #"a height like 3.2, 3.2 m, 10'6", 10 ft 6 in or 126 in"#

    static let footMarks: [Unicode.Scalar] = ["'", "\u{2019}", "\u{2032}"]
    static let inchMarks: [Unicode.Scalar] = ["\"", "\u{201D}", "\u{2033}"]

    static func positive(_ metres: Double) -> Double? { metres.isFinite && metres > 0 ? metres : nil }

    struct Reader {
        let scalars: [Unicode.Scalar]
        var position = 0

        init(_ text: String) { scalars = Array(text.unicodeScalars) }

        var atEnd: Bool { position == scalars.count }

        mutating func skipSpaces() {
            while position < scalars.count, scalars[position] == " " || scalars[position] == "\t" { position += 1 }
        }

        /// A plain decimal: digits with at most one point, no sign, no exponent.
        mutating func number() -> Double? {
            let start = position
            var points = 0
            while position < scalars.count {
                let scalar = scalars[position]
                if scalar == "." {
                    points += 1
                } else if !("0"..."9").contains(scalar) {
                    break
                }
                position += 1
            }
            let text = String(String.UnicodeScalarView(scalars[start..<position]))
            guard points <= 1, text.contains(where: \.isNumber), let value = Double(text) else {
                position = start
                return nil
            }
            return value
        }

        /// One of `words` (case ignored) ending here or before a space, a digit or the end.
        mutating func word(_ words: [String]) -> Bool {
            for word in words.sorted(by: { $0.count > $1.count }) {
                let candidate = Array(word.unicodeScalars)
                let end = position + candidate.count
                guard end <= scalars.count else { continue }
                let here = String(String.UnicodeScalarView(scalars[position..<end])).lowercased()
                guard here == word else { continue }
                if end < scalars.count, !(scalars[end] == " " || ("0"..."9").contains(scalars[end])) { continue }
                position = end
                return true
            }
            return false
        }

        mutating func mark(_ marks: [Unicode.Scalar]) -> Bool {
            guard position < scalars.count, marks.contains(scalars[position]) else { return false }
            position += 1
            return true
        }
    }
}
