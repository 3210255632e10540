/// Collects validated fences in file order and builds a `FenceSet`. Both loaders feed it, and so can
/// code (tests, the engine). Every check of docs/fences.md that is not about JSON syntax lives here, so
/// GeoJSON and CSV refuse the same things with the same words.
public struct FenceSetBuilder {
    public let file: String
    var ids = FenceIDColumn()
    var names = FenceTexts()
    var kinds: [FenceKind] = []
    var shapeIndex: [Int32] = []
    var settingsIndex: [Int32] = []
    var settingsTable: [FenceSettings] = []
    var properties = FenceTexts()
    /// The rows in `settingsTable` of the last few distinct settings added, each with its plain
    /// members, a ring written at `nextRecentSettings`: a file's fences mostly share a handful (a
    /// country's roads, five speed limits), kept once each. Rows, not settings: a settings value
    /// carries its rules, and copying one for each comparison and shifting the list showed in the
    /// profile of a country's load.
    var recentSettings: [(row: Int32, plain: FenceSettings.PlainMembers)] = []
    var nextRecentSettings = 0
    var circles = CircleStore()
    var polygons = PolygonStore()
    var corridors = CorridorStore()

    public init(file: String = "<fences>", expectedCount: Int = 0) {
        self.file = file
        if expectedCount > 0 {
            // the arrays' untouched room costs address space only, but a hash table is written all
            // over: see `reserveIDs`
            ids.reserveLookup(min(expectedCount, 1 << 12))
            ids.reserve(expectedCount)
            names.reserve(fences: expectedCount)
            kinds.reserveCapacity(expectedCount)
            shapeIndex.reserveCapacity(expectedCount)
            settingsIndex.reserveCapacity(expectedCount)
            properties.reserve(fences: expectedCount)
        }
    }

    public var count: Int { ids.count }

    /// Room in the id table for `total` fences, once their number can be estimated.
    mutating func reserveIDs(_ total: Int) { ids.reserveLookup(total) }

    func error(_ problem: ShapeProblem, id: FenceID?) -> FenceLoadError {
        FenceLoadError(file: file, featureIndex: ids.count, featureID: id?.json, problem: .shape(problem))
    }

    /// Adds a fence from in-memory geometry. `id` nil: derived from the shape and name.
    public mutating func add(
        id: FenceID?, name: String? = nil, settings: FenceSettings = FenceSettings(),
        propertiesJSON: String = "null", shape: FenceShape
    ) throws(FenceLoadError) {
        switch shape {
        case .circle(let c):
            try addCircle(id: id, name: name, settings: settings, properties: Array(propertiesJSON.utf8), c)
        case .polygon(let parts):
            polygons.discardStaged()
            var ringEnds: [Int] = []
            var partEnds: [Int] = []
            for part in parts {
                for ring in part {
                    for p in ring {
                        polygons.stage(p.lon)
                        polygons.stage(p.lat)
                    }
                    ringEnds.append(polygons.stagedCount / 2)
                }
                partEnds.append(ringEnds.count)
            }
            try addStagedPolygon(
                id: id, name: name, settings: settings, properties: Array(propertiesJSON.utf8),
                ringEnds: ringEnds[...], partEnds: partEnds[...])
        case .corridor(let corridor):
            try addCorridor(
                id: id, name: name, settings: settings, properties: Array(propertiesJSON.utf8), corridor)
        }
    }

    /// The id of a feature that has none (neither `id` nor `properties.id`): `auto-` and 16 hex
    /// digits of an FNV-1a hash of its shape (kind and coordinates as bits) and name, so that it
    /// stays the same when other features are added, removed or moved in the file (docs/fences.md).
    /// Identical features (same shape and name) get `-2`, `-3`... in file order. The shape's hash is
    /// worked out only for a feature without an id: a country's roads all have one, and their 15
    /// million positions were hashed a byte at a time for nothing.
    func derivedID(shape: FNV1a, name: String?) -> FenceID {
        var hash = shape
        hash.add(name ?? "")
        let base = "auto-" + hash.hex
        var candidate = FenceID.string(base)
        var copy = 1
        while ids.firstIndex(sameAs: candidate) != nil {
            copy += 1
            candidate = .string(base + "-\(copy)")
        }
        return candidate
    }

    mutating func register<P: Collection<UInt8>>(
        id: FenceID?, name: String?, settings: FenceSettings,
        properties: P, kind: FenceKind, shape: Int32
    ) throws(FenceLoadError) {
        let fenceID = id ?? .number(String(ids.count))  // only in-memory sets built by hand
        if let first = ids.appendIfNew(fenceID) {
            throw FenceLoadError(
                file: file, featureIndex: ids.count, featureID: fenceID.json,
                problem: .duplicateID(fenceID.json, firstFeature: first))
        }
        names.append(name)
        kinds.append(kind)
        shapeIndex.append(shape)
        if settings.isDefault {
            settingsIndex.append(-1)
        } else if let row = recentSettingsRow(settings, settings.plainMembers) {
            settingsIndex.append(row)
        } else {
            let row = Int32(settingsTable.count)
            settingsIndex.append(row)
            settingsTable.append(settings)
            let recent = (row, settings.plainMembers)
            if recentSettings.count < Self.recentSettingsKept {
                recentSettings.append(recent)
            } else {
                recentSettings[nextRecentSettings] = recent
            }
            nextRecentSettings = (nextRecentSettings + 1) % Self.recentSettingsKept
        }
        self.properties.appendJSON(properties)
    }

    static let recentSettingsKept = 16

    /// The row of `settings` (whose plain members are `plain`) among the recent ones, from the
    /// newest (a road's ways follow each other).
    func recentSettingsRow(_ settings: FenceSettings, _ plain: FenceSettings.PlainMembers) -> Int32? {
        let count = recentSettings.count
        for back in stride(from: 1, through: count, by: 1) {
            let recent = recentSettings[(nextRecentSettings - back + count) % count]
            if recent.plain == plain && settingsTable[Int(recent.row)] == settings { return recent.row }
        }
        return nil
    }

    mutating func addCircle<P: Collection<UInt8>>(
        id: FenceID?, name: String?, settings: FenceSettings, properties: P,
        _ c: CircleShape
    ) throws(FenceLoadError) {
        try checkPosition(lon: c.lon, lat: c.lat, id: id, part: .circleCentre, position: nil)
        guard c.radius.isFinite, c.radius > 0 else {
            throw error(.radiusNotPositive(c.radius), id: id)
        }
        // A circle of half the Earth's circumference covers the whole Earth; beyond that a radius
        // is a typo, and 1e19 would overflow the integer metres of `check`'s output.
        guard c.radius <= Limits.maxMetres else {
            throw error(.radiusTooLarge(c.radius), id: id)
        }
        func shape() -> FNV1a {
            var hash = FNV1a()
            hash.add(UInt64(FenceKind.circle.rawValue))
            for value in [c.lat, c.lon, c.radius] { hash.add(value.bitPattern) }
            return hash
        }
        try register(
            id: id ?? derivedID(shape: shape(), name: name), name: name, settings: settings, properties: properties,
            kind: .circle, shape: Int32(circles.count))
        circles.add(fence: Int32(ids.count - 1), c)
    }

    /// Adds a polygon fence from the (lon, lat) pairs staged in `polygons` (`PolygonStore.stage`);
    /// `ringEnds` are the end positions of each ring, `partEnds` the end ring of each part
    /// (Polygon: one part; MultiPolygon: several).
    mutating func addStagedPolygon<P: Collection<UInt8>>(
        id: FenceID?, name: String?, settings: FenceSettings, properties: P,
        ringEnds: ArraySlice<Int>, partEnds: ArraySlice<Int>
    ) throws(FenceLoadError) {
        let c = polygons.staged
        if partEnds.isEmpty { throw error(.noRings, id: id) }
        var ring = ringEnds.startIndex
        var start = 0
        var firstRing = 0
        for (part, partEnd) in partEnds.enumerated() {
            if partEnd == firstRing { throw error(.partWithoutRings(part), id: id) }
            for r in firstRing..<partEnd {
                let end = ringEnds[ring]
                let what = ShapePart.ring(part: partEnds.count > 1 ? part : nil, ring: r - firstRing)
                let n = end - start
                if n < 4 {
                    throw error(.ringTooShort(what, positions: n), id: id)
                }
                try checkPositions(c, start..<end, id: id, part: what)
                if c[2 * start] != c[2 * end - 2] || c[2 * start + 1] != c[2 * end - 1] {
                    throw error(
                        .ringNotClosed(
                            what, first: GeoPoint(lat: c[2 * start + 1], lon: c[2 * start]),
                            last: GeoPoint(lat: c[2 * end - 1], lon: c[2 * end - 2])),
                        id: id)
                }
                start = end
                ring += 1
            }
            firstRing = partEnd
        }
        let edges = c.count / 2 - ringEnds.count
        guard polygons.entries + PolygonStore.entriesBound(edges: edges) <= PolygonStore.maxEntries else {
            throw error(.tooManyEdges(edges), id: id)
        }
        func shape() -> FNV1a {
            var hash = FNV1a()
            hash.add(UInt64(FenceKind.polygon.rawValue))
            for value in c { hash.add(value.bitPattern) }
            for end in ringEnds { hash.add(UInt64(end)) }
            for end in partEnds { hash.add(UInt64(end)) }
            return hash
        }
        try register(
            id: id ?? derivedID(shape: shape(), name: name), name: name, settings: settings, properties: properties,
            kind: .polygon, shape: Int32(polygons.count))
        polygons.addStaged(fence: Int32(ids.count - 1), ringEnds: ringEnds)
    }

    /// Adds a corridor fence (docs/fences.md): lines of at least two positions each, a positive
    /// radius, and no segment so long that its great circle is ambiguous.
    mutating func addCorridor<P: Collection<UInt8>>(
        id: FenceID?, name: String?, settings: FenceSettings, properties: P,
        _ corridor: CorridorShape
    ) throws(FenceLoadError) {
        polygons.discardStaged()
        var lineEnds: [Int] = []
        for line in corridor.lines {
            for p in line {
                polygons.stage(p.lon)
                polygons.stage(p.lat)
            }
            lineEnds.append(polygons.stagedCount / 2)
        }
        defer { polygons.discardStaged() }
        try addStagedCorridor(
            id: id, name: name, settings: settings, properties: properties, lineEnds: lineEnds[...],
            radius: corridor.radius)
    }

    /// Adds a corridor fence from the (lon, lat) pairs staged in `polygons` (`PolygonStore.stage`),
    /// read where the loader put them; `lineEnds` are the end positions of its lines.
    mutating func addStagedCorridor<P: Collection<UInt8>>(
        id: FenceID?, name: String?, settings: FenceSettings, properties: P,
        lineEnds: ArraySlice<Int>, radius r: Double
    ) throws(FenceLoadError) {
        let c = polygons.staged
        if lineEnds.isEmpty { throw error(.noLines, id: id) }
        var start = 0
        for (l, end) in lineEnds.enumerated() {
            let what = ShapePart.line(lineEnds.count > 1 ? l : nil)
            let n = end - start
            if n < 2 {
                throw error(.lineTooShort(what, positions: n), id: id)
            }
            try checkPositions(c, start..<end, id: id, part: what)
            for k in start + 1..<end {
                // a degree or two apart is under 250 km anywhere: no trigonometry for a road's steps
                let dLat = abs(c[2 * k + 1] - c[2 * k - 1])
                let dLon = abs(c[2 * k] - c[2 * k - 2])
                if dLat + min(dLon, 360 - dLon) <= 2 { continue }
                let length = Geodesy.haversine(
                    lat1: c[2 * k - 1], lon1: c[2 * k - 2], lat2: c[2 * k + 1], lon2: c[2 * k])
                if length > Self.longestSegment {
                    throw error(.segmentTooLong(what, segment: k - 1 - start, metres: length), id: id)
                }
            }
            start = end
        }
        guard r.isFinite, r > 0 else {
            throw error(.corridorRadiusNotPositive(r), id: id)
        }
        guard r <= Limits.maxMetres else {
            throw error(.corridorRadiusTooLarge(r), id: id)
        }
        func shape() -> FNV1a {
            var hash = FNV1a()
            hash.add(UInt64(FenceKind.corridor.rawValue))
            hash.add(r.bitPattern)
            var lineStart = 0
            for end in lineEnds {
                hash.add(UInt64(end - lineStart))
                for k in lineStart..<end {
                    hash.add(c[2 * k].bitPattern)
                    hash.add(c[2 * k + 1].bitPattern)
                }
                lineStart = end
            }
            return hash
        }
        try register(
            id: id ?? derivedID(shape: shape(), name: name), name: name, settings: settings, properties: properties,
            kind: .corridor, shape: Int32(corridors.count))
        corridors.add(fence: Int32(ids.count - 1), coordinates: c, lineEnds: lineEnds, radius: r)
    }

    /// A quarter of the Earth's circumference: far from the half where two vertices become
    /// antipodal, and longer than any route segment a real file has.
    static let longestSegment = 10_000_000.0

    /// Positions `range` of the staged (lon, lat) pairs `c`, of the ring or line `part`.
    func checkPositions(_ c: UnsafeBufferPointer<Double>, _ range: Range<Int>, id: FenceID?, part: ShapePart)
        throws(FenceLoadError)
    {
        for k in range {
            let lon = c[2 * k]
            let lat = c[2 * k + 1]
            if lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90 { continue }
            try checkPosition(lon: lon, lat: lat, id: id, part: part, position: k - range.lowerBound)
        }
    }

    func checkPosition(lon: Double, lat: Double, id: FenceID?, part: ShapePart, position: Int?)
        throws(FenceLoadError)
    {
        guard lon.isFinite, lon >= -180, lon <= 180 else {
            throw error(.longitude(part, position: position, lon), id: id)
        }
        guard lat.isFinite, lat >= -90, lat <= 90 else {
            throw error(.latitude(part, position: position, lat), id: id)
        }
    }

    /// Builds the index and freezes the arrays. `cellScale` tunes the grid (see `GridBuilder`).
    public consuming func build(cellScale: Double = 2) -> FenceSet {
        // Corridors kept in map order rather than file order (a country's roads by way id are
        // scattered over the map): building their grid and querying it then read the vertices
        // and write the cells near where they last did, not a cache miss each.
        corridors.reorder(CorridorStore.spatialOrder(corridors))
        for c in 0..<corridors.count { shapeIndex[Int(corridors.fence[c])] = Int32(c) }
        return FenceSet(builder: &self, cellScale: cellScale)
    }
}

/// A number as a short human string (integers without ".0").
func formatNumber(_ v: Double) -> String {
    if v.isFinite && v == v.rounded() && abs(v) < 1e15 { return String(Int64(v)) }
    return String(v)
}
