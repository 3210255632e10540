/// A list of array positions kept as 4 bytes each, read and written as `Int`: the corridors' line
/// and vertex starts, three a corridor, 12 MB rather than 24 for a country's roads. A set has
/// fewer than 2^31 vertices (it would take a fence file of over 40 GB).
struct CompactIndices {
    private var values: [Int32]

    init(_ values: [Int] = []) { self.values = values.map { Int32($0) } }

    var count: Int { values.count }
    var last: Int? { values.last.map(Int.init) }

    @inline(__always)
    subscript(i: Int) -> Int { Int(values[i]) }

    mutating func append(_ value: Int) { values.append(Int32(value)) }
    mutating func reserveCapacity(_ n: Int) { values.reserveCapacity(n) }

    /// The values of `later` from its position `first` on, each `offset` more.
    mutating func append(contentsOf later: CompactIndices, from first: Int, adding offset: Int) {
        values.reserveCapacity(values.count + later.count - first)
        for value in later.values[first...] { values.append(value + Int32(offset)) }
    }
}
