/// The per-fence arrays of a set, in file order, without the geometry.
struct FenceMetadata {
    var ids: FenceIDColumn
    var names: FenceTexts
    var kinds: [FenceKind]
    var shapeIndex: [Int32]
    var settingsIndex: [Int32]
    var settingsTable: [FenceSettings]
    var properties: FenceTexts
}

extension FenceSet {
    /// This set with the circles of `extra` after its own fences (the fence layers of
    /// docs/running.md: the anchor, OwnTracks regions). The polygons and corridors are shared, not copied, and
    /// the fences of this set keep their indices; only the grid is built again, so the cost is
    /// that of indexing the set, never of parsing it. `extra` holds circles only (its polygons are
    /// ignored), validated by the builder as any file's; an id of `extra` that this set also has
    /// is the caller's to avoid (`FenceLayers` drops it).
    public func appending(circles extra: FenceSetBuilder, cellScale: Double = 2) -> FenceSet {
        var circles = CircleStore()
        var circleFence = [Int32](repeating: 0, count: circleLat.count)
        for fence in 0..<count where kinds[fence] == .circle { circleFence[Int(shapeIndex[fence])] = Int32(fence) }
        for shape in 0..<circleLat.count {
            circles.add(
                fence: circleFence[shape],
                CircleShape(lat: circleLat[shape], lon: circleLon[shape], radius: circleRadius[shape]))
        }
        var metadata = FenceMetadata(
            ids: ids, names: names, kinds: kinds, shapeIndex: shapeIndex, settingsIndex: settingsIndex,
            settingsTable: settingsTable, properties: properties)
        for fence in 0..<extra.count {
            guard extra.kinds[fence] == .circle else { continue }
            let shape = Int(extra.shapeIndex[fence])
            metadata.ids.appendUnique(extra.ids[fence])
            metadata.names.append(extra.names.string(of: fence))
            metadata.kinds.append(.circle)
            metadata.shapeIndex.append(Int32(circles.count))
            let settings = extra.settingsIndex[fence]
            if settings < 0 {
                metadata.settingsIndex.append(-1)
            } else {
                metadata.settingsIndex.append(Int32(metadata.settingsTable.count))
                metadata.settingsTable.append(extra.settingsTable[Int(settings)])
            }
            metadata.properties.append(extra.properties.bytes(of: fence))
            circles.add(
                fence: Int32(metadata.ids.count - 1),
                CircleShape(
                    lat: extra.circles.lat[shape], lon: extra.circles.lon[shape], radius: extra.circles.radius[shape]))
        }
        return FenceSet(
            metadata: metadata, circles: circles, polygons: polygons, corridors: corridors, cellScale: cellScale)
    }
}
