/// The locations of the nodes the kept ways need, and only those: their ids sorted, a location
/// beside each (8 bytes per id: the two coordinates in ten-millionths of a degree). A country's
/// other nodes are read past, never kept.
struct NodeLocations {
    private(set) var ids: [Int64]
    private var packed: [UInt64]
    private var cursor = 0
    private var lastSeen = Int64.min

    static let missing: UInt64 = 0x7FFF_FFFF_7FFF_FFFF

    /// `ids` in any order, repeats allowed; consumed.
    init(needing ids: inout [Int64]) {
        ids.sort()
        var unique = 0
        for index in ids.indices where index == 0 || ids[index] != ids[unique - 1] {
            ids[unique] = ids[index]
            unique += 1
        }
        ids.removeSubrange(unique...)
        self.ids = ids
        ids = []
        packed = [UInt64](repeating: Self.missing, count: self.ids.count)
    }

    var isEmpty: Bool { ids.isEmpty }

    /// Notes a node read from the file, if it is needed. Files sorted by id (as OSM writes them)
    /// are matched by walking both lists; an unsorted file falls back to a search.
    mutating func note(id: Int64, lat7: Int64, lon7: Int64) {
        if id < lastSeen { cursor = lowerBound(id) }
        lastSeen = id
        while cursor < ids.count, ids[cursor] < id { cursor += 1 }
        guard cursor < ids.count, ids[cursor] == id else { return }
        packed[cursor] = UInt64(UInt32(bitPattern: Int32(lat7))) << 32 | UInt64(UInt32(bitPattern: Int32(lon7)))
    }

    /// A node's position, nil when the file did not hold it (a way cut by the extract's edge).
    func position(of id: Int64) -> Position? {
        let index = lowerBound(id)
        guard index < ids.count, ids[index] == id, packed[index] != Self.missing else { return nil }
        let lat7 = Int32(bitPattern: UInt32(packed[index] >> 32))
        let lon7 = Int32(bitPattern: UInt32(packed[index] & 0xFFFF_FFFF))
        return Position(lon: Double(lon7) / 1e7, lat: Double(lat7) / 1e7)
    }

    private func lowerBound(_ id: Int64) -> Int {
        var low = 0
        var high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
