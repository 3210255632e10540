/// Where the imported roads meet: the OSM nodes that two or more of them pass through, written on
/// each road as `shared_nodes` (`[[vertex, node], ...]`, docs/fences.md "The road being driven"), so
/// matching joins roads at their shared nodes and never where two ways merely have a vertex at the
/// same place (a bridge over a street, two ways drawn touching). Only those nodes are written: a
/// road's ends and crossings, never its every vertex.
enum OSMSharedNodes {
    /// The nodes, ascending, that more than one of the ways (each a range of `refs`) passes
    /// through. A way counts once at a node it returns to (a roundabout closing on its first node).
    static func shared(ways: [Range<Int>], refs: [Int64]) -> [Int64] {
        var passed: [Int64] = []
        passed.reserveCapacity(ways.reduce(0) { $0 + $1.count })
        for way in ways {
            let start = passed.count
            passed += refs[way]
            passed[start...].sort()
            var unique = start
            for index in start..<passed.count where index == start || passed[index] != passed[unique - 1] {
                passed[unique] = passed[index]
                unique += 1
            }
            passed.removeSubrange(unique...)
        }
        passed.sort()
        var shared: [Int64] = []
        var index = 0
        while index < passed.count {
            var next = index + 1
            while next < passed.count, passed[next] == passed[index] { next += 1 }
            if next - index >= 2 { shared.append(passed[index]) }
            index = next
        }
        return shared
    }

    /// The vertices of a way (its node ids in order) at shared nodes (`shared` ascending), with
    /// the node at each.
    static func pairs(_ way: ArraySlice<Int64>, shared: [Int64]) -> [(vertex: Int, node: Int64)] {
        var pairs: [(vertex: Int, node: Int64)] = []
        for (vertex, node) in way.enumerated() where contains(shared, node) { pairs.append((vertex, node)) }
        return pairs
    }

    private static func contains(_ sorted: [Int64], _ node: Int64) -> Bool {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < node { low = middle + 1 } else { high = middle }
        }
        return low < sorted.count && sorted[low] == node
    }
}
