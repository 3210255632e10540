import Platform

/// A node's restriction on the road through it (a height barrier, a car park's entrance with
/// `maxheight`): a short piece of each road way through the node, `metres` either side of it along
/// the way, carrying the way's road tags and restrictions and the node's own (docs/fences.md, "A
/// node on a road"). Matching to the road being driven then tells only a vehicle on that road at
/// that place, not one passing on the street beside it. A node on no road way of the file stays a
/// circle.
enum OSMNodePieces {
    /// Metres along the way either side of the node: a vehicle on the piece is at the restriction.
    static let metres = 15.0

    /// The piece of a way whose nodes are at `positions`, around its node at `index`: the points
    /// of its line, the range of the way's nodes among them, and whether a point cut from the
    /// way's segment comes before those nodes.
    static func piece(_ positions: [Position], around index: Int) -> (
        points: [Position], nodes: ClosedRange<Int>, cutBefore: Bool
    ) {
        let before = reach(positions, from: index, step: -1)
        let after = reach(positions, from: index, step: 1)
        var points = before.cut.map { [$0] } ?? []
        points += positions[before.node...after.node]
        if let cut = after.cut { points.append(cut) }
        return (points, before.node...after.node, before.cut != nil)
    }

    /// The last node within `metres` of the node at `index` going `step` along the way, and the
    /// point `metres` along where the way goes on beyond it.
    private static func reach(_ positions: [Position], from index: Int, step: Int) -> (node: Int, cut: Position?) {
        var node = index
        var along = 0.0
        while positions.indices.contains(node + step) {
            let from = positions[node]
            let to = positions[node + step]
            let length = metresBetween(from, to)
            if along + length > metres {
                let fraction = (metres - along) / length
                let cut = Position(
                    lon: from.lon + (to.lon - from.lon) * fraction, lat: from.lat + (to.lat - from.lat) * fraction)
                return (node, cut)
            }
            along += length
            node += step
        }
        return (node, nil)
    }

    /// Metres between two points a few tens of metres apart (a flat map is exact to millimetres).
    static func metresBetween(_ a: Position, _ b: Position) -> Double {
        let metresPerDegree = 6_371_008.8 * Double.pi / 180
        let east = (b.lon - a.lon) * metresPerDegree * cos((a.lat + b.lat) / 2 * Double.pi / 180)
        let north = (b.lat - a.lat) * metresPerDegree
        return (east * east + north * north).squareRoot()
    }
}
