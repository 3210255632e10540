/// A length as OpenStreetMap tags write it (`maxheight`, `width`): metres (`3.5`, `3.5 m`,
/// `3,5`), feet and inches (`11'6"`, `12'`, `12 ft`, `11 ft 6 in`). Nil when it is none of those.
enum OSMLength {
    static let metresPerFoot = 0.3048
    static let metresPerInch = 0.0254

    static func metres(_ raw: String) -> Double? {
        var text = raw.trimmingSpaces.replacing(",", with: ".")
        text = text.replacing("\u{2032}", with: "'").replacing("\u{2033}", with: "\"")
        text = text.replacing("''", with: "\"")
        if let value = plainNumber(text) { return value }
        for unit in [" m", "m"] where text.hasSuffix(unit) {
            return plainNumber(String(text.dropLast(unit.count)).trimmingSpaces)
        }
        if text.contains("'") || text.contains("\"") {
            return feetAndInches(text, foot: "'", inch: "\"")
        }
        if text.hasSuffix("ft") || text.hasSuffix("in") {
            return feetAndInches(text, foot: "ft", inch: "in")
        }
        return nil
    }

    /// `11'6"`, `11' 6"`, `12'`, `6"`, `11 ft 6 in`, `12 ft`.
    static func feetAndInches(_ text: String, foot: String, inch: String) -> Double? {
        var rest = Substring(text)
        var total = 0.0
        var any = false
        if let footMark = rest.firstRange(of: foot) {
            guard let feet = plainNumber(String(rest[..<footMark.lowerBound]).trimmingSpaces) else { return nil }
            total += feet * metresPerFoot
            rest = rest[footMark.upperBound...]
            any = true
        }
        let tail = String(rest).trimmingSpaces
        if !tail.isEmpty {
            let digits = String(tail.dropLast(inch.count)).trimmingSpaces
            guard tail.hasSuffix(inch), let inches = digits == "0" ? 0 : plainNumber(digits), inches < 12 || !any
            else { return nil }
            total += inches * metresPerInch
            any = true
        }
        return any && total > 0 ? total : nil
    }

    /// Digits with at most one decimal point, nothing else; positive.
    static func plainNumber(_ text: String) -> Double? {
        guard !text.isEmpty, text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E }),
            let value = Double(text), value > 0, value.isFinite
        else { return nil }
        return value
    }
}

extension String {
    var trimmingSpaces: String {
        var view = Substring(self)
        while let first = view.first, first == " " || first == "\t" { view.removeFirst() }
        while let last = view.last, last == " " || last == "\t" { view.removeLast() }
        return String(view)
    }

}
