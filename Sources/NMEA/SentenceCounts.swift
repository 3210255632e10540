/// Sentences counted by type ("GGA", "PGRME", ...), in a fixed open-addressing table: counting
/// never allocates. Types beyond the table's capacity are counted together as overflow.
public struct SentenceCounts: Sendable {
    public static let capacity = 128

    private var keys = InlineArray<128, UInt64>(repeating: 0)
    private var lengths = InlineArray<128, UInt8>(repeating: 0)
    private var values = InlineArray<128, UInt64>(repeating: 0)
    /// Sentences of types that did not fit in the table.
    public private(set) var overflow: UInt64 = 0

    public init() {}

    public mutating func add(_ type: SentenceType) {
        let key = type.packed
        var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 57) & (Self.capacity - 1)
        for _ in 0..<Self.capacity {
            if values[slot] == 0 {
                keys[slot] = key
                lengths[slot] = UInt8(type.length)
                values[slot] = 1
                return
            }
            if keys[slot] == key {
                values[slot] += 1
                return
            }
            slot = (slot + 1) & (Self.capacity - 1)
        }
        overflow += 1
    }

    public subscript(type: SentenceType) -> UInt64 {
        entries.first { $0.type == type }?.count ?? 0
    }

    /// Every counted type, most frequent first, then by name.
    public var entries: [(type: SentenceType, count: UInt64)] {
        var result: [(type: SentenceType, count: UInt64)] = []
        for slot in 0..<Self.capacity where values[slot] > 0 {
            result.append((SentenceType(packed: keys[slot], length: Int(lengths[slot])), values[slot]))
        }
        return result.sorted { $0.count != $1.count ? $0.count > $1.count : $0.type.description < $1.type.description }
    }
}
