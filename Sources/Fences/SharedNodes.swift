import JSONInput

/// Where a road meets the other roads of its OpenStreetMap file: its `shared_nodes` property, which
/// `fences import` writes on every road it keeps, `[[vertex, node], ...]`: the index of a vertex of
/// the line (0 the first, in the order of its coordinates) and the id of the OSM node there, for the
/// nodes that another imported road also passes through, vertices ascending. Two roads that both
/// carry it join only at a node both list (`FenceSet.corridorsJoin`): a bridge drawn with a vertex
/// above a vertex of the street under it shares no node with it. Only the junctions are listed, a
/// few a road, never every vertex.
public struct SharedNodes: Sendable, Equatable {
    /// Vertex indices, ascending, and the node at each.
    public let vertices: [Int32]
    public let nodes: [Int64]

    public init(vertices: [Int32], nodes: [Int64]) {
        self.vertices = vertices
        self.nodes = nodes
    }

    /// The node at vertex `index`, nil when the road shares none there.
    public func node(atVertex index: Int) -> Int64? {
        var low = 0
        var high = vertices.count
        while low < high {
            let middle = (low + high) / 2
            if Int(vertices[middle]) < index { low = middle + 1 } else { high = middle }
        }
        return low < vertices.count && Int(vertices[low]) == index ? nodes[low] : nil
    }

    /// The first vertex at node `id`, nil when the road does not pass through it (lists are a few
    /// entries long: a scan).
    public func vertex(ofNode id: Int64) -> Int? { nodes.firstIndex(of: id).map { Int(vertices[$0]) } }

    /// Whether the two roads pass through a node in common.
    public func meets(_ other: SharedNodes) -> Bool { nodes.contains { other.nodes.contains($0) } }

    /// OSM ids are positive and below 2^53 (exact as JSON numbers in every reader).
    static let largestID = Double(1 << 53)

    /// Reads the property's value at the scanner; nil when it is not a list of `[vertex, node]`
    /// pairs of whole numbers (vertex 0 or more, ascending; node 1 or more).
    static func read(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> SharedNodes? {
        var vertices: [Int32] = []
        var nodes: [Int64] = []
        let valid = try scan(&scanner) { vertex, node in
            vertices.append(vertex)
            nodes.append(node)
        }
        return valid ? SharedNodes(vertices: vertices, nodes: nodes) : nil
    }

    /// Scans the property's value at the scanner, handing each pair to `body` (the loader's check
    /// keeps nothing); false when it is not the list `read` reads.
    static func scan(_ scanner: inout JSONScanner, _ body: (Int32, Int64) -> Void) throws(JSONSyntaxError) -> Bool {
        guard scanner.peek() == 0x5B else {
            try scanner.skipValue()
            return false
        }
        scanner.pos += 1
        if scanner.consume(0x5D) { return true }
        var valid = true
        var last: Int32 = -1
        repeat {
            guard valid, scanner.peek() == 0x5B else {
                try scanner.skipValue()
                valid = false
                continue
            }
            scanner.pos += 1
            var pair = (vertex: Double.nan, node: Double.nan)
            var count = 0
            if !scanner.consume(0x5D) {
                repeat {
                    // Not a number: NaN fails the checks below.
                    var value = Double.nan
                    if scanner.atNumber() { value = try scanner.number() } else { try scanner.skipValue() }
                    if count == 0 { pair.vertex = value } else { pair.node = value }
                    count += 1
                } while try scanner.next(close: 0x5D)
            }
            guard count == 2, pair.vertex == pair.vertex.rounded(), pair.vertex > Double(last),
                pair.vertex < Double(Int32.max), pair.node == pair.node.rounded(), pair.node >= 1,
                pair.node < largestID
            else {
                valid = false
                continue
            }
            last = Int32(pair.vertex)
            body(last, Int64(pair.node))
        } while try scanner.next(close: 0x5D)
        return valid
    }
}
