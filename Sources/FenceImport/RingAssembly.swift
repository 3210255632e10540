/// A multipolygon's member ways joined end to end into closed rings.
enum RingAssembly {
    /// The closed rings the ways make, each as node ids; nil when some do not close.
    static func rings(_ ways: [[Int64]]) -> [[Int64]]? {
        var open = ways.filter { $0.count >= 2 }
        var rings: [[Int64]] = []
        while !open.isEmpty {
            var ring = open.removeFirst()
            while ring.first != ring.last {
                guard let next = open.firstIndex(where: { $0.first == ring.last || $0.last == ring.last }) else {
                    return nil
                }
                let way = open.remove(at: next)
                ring += (way.first == ring.last ? way : way.reversed()).dropFirst()
            }
            guard ring.count >= 4 else { return nil }
            rings.append(ring)
        }
        return rings
    }

    /// Whether `point` is inside the closed `ring` (planar, on degrees).
    static func contains(_ ring: [Position], _ point: Position) -> Bool {
        var inside = false
        var previous = ring[ring.count - 1]
        for current in ring {
            if (current.lat > point.lat) != (previous.lat > point.lat) {
                let lon =
                    previous.lon + (point.lat - previous.lat) / (current.lat - previous.lat)
                    * (current.lon - previous.lon)
                if point.lon < lon { inside.toggle() }
            }
            previous = current
        }
        return inside
    }
}
