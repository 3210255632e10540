/// What an import kept, by kind, and what it skipped, by reason, for standard error.
public struct ImportSummary: Sendable {
    public private(set) var kept: [String: Int] = [:]
    public private(set) var skipped: [String: Int] = [:]
    /// Up to three of the values behind each reason, as the source wrote them.
    public private(set) var examples: [String: [String]] = [:]

    public init() {}

    public var keptCount: Int { kept.values.reduce(0, +) }
    /// Fences outside `--bbox` that its numbers read as west,south,east,north would have kept.
    public private(set) var insideOsmiumOrderBox = 0

    mutating func noteInsideOsmiumOrderBox() { insideOsmiumOrderBox += 1 }

    mutating func keep(_ kind: String) { kept[kind, default: 0] += 1 }

    mutating func skip(_ reason: String, example: String? = nil) {
        skipped[reason, default: 0] += 1
        if let example, examples[reason, default: []].count < 3, !examples[reason, default: []].contains(example) {
            examples[reason, default: []].append(example)
        }
    }

    /// `kept 12 fences (3 circles, 9 corridors)`, then one line per reason, the most frequent first.
    public func lines(output: String) -> [String] {
        let kinds = ["circles", "corridors", "polygons"].compactMap { kind in
            kept[kind].map { "\($0) \($0 == 1 ? String(kind.dropLast()) : kind)" }
        }
        var lines = [
            "kept \(keptCount) fence\(keptCount == 1 ? "" : "s")"
                + (kinds.isEmpty ? "" : " (\(kinds.joined(separator: ", ")))") + " in \(output)"
        ]
        let total = skipped.values.reduce(0, +)
        if total > 0 { lines.append("skipped \(total):") }
        for (reason, count) in skipped.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }) {
            var line = "  \(count) \(reason)"
            if let shown = examples[reason], !shown.isEmpty {
                line += " (" + shown.map { "'\($0)'" }.joined(separator: ", ") + ")"
            }
            lines.append(line)
        }
        return lines
    }
}
