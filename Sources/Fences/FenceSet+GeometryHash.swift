extension FenceSet {
    /// A 64-bit FNV-1a hash of the fence's shape (kind and coordinates as bits), for "same id and
    /// geometry keep their state" (docs/events.md reload, docs/running.md restart).
    public func geometryHash(_ index: Int) -> UInt64 {
        var hash = FNV1a()
        func mix(_ value: UInt64) { hash.add(value) }
        mix(UInt64(kinds[index].rawValue))
        let s = Int(shapeIndex[index])
        switch kinds[index] {
        case .circle:
            mix(circleLat[s].bitPattern)
            mix(circleLon[s].bitPattern)
            mix(circleRadius[s].bitPattern)
        case .polygon:
            forEachEdge(polygon: s, latFrom: -.infinity, latTo: .infinity) { x1, y1, x2, y2 in
                mix(x1.bitPattern)
                mix(y1.bitPattern)
                mix(x2.bitPattern)
                mix(y2.bitPattern)
            }
        case .corridor:
            mix(corridors.radius[s].bitPattern)
            for line in corridors.lines(s) {
                mix(UInt64(line.count))
                for p in line {
                    mix(p.lon.bitPattern)
                    mix(p.lat.bitPattern)
                }
            }
        }
        return hash.value
    }
}
