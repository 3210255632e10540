import JSONOutput

/// A text per fence, in file order (its `properties` as the JSON of its file, minified, or its name),
/// each distinct text kept once, found again through a hash table of the distinct texts (4 to 8
/// bytes each). A country's roads carry a few distinct properties (a class, a speed limit, a
/// radius, the street names of a town) over a million fences, in an order that is the map's only
/// in runs: as a list of strings those took 55 and 16 bytes a fence, and a memory of the last 16
/// distinct texts still kept 36 MB for the 9 MB of distinct ones.
struct FenceTexts {
    /// The distinct texts, one after the other.
    private var text: [UInt8] = []
    /// End of each distinct text in `text`.
    private var ends: [Int] = []
    /// Each fence's distinct text, or -1 for none.
    private var row: [Int32] = []
    /// Open addressing over the distinct texts by `hash`: a row, or -1; at most half full.
    private var table: [Int32] = []

    var count: Int { row.count }
    /// How many distinct texts are kept.
    var distinctCount: Int { ends.count }

    mutating func reserve(fences: Int) { row.reserveCapacity(fences) }

    /// The next fence's text.
    mutating func append<P: Collection<UInt8>>(_ bytes: P) {
        if let found = bytes.withContiguousStorageIfAvailable({ append(contiguous: UnsafeRawBufferPointer($0)) }) {
            row.append(found)
        } else {
            let copy = Array(bytes)
            row.append(copy.withUnsafeBytes { append(contiguous: $0) })
        }
    }

    /// The row of `bytes`, added when new.
    private mutating func append(contiguous bytes: UnsafeRawBufferPointer) -> Int32 {
        if 2 * (ends.count + 1) > table.count { grow() }
        let mask = table.count - 1
        var slot = Int(truncatingIfNeeded: Self.hash(bytes)) & mask
        while true {
            let r = Int(table[slot])
            if r < 0 { break }
            let start = r == 0 ? 0 : ends[r - 1]
            if ends[r] - start == bytes.count
                && text.withUnsafeBytes({ Self.equal(UnsafeRawBufferPointer(rebasing: $0[start..<ends[r]]), bytes) })
            {
                return Int32(r)
            }
            slot = (slot + 1) & mask
        }
        let new = Int32(ends.count)
        text.append(contentsOf: bytes)
        ends.append(text.count)
        table[slot] = new
        return new
    }

    /// Twice the slots (at least 64), every distinct text placed again.
    private mutating func grow() {
        table = [Int32](repeating: -1, count: Swift.max(64, 2 * table.count))
        let mask = table.count - 1
        text.withUnsafeBytes { all in
            var start = 0
            for (r, end) in ends.enumerated() {
                var slot = Int(truncatingIfNeeded: Self.hash(UnsafeRawBufferPointer(rebasing: all[start..<end]))) & mask
                while table[slot] >= 0 { slot = (slot + 1) & mask }
                table[slot] = Int32(r)
                start = end
            }
        }
    }

    /// Whether two runs of bytes of the same length are equal, compared eight bytes at a time.
    static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        while i + 8 <= a.count {
            let word = a.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if word != b.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
            i += 8
        }
        while i < a.count {
            if a[i] != b[i] { return false }
            i += 1
        }
        return true
    }

    /// A hash of the bytes, eight at a time.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var i = 0
        while i + 8 <= bytes.count {
            h = (h ^ bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            h ^= h >> 32
            i += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < bytes.count {
            tail |= UInt64(bytes[i]) << shift
            shift += 8
            i += 1
        }
        h = (h ^ tail) &* 0xC4CE_B9FE_1A85_EC53
        return h ^ (h >> 29)
    }

    /// The next fence's properties, minified once here so that every event copies them as they are.
    mutating func appendJSON<P: Collection<UInt8>>(_ bytes: P) {
        if MinifiedJSON.isMinified(bytes) { append(bytes) } else { append(MinifiedJSON.bytes(bytes)) }
    }

    /// The next fence's text, or none.
    mutating func append(_ string: String?) {
        if let string { append(string.utf8) } else { row.append(-1) }
    }

    /// The texts of `later`'s fences, after these fences' own.
    mutating func append(contentsOf later: FenceTexts) {
        var rows: [Int32] = []
        rows.reserveCapacity(later.distinctCount)
        later.text.withUnsafeBytes { all in
            for r in later.ends.indices {
                let start = r == 0 ? 0 : later.ends[r - 1]
                rows.append(append(contiguous: UnsafeRawBufferPointer(rebasing: all[start..<later.ends[r]])))
            }
        }
        row.reserveCapacity(row.count + later.row.count)
        for r in later.row { row.append(r < 0 ? -1 : rows[Int(r)]) }
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
