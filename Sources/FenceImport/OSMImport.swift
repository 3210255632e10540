/// An OSM file made into fences in three passes over it: the selected multipolygon relations
/// (only with `--select`), then the tagged nodes (written at once, but for a vehicle's restriction,
/// which waits for the roads through it: `OSMNodePieces`) and the kept ways with their node ids,
/// then the locations of just those nodes. Memory grows with the kept ways' vertices (24 bytes
/// each at most), not with the file's nodes. Each road keeps the nodes it shares with the other
/// roads of the file (`OSMSharedNodes`).
struct OSMImport {
    let reader: OSMReader
    let settings: ImportSettings
    let writer: FenceWriter

    static let decimals = 7

    private struct PendingWay {
        var id: Int64
        var properties: [(key: String, value: ImportedFence.Value)]
        var radius: Double
        var asPolygon: Bool
        /// A line with `highway`: a road that matching joins to others at `shared_nodes`.
        var isRoad: Bool
        var refs: Range<Int>
    }

    /// A node with a vehicle's restriction, and the road ways through it (indices into
    /// `PieceWay`s).
    private struct RestrictionNode {
        var id: Int64
        var position: Position
        var properties: [(key: String, value: ImportedFence.Value)]
        var ways: [Int] = []
    }

    /// A road way through a restriction node: its properties as a road (its tags, whether kept as
    /// a fence or not) and its node ids.
    private struct PieceWay {
        var id: Int64
        var properties: [(key: String, value: ImportedFence.Value)]
        var radius: Double
        var refs: Range<Int>
    }

    private struct PendingRelation {
        var id: Int64
        var properties: [(key: String, value: ImportedFence.Value)]
        var members: [(way: Int64, inner: Bool)]
    }

    func run() throws {
        let keys = OSMTagKeys(selections: settings.selections)
        var relations: [PendingRelation] = []
        var memberWays: Set<Int64> = []
        if !settings.selections.isEmpty {
            try reader.read(.relations, keys: keys) { element in
                guard let type = element.tag(OSMTagKeys.type), type == "multipolygon" || type == "boundary" else {
                    return
                }
                let tags = OSMFenceTags(element, settings: settings, keys: keys, summary: &writer.summary)
                guard tags.isFence else { return }
                let members = element.members.filter(\.isWay).map { ($0.ref, $0.role == "inner") }
                relations.append(PendingRelation(id: element.id, properties: tags.properties, members: members))
                for member in members { memberWays.insert(member.0) }
            }
        }
        var ways: [PendingWay] = []
        var refs: [Int64] = []
        var memberRefs: [Int64: Range<Int>] = [:]
        var restrictionNodes: [RestrictionNode] = []
        var restrictionNodeIndex: [Int64: Int] = [:]
        var pieceWays: [PieceWay] = []
        try reader.read([.nodes, .ways], keys: keys) { element in
            switch element.kind {
            case .node:
                guard !element.tags.isEmpty else { return }
                let tags = OSMFenceTags(element, settings: settings, keys: keys, summary: &writer.summary)
                guard tags.isFence else { return }
                let position = Position(lon: Double(element.lon7) / 1e7, lat: Double(element.lat7) / 1e7)
                if tags.isRoad {
                    restrictionNodeIndex[element.id] = restrictionNodes.count
                    restrictionNodes.append(
                        RestrictionNode(id: element.id, position: position, properties: tags.properties))
                    return
                }
                try writeCircle(id: element.id, position: position, properties: tags.properties)
            case .way:
                let isMember = memberWays.contains(element.id)
                let tags =
                    element.tags.isEmpty
                    ? nil : OSMFenceTags(element, settings: settings, keys: keys, summary: &writer.summary)
                let restrictions =
                    restrictionNodeIndex.isEmpty ? [] : element.refs.compactMap { restrictionNodeIndex[$0] }
                var throughRestriction = false
                if !restrictions.isEmpty, case .road(let className) = OSMWayKind(element),
                    let highway = element.tag(OSMTagKeys.highway)
                {
                    throughRestriction = true
                    var properties = tags?.properties ?? [("name", .text(className))]
                    if !properties.contains(where: { $0.key == "highway" }) {
                        properties += OSMRoadTags.properties(element, highway: highway)
                    }
                    for node in restrictions where !restrictionNodes[node].ways.contains(pieceWays.count) {
                        restrictionNodes[node].ways.append(pieceWays.count)
                    }
                    pieceWays.append(
                        PieceWay(
                            id: element.id, properties: properties,
                            radius: OSMFenceTags.wayRadius(element, settings: settings),
                            refs: refs.count..<(refs.count + element.refs.count)))
                }
                guard isMember || throughRestriction || tags?.isFence == true else { return }
                let range = refs.count..<(refs.count + element.refs.count)
                refs.append(contentsOf: element.refs)
                if isMember { memberRefs[element.id] = range }
                guard let tags, tags.isFence else { return }
                let closed = element.refs.count >= 4 && element.refs.first == element.refs.last
                let asPolygon = closed && !tags.isRoad
                ways.append(
                    PendingWay(
                        id: element.id, properties: tags.properties,
                        radius: OSMFenceTags.wayRadius(element, settings: settings), asPolygon: asPolygon,
                        isRoad: !asPolygon && tags.properties.contains { $0.key == "highway" }, refs: range))
            case .relation:
                break
            }
        }
        for node in restrictionNodes where node.ways.isEmpty {
            try writeCircle(id: node.id, position: node.position, properties: node.properties)
        }
        var needed = refs
        var locations = NodeLocations(needing: &needed)
        if !locations.isEmpty {
            try reader.readLocations { id, lat7, lon7 in locations.note(id: id, lat7: lat7, lon7: lon7) }
        }
        let pieces = restrictionNodes.flatMap { node in
            node.ways.compactMap { piece(of: pieceWays[$0], at: node, ways: node.ways.count, refs: refs, locations) }
        }
        let shared = OSMSharedNodes.shared(
            ways: ways.filter(\.isRoad).map(\.refs) + pieces.map(\.nodes), refs: refs)
        for way in ways {
            let positions = refs[way.refs].compactMap(locations.position)
            guard positions.count == way.refs.count else {
                writer.summary.skip("way with nodes missing from the file (cut at the extract's edge)")
                continue
            }
            var properties = way.properties
            let geometry: ImportedFence.Geometry
            if way.asPolygon {
                geometry = .polygon([positions])
            } else {
                guard Set(positions.map { [$0.lon, $0.lat] }).count >= 2 else {
                    writer.summary.skip("way with fewer than two distinct nodes")
                    continue
                }
                geometry = .line(positions)
                properties.append(("radius", .number(way.radius, decimals: 2)))
                if way.isRoad {
                    properties.append(
                        ("shared_nodes", .vertexNodes(OSMSharedNodes.pairs(refs[way.refs], shared: shared))))
                }
            }
            try writer.add(
                ImportedFence(id: "osm:way/\(way.id)", geometry: geometry, properties: properties),
                decimals: Self.decimals)
        }
        for piece in pieces {
            var fence = piece.fence
            let pairs = OSMSharedNodes.pairs(refs[piece.nodes], shared: shared)
            fence.properties.append(
                ("shared_nodes", .vertexNodes(pairs.map { (piece.firstNodeVertex + $0.vertex, $0.node) })))
            try writer.add(fence, decimals: Self.decimals)
        }
        for node in restrictionNodes where !node.ways.isEmpty && !pieces.contains(where: { $0.node == node.id }) {
            try writeCircle(id: node.id, position: node.position, properties: node.properties)
        }
        for relation in relations {
            var outer: [[Int64]] = []
            var inner: [[Int64]] = []
            var complete = true
            for member in relation.members {
                guard let range = memberRefs[member.way] else {
                    complete = false
                    break
                }
                if member.inner { inner.append(Array(refs[range])) } else { outer.append(Array(refs[range])) }
            }
            guard complete, let outerRings = RingAssembly.rings(outer), let innerRings = RingAssembly.rings(inner)
            else {
                writer.summary.skip(
                    complete
                        ? "multipolygon whose ways do not close into rings"
                        : "multipolygon with ways missing from the file (cut at the extract's edge)")
                continue
            }
            func located(_ ring: [Int64]) -> [Position]? {
                let positions = ring.compactMap(locations.position)
                return positions.count == ring.count ? positions : nil
            }
            let outers = outerRings.compactMap(located)
            let inners = innerRings.compactMap(located)
            guard !outers.isEmpty, outers.count == outerRings.count, inners.count == innerRings.count else {
                writer.summary.skip("multipolygon with nodes missing from the file (cut at the extract's edge)")
                continue
            }
            var polygons = outers.map { [$0] }
            for hole in inners {
                let inside = polygons.firstIndex { RingAssembly.contains($0[0], hole[0]) } ?? 0
                polygons[inside].append(hole)
            }
            try writer.add(
                ImportedFence(
                    id: "osm:relation/\(relation.id)",
                    geometry: polygons.count == 1 ? .polygon(polygons[0]) : .multiPolygon(polygons),
                    properties: relation.properties),
                decimals: Self.decimals)
        }
    }

    private func writeCircle(
        id: Int64, position: Position, properties: [(key: String, value: ImportedFence.Value)]
    ) throws {
        var properties = properties
        properties.append(("radius", .number(settings.radius ?? ImportSettings.defaultPointRadius, decimals: 2)))
        try writer.add(
            ImportedFence(id: "osm:node/\(id)", geometry: .point(position), properties: properties),
            decimals: Self.decimals)
    }

    /// A restriction node's piece of a road way through it (`OSMNodePieces`), nil when the way's
    /// nodes are not all in the file: the fence without its `shared_nodes`, the way's node ids it
    /// passes (a range of `refs`) and the vertex of the first of them. Its id is the node's, with
    /// the way's when the node is on several roads.
    private func piece(
        of way: PieceWay, at node: RestrictionNode, ways: Int, refs: [Int64], _ locations: NodeLocations
    ) -> (fence: ImportedFence, node: Int64, nodes: Range<Int>, firstNodeVertex: Int)? {
        let positions = refs[way.refs].compactMap(locations.position)
        guard positions.count == way.refs.count, let index = refs[way.refs].firstIndex(of: node.id) else { return nil }
        let piece = OSMNodePieces.piece(positions, around: index - way.refs.lowerBound)
        guard Set(piece.points.map { [$0.lon, $0.lat] }).count >= 2 else { return nil }
        var properties = node.properties
        for property in way.properties where !properties.contains(where: { $0.key == property.key }) {
            // The road's name before the restriction's, as on every road.
            if property.key == "name" { properties.insert(property, at: 0) } else { properties.append(property) }
        }
        properties.append(("at_node", .number(Double(node.id), decimals: 0)))
        properties.append(("radius", .number(way.radius, decimals: 2)))
        let id = ways == 1 ? "osm:node/\(node.id)" : "osm:node/\(node.id)/way/\(way.id)"
        let first = way.refs.lowerBound + piece.nodes.lowerBound
        return (
            ImportedFence(id: id, geometry: .line(piece.points), properties: properties), node.id,
            first..<(way.refs.lowerBound + piece.nodes.upperBound + 1), piece.cutBefore ? 1 : 0
        )
    }
}
