import JSONOutput

/// An immutable, indexed set of fences: struct-of-arrays geometry (circles, polygon edges in
/// bands), the hierarchical grid over them, and per-fence metadata in file order. Safe to share
/// between threads; queries take a caller-owned `FenceQuery` for their scratch space.
public final class FenceSet: Sendable {
    public let count: Int
    public let ids: FenceIDColumn
    let names: FenceTexts
    public let kinds: [FenceKind]
    /// Index into the circle or polygon store, by kind.
    let shapeIndex: [Int32]
    let settingsIndex: [Int32]
    let settingsTable: [FenceSettings]
    let properties: FenceTexts
    let circleLat: [Double], circleLon: [Double], circleRadius: [Double]
    let polygons: FrozenPolygons
    let corridors: CorridorStore
    let corridorReach: CorridorReach
    let levels: [GridLevel]
    let levelViews: FrozenArray<LevelView>
    /// The corridors' segments have their own grid (`CorridorGridBuilder`).
    let corridorLevels: [CorridorLevel]
    let corridorViews: FrozenArray<CorridorLevelView>

    /// Takes the builder's arrays; the big ones are frozen and dropped from the builder one by one,
    /// so building never holds two copies of the polygon edges.
    convenience init(builder b: inout FenceSetBuilder, cellScale: Double) {
        let polygons = b.polygons.frozen()
        b.polygons = PolygonStore()
        self.init(
            metadata: FenceMetadata(
                ids: b.ids, names: b.names, kinds: b.kinds, shapeIndex: b.shapeIndex, settingsIndex: b.settingsIndex,
                settingsTable: b.settingsTable, properties: b.properties),
            circles: b.circles, polygons: polygons, corridors: b.corridors, cellScale: cellScale)
    }

    /// The arrays of a set, indexed: the grid over `circles`, `polygons` and `corridors` is built here.
    init(
        metadata m: FenceMetadata, circles: CircleStore, polygons: FrozenPolygons, corridors: CorridorStore,
        cellScale: Double
    ) {
        count = m.ids.count
        ids = m.ids
        names = m.names
        kinds = m.kinds
        shapeIndex = m.shapeIndex
        settingsIndex = m.settingsIndex
        settingsTable = m.settingsTable
        properties = m.properties
        circleLat = circles.lat
        circleLon = circles.lon
        circleRadius = circles.radius
        self.polygons = polygons
        self.corridors = corridors
        corridorReach = CorridorReach(corridors)
        let p = polygons
        let n = circles.count
        var ux = [Double](repeating: 0, count: n)
        var uy = ux
        var uz = ux
        var limit = ux
        var items: [IndexItem] = []
        items.reserveCapacity(n + p.count)
        for i in 0..<n {
            let c = CircleShape(lat: circles.lat[i], lon: circles.lon[i], radius: circles.radius[i])
            (ux[i], uy[i], uz[i]) = Geodesy.unitVector(lat: c.lat, lon: c.lon)
            limit[i] = Geodesy.chordSquared(radius: c.radius)
            let (first, second) = circleBoxes(c)
            items.append(IndexItem(box: first, kind: .circle, shape: Int32(i)))
            if let second { items.append(IndexItem(box: second, kind: .circle, shape: Int32(i))) }
        }
        for i in 0..<p.count {
            items.append(
                IndexItem(
                    box: BoundingBox(minX: p.minX[i], minY: p.minY[i], maxX: p.maxX[i], maxY: p.maxY[i]),
                    kind: .polygon, shape: Int32(i)))
        }
        levels = GridBuilder.build(items: items, circles: circles, unit: (ux, uy, uz, limit), cellScale: cellScale)
        levelViews = FrozenArray(levels.map(\.view))
        corridorLevels = CorridorGridBuilder.build(corridors, cellScale: cellScale)
        corridorViews = FrozenArray(corridorLevels.map(\.view))
    }

    /// Metadata of fence `index` (file order).
    public func info(_ index: Int) -> FenceInfo {
        let s = settingsIndex[index]
        return FenceInfo(
            index: index, id: ids[index], name: names.string(of: index), kind: kinds[index],
            settings: s < 0 ? FenceSettings() : settingsTable[Int(s)],
            propertiesJSON: String(decoding: properties.bytes(of: index), as: UTF8.self))
    }

    public func name(_ index: Int) -> String? { names.string(of: index) }

    /// Fence `index`'s properties (JSON, minified when the set was loaded) copied into `out` as a
    /// value the caller has begun (`beginRawValue`).
    public func appendProperties(of index: Int, to out: JSONBuffer) {
        properties.bytes(of: index).withUnsafeBytes { out.append($0) }
    }

    public func settings(_ index: Int) -> FenceSettings {
        let s = settingsIndex[index]
        return s < 0 ? FenceSettings() : settingsTable[Int(s)]
    }

    /// The circle of fence `index`, or nil for a polygon.
    public func circle(_ index: Int) -> CircleShape? {
        guard kinds[index] == .circle else { return nil }
        let s = Int(shapeIndex[index])
        return CircleShape(lat: circleLat[s], lon: circleLon[s], radius: circleRadius[s])
    }

    /// The route and radius of fence `index`, or nil when it is not a corridor.
    public func corridor(_ index: Int) -> CorridorShape? {
        guard kinds[index] == .corridor else { return nil }
        let s = Int(shapeIndex[index])
        return CorridorShape(lines: corridors.lines(s), radius: corridors.radius[s])
    }

    /// Exact containment test against one fence (docs/fences.md).
    public func contains(fence index: Int, lat: Double, lon: Double) -> Bool {
        let s = Int(shapeIndex[index])
        switch kinds[index] {
        case .circle:
            let u = Geodesy.unitVector(lat: lat, lon: lon)
            let c = Geodesy.unitVector(lat: circleLat[s], lon: circleLon[s])
            let dx = c.x - u.x
            let dy = c.y - u.y
            let dz = c.z - u.z
            return dx * dx + dy * dy + dz * dz <= Geodesy.chordSquared(radius: circleRadius[s])
        case .polygon:
            return polygons.contains(s, x: lon, y: lat)
        case .corridor:
            return corridors.contains(s, CorridorSegment.unit(lon: lon, lat: lat))
        }
    }

    /// Approximate bytes held by the geometry and index (not counting ids, names and properties).
    public var indexBytes: Int {
        let corridorBytes = corridors.lon.bytes + corridors.lat.bytes + corridorLevels.reduce(0) { $0 + $1.bytes }
        return polygons.bytes + levels.reduce(0) { $0 + $1.bytes } + circleLat.count * 24 + corridorBytes
    }

}
