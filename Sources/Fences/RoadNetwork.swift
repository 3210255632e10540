import Platform

/// Where a point lies on a road corridor: metres from its line, and the segment nearest to it.
public struct RoadPosition: Sendable, Equatable {
    /// Metres from the point to the corridor's line (not its edge).
    public var distance: Double
    /// `distance` signed: positive to the left of the nearest segment's direction, negative to
    /// its right (which side a receiver's error lies, for matching by the history of the fixes).
    public var offset: Double
    /// Degrees (0 = north, clockwise) of the nearest segment, in the order of its vertices.
    public var bearing: Double
    /// The nearest segment's first vertex in the corridor store.
    var vertex: Int
    /// Whether the point lies beyond an end of the line (not a closed one): past the last vertex
    /// of a road that stops, or joins others, there.
    public var beyondEnd: Bool
}

/// The corridors that make up the roads, as a network (docs/fences.md, "The road being driven"):
/// two roads that both carry `shared_nodes` (imported from OSM) join at a node both list, and only
/// there; other corridors (drawn by hand) join where a vertex of one is a vertex of the other.
/// Nothing is stored for it beyond the roads' properties: the joins are found in the corridors'
/// grid when a query asks.
extension FenceSet {
    /// Corridors whose edge is within `margin` metres of the point (inside them included),
    /// ascending, into `hits`.
    public func corridors(nearLat lat: Double, lon: Double, margin: Double, into hits: FenceHits) {
        hits.removeAll()
        let dLat = margin / Geodesy.metresPerDegree
        let dLon = margin / (Geodesy.metresPerDegree * max(cos(lat * Geodesy.degree), 1e-6))
        for (p, q) in unwrappedPieces(GeoPoint(lat: lat, lon: lon - dLon), GeoPoint(lat: lat, lon: lon + dLon)) {
            candidates(
                in: BoundingBox(
                    minX: min(p.lon, q.lon), minY: max(lat - dLat, -90), maxX: max(p.lon, q.lon),
                    maxY: min(lat + dLat, 90)), into: hits)
        }
        hits.sortUnique()
        filter(hits) { fence in
            kinds[fence] == .corridor
                && corridorSignedDistance(Int(shapeIndex[fence]), lat: lat, lon: lon) <= margin
        }
    }

    /// Where the point lies on corridor fence `index` (which must be a corridor).
    public func roadPosition(_ index: Int, lat: Double, lon: Double) -> RoadPosition {
        let s = Int(shapeIndex[index])
        let p = CorridorSegment.unit(lon: lon, lat: lat)
        var best = (angle: Double.infinity, vertex: corridors.firstVertex[s], line: 0..<0)
        for l in corridors.firstLine[s]..<corridors.firstLine[s + 1] {
            let line = corridors.vertices(ofLine: l)
            for v in line.dropLast()
            where corridors.lon[v] != corridors.lon[v + 1] || corridors.lat[v] != corridors.lat[v + 1] {
                let angle = corridors.segment(v, radius: corridors.radius[s]).angle(to: p)
                if angle < best.angle { best = (angle, v, line) }
            }
        }
        let v = best.vertex
        let bearing = Geodesy.bearing(
            lat1: corridors.lat[v], lon1: corridors.lon[v], lat2: corridors.lat[v + 1], lon2: corridors.lon[v + 1])
        let segment = corridors.segment(v, radius: corridors.radius[s])
        let distance = best.angle * Geodesy.earthRadius
        var beyondEnd = false
        if let first = best.line.first, let last = best.line.last,
            corridors.lon[first] != corridors.lon[last] || corridors.lat[first] != corridors.lat[last]
        {
            beyondEnd =
                (v == first && (p * segment.afterA).sum() < 0) || (v + 1 == last && (p * segment.beforeB).sum() < 0)
        }
        return RoadPosition(
            distance: distance, offset: (p * segment.normal).sum() < 0 ? -distance : distance, bearing: bearing,
            vertex: v, beyondEnd: beyondEnd)
    }

    /// Metres from the point to the nearest end of a line of corridor fence `index` (which must be
    /// a corridor) that `counts` accepts, given the other corridors that have a vertex there (in
    /// `scratch`); infinity when none does or its lines are all closed.
    public func distanceToLineEnd(
        _ index: Int, lat: Double, lon: Double, scratch: FenceHits, counts: (FenceHits) -> Bool
    ) -> Double {
        let s = Int(shapeIndex[index])
        let p = CorridorSegment.unit(lon: lon, lat: lat)
        var nearest = Double.infinity
        func consider(_ v: Int) {
            let end = CorridorSegment.unit(lon: corridors.lon[v], lat: corridors.lat[v])
            let metres = CorridorSegment.angle(p, end) * Geodesy.earthRadius
            guard metres < nearest else { return }
            joined(at: v, excluding: index, into: scratch)
            if counts(scratch) { nearest = metres }
        }
        for l in corridors.firstLine[s]..<corridors.firstLine[s + 1] {
            let line = corridors.vertices(ofLine: l)
            guard let first = line.first, let last = line.last,
                corridors.lon[first] != corridors.lon[last] || corridors.lat[first] != corridors.lat[last]
            else { continue }
            consider(first)
            consider(last)
        }
        return nearest
    }

    /// The corridor fences but `index` that have a vertex at the position of store vertex `v`, into
    /// `hits`.
    func joined(at v: Int, excluding index: Int, into hits: FenceHits) {
        let lon = corridors.lon[v]
        let lat = corridors.lat[v]
        hits.removeAll()
        candidates(in: BoundingBox(minX: lon, minY: lat, maxX: lon, maxY: lat), into: hits)
        hits.sortUnique()
        filter(hits) { fence in
            fence != index && kinds[fence] == .corridor && vertex(of: Int(shapeIndex[fence]), at: v) != nil
        }
    }

    /// Whether corridor fences `a` and `b` join: at a node both list in `shared_nodes` when both
    /// carry it, else where a vertex of one is a vertex of the other.
    public func corridorsJoin(_ a: Int, _ b: Int) -> Bool {
        guard kinds[a] == .corridor, kinds[b] == .corridor else { return false }
        if let nodesA = road(a)?.sharedNodes, let nodesB = road(b)?.sharedNodes { return nodesA.meets(nodesB) }
        let sa = Int(shapeIndex[a])
        let sb = Int(shapeIndex[b])
        for v in corridors.firstVertex[sa]..<corridors.firstVertex[sa + 1] where vertex(of: sb, at: v) != nil {
            return true
        }
        return false
    }

    /// Metres from the point to the nearest place where corridor fences `a` and `b` (roads with
    /// `shared_nodes` `nodesA` and `nodesB`) join, as `corridorsJoin` finds joins; infinity when
    /// they do not.
    public func distanceToJoin(
        _ a: Int, nodes nodesA: SharedNodes?, _ b: Int, nodes nodesB: SharedNodes?, lat: Double, lon: Double
    ) -> Double {
        guard kinds[a] == .corridor, kinds[b] == .corridor else { return .infinity }
        let sa = Int(shapeIndex[a])
        let sb = Int(shapeIndex[b])
        let p = CorridorSegment.unit(lon: lon, lat: lat)
        var nearest = Double.infinity
        func consider(_ v: Int) {
            let at = CorridorSegment.unit(lon: corridors.lon[v], lat: corridors.lat[v])
            nearest = min(nearest, CorridorSegment.angle(p, at) * Geodesy.earthRadius)
        }
        if let nodesA, let nodesB {
            for (k, node) in nodesA.nodes.enumerated() where nodesB.nodes.contains(node) {
                let v = corridors.firstVertex[sa] + Int(nodesA.vertices[k])
                if v < corridors.firstVertex[sa + 1] { consider(v) }
            }
        } else {
            for v in corridors.firstVertex[sa]..<corridors.firstVertex[sa + 1] where vertex(of: sb, at: v) != nil {
                consider(v)
            }
        }
        return nearest
    }

    /// The vertex of corridor `s` (store index; its road's `shared_nodes`: `nodes`) where it joins
    /// store vertex `v` of corridor `r` (`rNodes`), if it does: at the same node when both list
    /// theirs, else at the same position.
    func joinedVertex(of s: Int, nodes: SharedNodes?, at v: Int, of r: Int, nodes rNodes: SharedNodes?) -> Int? {
        guard let nodes, let rNodes else { return vertex(of: s, at: v) }
        guard let node = rNodes.node(atVertex: v - corridors.firstVertex[r]), let index = nodes.vertex(ofNode: node)
        else { return nil }
        let w = corridors.firstVertex[s] + index
        return w < corridors.firstVertex[s + 1] ? w : nil
    }

    /// The vertex of corridor `s` (store index) at the position of store vertex `v`, if any.
    func vertex(of s: Int, at v: Int) -> Int? {
        let lon = corridors.lon[v]
        let lat = corridors.lat[v]
        for w in corridors.firstVertex[s]..<corridors.firstVertex[s + 1]
        where corridors.lon[w] == lon && corridors.lat[w] == lat {
            return w
        }
        return nil
    }

    /// The vertices of the line of corridor `s` that holds store vertex `v`.
    func lineVertices(of s: Int, holding v: Int) -> Range<Int> {
        for l in corridors.firstLine[s]..<corridors.firstLine[s + 1] {
            let range = corridors.vertices(ofLine: l)
            if range.contains(v) { return range }
        }
        return v..<(v + 1)
    }
}

extension FenceSet {
    /// Whether the set has corridors at all (without them no fix is near a road).
    public var hasCorridors: Bool { corridors.count > 0 }

    /// Calls `body(lon, lat)` for each vertex of corridor fence `index`, in order.
    public func forEachCorridorVertex(_ index: Int, _ body: (Double, Double) -> Void) {
        guard kinds[index] == .corridor else { return }
        let s = Int(shapeIndex[index])
        for v in corridors.firstVertex[s]..<corridors.firstVertex[s + 1] { body(corridors.lon[v], corridors.lat[v]) }
    }
}
