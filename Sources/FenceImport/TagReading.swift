/// What a tag's value came to: a number to keep, or the reason it was skipped (counted in the
/// summary).
enum TagReading: Equatable {
    case value(Double)
    case skipped(reason: String, example: String?)
}

/// `maxheight` (and `maxheight:physical`) as the OSM wiki documents it: a length, or one of the
/// words that say there is no number to keep.
enum MaxHeight {
    static let words: Set<String> = ["default", "none", "below_default", "no_sign", "no_indications", "unsigned"]

    static func read(_ text: String) -> TagReading {
        let trimmed = text.trimmingSpaces
        if words.contains(trimmed) { return .skipped(reason: "maxheight=\(trimmed)", example: nil) }
        if let metres = OSMLength.metres(trimmed), metres < 100 { return .value(metres) }
        return .skipped(reason: "unreadable maxheight", example: text)
    }
}

/// `maxspeed` as the OSM wiki documents it: km/h by default (`50`, `50 km/h`), `mph`, `knots`,
/// `walk`, the implicit codes (`DE:urban`, `GB:nsl_single`, `FR:zone30`), in km/h.
enum MaxSpeed {
    static let kmhPerMph = 1.609344
    static let kmhPerKnot = 1.852
    /// Walking pace: the upper end of what German courts read `Schrittgeschwindigkeit` as.
    static let walkKmh = 7.0
    static let words: Set<String> = ["none", "signals", "variable", "no", "unposted", "implicit"]

    static func read(_ text: String) -> TagReading {
        let trimmed = text.trimmingSpaces
        if words.contains(trimmed) { return .skipped(reason: "maxspeed=\(trimmed)", example: nil) }
        if trimmed == "walk" { return .value(walkKmh) }
        if let kmh = OSMLength.plainNumber(trimmed) { return .value(kmh) }
        for (unit, factor) in [
            (" km/h", 1.0), ("km/h", 1.0), (" kmh", 1.0), (" mph", kmhPerMph), ("mph", kmhPerMph),
            (" knots", kmhPerKnot), (" kn", kmhPerKnot),
        ]
        where trimmed.hasSuffix(unit) {
            guard let number = OSMLength.plainNumber(String(trimmed.dropLast(unit.count)).trimmingSpaces) else {
                break
            }
            return .value(number * factor)
        }
        if trimmed.contains(":") { return code(trimmed) }
        return .skipped(reason: "unreadable maxspeed", example: text)
    }

    /// `CC:zone`: the shipped table of defaults, or `CC:zone30`/`CC:zone:30` (km/h, or mph in the
    /// countries that sign in mph).
    static func code(_ text: String) -> TagReading {
        if let entry = DefaultSpeedLimits.table[text] {
            guard let kmh = entry else { return .skipped(reason: "maxspeed=\(text) (no limit)", example: nil) }
            return .value(kmh)
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        let country = parts.first.map(String.init) ?? ""
        let zone = parts.dropFirst().joined(separator: ":")
        for prefix in ["zone:", "zone"] where zone.hasPrefix(prefix) {
            guard let number = OSMLength.plainNumber(String(zone.dropFirst(prefix.count))) else { break }
            return .value(DefaultSpeedLimits.mphCountries.contains(country) ? number * kmhPerMph : number)
        }
        return .skipped(reason: "unknown maxspeed code", example: text)
    }
}
