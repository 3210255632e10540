import JSONOutput

/// A text per fence, in file order (its `properties` as the JSON of its file, minified, or its name),
/// each distinct text kept once. A country's roads carry a handful of distinct properties (a
/// speed limit and a radius) over a million fences, and most carry no name: as a list of strings
/// those took 55 and 16 bytes a fence.
///
/// Only the last few distinct texts are looked for, as for settings: a file whose every fence
/// has its own text (a name each) costs 12 bytes a fence besides the text, not a hash table.
struct FenceTexts {
    /// The distinct texts, one after the other.
    private var text: [UInt8] = []
    /// End of each distinct text in `text`.
    private var ends: [Int] = []
    /// Each fence's distinct text, or -1 for none.
    private var row: [Int32] = []
    private var recent: [(hash: UInt64, row: Int32)] = []

    static let recentCount = 16

    var count: Int { row.count }
    /// How many distinct texts are kept.
    var distinctCount: Int { ends.count }

    mutating func reserve(fences: Int) { row.reserveCapacity(fences) }

    /// The next fence's text.
    mutating func append<P: Collection<UInt8>>(_ bytes: P) {
        var hash = FNV1a()
        for byte in bytes { hash.add(byte: byte) }
        for entry in recent where entry.hash == hash.value && self.bytes(ofRow: Int(entry.row)).elementsEqual(bytes) {
            row.append(entry.row)
            return
        }
        let new = Int32(ends.count)
        text.append(contentsOf: bytes)
        ends.append(text.count)
        row.append(new)
        if recent.count == Self.recentCount { recent.removeFirst() }
        recent.append((hash.value, new))
    }

    /// The next fence's properties, minified once here so that every event copies them as they are.
    mutating func appendJSON<P: Collection<UInt8>>(_ bytes: P) {
        if MinifiedJSON.isMinified(bytes) { append(bytes) } else { append(MinifiedJSON.bytes(bytes)) }
    }

    /// The next fence's text, or none.
    mutating func append(_ string: String?) {
        if let string { append(string.utf8) } else { row.append(-1) }
    }

    /// The text of fence `fence`, empty when it has none.
    func bytes(of fence: Int) -> ArraySlice<UInt8> {
        let r = Int(row[fence])
        return r < 0 ? [] : bytes(ofRow: r)
    }

    /// The text of fence `fence`, or nil when it has none.
    func string(of fence: Int) -> String? {
        let r = Int(row[fence])
        return r < 0 ? nil : String(decoding: bytes(ofRow: r), as: UTF8.self)
    }

    private func bytes(ofRow r: Int) -> ArraySlice<UInt8> { text[(r == 0 ? 0 : ends[r - 1])..<ends[r]] }
}
