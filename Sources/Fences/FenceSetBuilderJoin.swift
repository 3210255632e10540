extension FenceSetBuilder {
    /// Appends the fences of `later`, a builder that read the features after this one's in the
    /// same file (`SecondHalfReader`), as if this builder had read them itself: the same ids, texts,
    /// settings and shapes in the same order. `later` holds circles and corridors only (a
    /// precondition). When one of its ids is one of these fences' ids, nothing is appended and the
    /// answer is false: the caller reads those features again itself, to refuse the file in the
    /// words and at the place a single reading would.
    mutating func append(fencesOf later: FenceSetBuilder) -> Bool {
        precondition(later.polygons.count == 0, "a polygon in a builder to be appended")
        let fenceOffset = Int32(ids.count)
        guard ids.appendIfAllNew(later.ids) else { return false }
        names.append(contentsOf: later.names)
        properties.append(contentsOf: later.properties)
        for (kind, shape) in zip(later.kinds, later.shapeIndex) {
            switch kind {
            case .circle: shapeIndex.append(shape + Int32(circles.count))
            case .corridor: shapeIndex.append(shape + Int32(corridors.count))
            case .polygon: preconditionFailure("a polygon in a builder to be appended")
            }
        }
        kinds.append(contentsOf: later.kinds)
        let settingsOffset = Int32(settingsTable.count)
        settingsIndex.append(contentsOf: later.settingsIndex.lazy.map { $0 < 0 ? -1 : $0 + settingsOffset })
        settingsTable.append(contentsOf: later.settingsTable)
        circles.append(contentsOf: later.circles, fenceOffset: fenceOffset)
        corridors.append(contentsOf: later.corridors, fenceOffset: fenceOffset)
        return true
    }
}
