/// The outline of a fence as closed rings of (lat, lon), for drawing (the field report, GeoJSON
/// export). Polygons are kept as banded edges for containment, so the rings are chained back
/// together from those edges; circles become a 72-gon on the sphere, corridors a ring round each
/// line (`corridorOutline`).
extension FenceSet {
    /// The middle of the fence, cheaply (no rings chained): a circle's centre, a polygon's
    /// bounding-box centre. For deciding what to draw.
    public func anchorPoint(_ index: Int) -> (lat: Double, lon: Double) {
        let p = Int(shapeIndex[index])
        switch kinds[index] {
        case .circle:
            return (circleLat[p], circleLon[p])
        case .polygon:
            return ((polygons.minY[p] + polygons.maxY[p]) / 2, (polygons.minX[p] + polygons.maxX[p]) / 2)
        case .corridor:
            // the middle vertex of the first line: on the route, even for one that bends or
            // crosses the antimeridian
            let end = corridors.lineEnds[corridors.firstLine[p]]
            let start = corridors.firstLine[p] == 0 ? 0 : corridors.lineEnds[corridors.firstLine[p] - 1]
            let middle = (start + end - 1) / 2
            return (corridors.lat[middle], corridors.lon[middle])
        }
    }

    public func outline(_ index: Int) -> [[(lat: Double, lon: Double)]] {
        switch kinds[index] {
        case .circle:
            let s = Int(shapeIndex[index])
            var ring: [(lat: Double, lon: Double)] = []
            for step in 0...72 {
                let point = Geodesy.destination(
                    lat: circleLat[s], lon: circleLon[s], bearing: Double(step % 72) * 5, distance: circleRadius[s])
                ring.append((point.lat, point.lon))
            }
            return [ring]
        case .corridor:
            return corridorOutline(Int(shapeIndex[index]))
        case .polygon:
            return polygonOutline(index)
        }
    }

    func polygonOutline(_ index: Int) -> [[(lat: Double, lon: Double)]] {
        // An edge spanning several bands is listed once per band: keep each edge once.
        struct Key: Hashable { let x: UInt64, y: UInt64 }
        var next: [Key: (x: Double, y: Double)] = [:]
        var order: [Key] = []
        forEachEdge(polygon: Int(shapeIndex[index]), latFrom: -.infinity, latTo: .infinity) { x1, y1, x2, y2 in
            let key = Key(x: x1.bitPattern, y: y1.bitPattern)
            if next[key] == nil { order.append(key) }
            next[key] = (x2, y2)
        }
        var rings: [[(lat: Double, lon: Double)]] = []
        var used = Set<Key>()
        for start in order where !used.contains(start) {
            var ring: [(lat: Double, lon: Double)] = []
            var key = start
            while !used.contains(key), let to = next[key] {
                used.insert(key)
                ring.append((Double(bitPattern: key.y), Double(bitPattern: key.x)))
                key = Key(x: to.x.bitPattern, y: to.y.bitPattern)
            }
            if let first = ring.first { ring.append(first) }
            if ring.count > 2 { rings.append(ring) }
        }
        return rings
    }
}
