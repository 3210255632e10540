import Testing

@testable import Events
@testable import Fences

/// The fence file's set with the layer circles over it (docs/running.md, "Fence layers").
@Suite struct FenceLayersTests {
    func mainSet() throws -> FenceSet {
        var builder = FenceSetBuilder()
        try builder.add(id: .string("yard"), name: "Yard", shape: .circle(CircleShape(lat: 10, lon: 10, radius: 100)))
        try builder.add(
            id: .number("7"), name: "Field",
            shape: .polygon([
                [[(lon: 0, lat: 0), (lon: 1, lat: 0), (lon: 1, lat: 1), (lon: 0, lat: 1), (lon: 0, lat: 0)]]
            ]))
        try builder.add(id: .string("home"), shape: .circle(CircleShape(lat: 20, lon: 20, radius: 50)))
        return builder.build()
    }

    @Test func layerCirclesFollowTheFileAndAnswerQueriesAsItsOwn() throws {
        let main = try mainSet()
        var layers = FenceLayers(main: main)
        layers.anchor = LayerCircle(
            layer: .anchor, id: "anchor", name: "Anchor", circle: CircleShape(lat: 0.5, lon: 0.5, radius: 200))
        layers.ownTracksRegions = [
            LayerCircle(layer: .ownTracks, id: "club", name: "Club", circle: CircleShape(lat: 30, lon: 30, radius: 80))
        ]
        let (set, shadowed) = layers.combined()
        #expect(shadowed.isEmpty)
        #expect(set.ids == [.string("yard"), .number("7"), .string("home"), .string("anchor"), .string("club")])
        #expect(set.info(4).propertiesJSON == #"{"owntracks":true}"#)
        #expect(FenceLayers.isAnchor(set, 3) && !FenceLayers.isAnchor(set, 0))
        // The file's fences keep their geometry (same hash: their state survives the swap).
        for fence in 0..<main.count { #expect(set.geometryHash(fence) == main.geometryHash(fence)) }
        let hits = FenceHits()
        set.fences(containingLat: 0.5, lon: 0.5, into: hits)
        #expect(Set(hits.indices.map(Int.init)) == [1, 3], "the polygon and the anchor")
        set.fences(containingLat: 30.0003, lon: 30, into: hits)
        #expect(hits.indices.map(Int.init) == [4])
        set.fences(containingLat: 10, lon: 10, into: hits)
        #expect(hits.indices.map(Int.init) == [0])
    }

    @Test func anIDTakenByTheFileLeavesTheLayerCircleOut() throws {
        var layers = FenceLayers(main: try mainSet())
        layers.ownTracksRegions = [
            LayerCircle(layer: .ownTracks, id: "home", name: "Home", circle: CircleShape(lat: 5, lon: 5, radius: 10)),
            LayerCircle(layer: .ownTracks, id: "gym", name: nil, circle: CircleShape(lat: 6, lon: 6, radius: 10)),
        ]
        let (set, shadowed) = layers.combined()
        #expect(set.count == 4)
        #expect(set.ids.last == .string("gym"))
        #expect(shadowed.map(\.circle.id) == ["home"])
        #expect(set.circle(2) == CircleShape(lat: 20, lon: 20, radius: 50), "the file's home wins")
    }
}
