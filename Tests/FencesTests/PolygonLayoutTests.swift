import FenceBuilders
import Foundation
import Testing

@testable import Fences

/// The two polygon layouts (SIMD blocks for small fences, vertex indices for huge ones) must
/// answer alike and as the scalar reference does, on the boundary too; the indexed one must hold a
/// huge polygon in under 24 bytes per vertex (docs/performance.md: borders in <= 2x their raw coordinates).
@Suite struct PolygonLayoutTests {
    typealias Ring = [(lon: Double, lat: Double)]

    /// A wobbly star ring with `n` vertices around (x0, y0), counter-clockwise unless `cw`, closed.
    static func ring(_ rng: inout SeededGenerator, x0: Double, y0: Double, r: Double, n: Int, cw: Bool = false) -> Ring
    {
        var ring: Ring = []
        for k in 0..<n {
            let a = 2 * Double.pi * (Double(k) + Double.random(in: -0.3...0.3, using: &rng)) / Double(n)
            let rr = r * Double.random(in: 0.5...1, using: &rng)
            // on a 1e-4 grid, so that vertex-aligned and on-edge queries happen often
            ring.append((((x0 + rr * cos(a)) * 1e4).rounded() / 1e4, ((y0 + rr * sin(a)) * 1e4).rounded() / 1e4))
        }
        if cw { ring.reverse() }
        ring.append(ring[0])
        return ring
    }

    /// One store holding the same polygon twice, once in each layout.
    static func bothLayouts(_ rings: [Ring]) -> FrozenPolygons {
        var store = PolygonStore()
        for (f, indexed) in [(Int32(0), false), (Int32(1), true)] {
            var ends: [Int] = []
            for ring in rings {
                for p in ring {
                    store.stage(p.lon)
                    store.stage(p.lat)
                }
                ends.append(store.stagedCount / 2)
            }
            store.addStaged(fence: f, ringEnds: ends[...], indexed: indexed)
        }
        return store.frozen()
    }

    @Test(arguments: [(UInt64(1), 40), (2, 300), (3, 5000)])
    func layoutsAgreeWithTheReference(seed: UInt64, vertices: Int) {
        var rng = SeededGenerator(seed: seed)
        let outer = Self.ring(&rng, x0: 10, y0: 45, r: 1, n: vertices)
        let hole = Self.ring(&rng, x0: 10, y0: 45, r: 0.3, n: max(4, vertices / 10), cw: true)
        let island = Self.ring(&rng, x0: 13, y0: 45, r: 0.5, n: max(4, vertices / 4))
        let rings = [outer, hole, island]
        let p = Self.bothLayouts(rings)
        #expect(p.headers[0].vertexBase == -1)
        #expect(p.headers[1].vertexBase == 0)
        var queries: [(Double, Double)] = []
        for _ in 0..<3000 {
            queries.append((Double.random(in: 8.8...13.6, using: &rng), Double.random(in: 43.8...46.2, using: &rng)))
        }
        // every vertex, the middle of every edge of the hole, and points on the grid near the rings
        for ring in rings { for v in ring { queries.append((v.lon, v.lat)) } }
        for k in 0..<(hole.count - 1) {
            queries.append(((hole[k].lon + hole[k + 1].lon) / 2, (hole[k].lat + hole[k + 1].lat) / 2))
        }
        for v in outer.prefix(200) { queries.append((v.lon + 1e-4, v.lat)) }
        var inside = 0
        for (x, y) in queries {
            let want = PolygonKernel.referenceContains(x: x, y: y, rings: rings)
            #expect(p.contains(0, x: x, y: y) == want, "blocks at (\(x), \(y))")
            #expect(p.contains(1, x: x, y: y) == want, "indexed at (\(x), \(y))")
            if want { inside += 1 }
        }
        // the queries exercise both answers
        #expect(inside > 500 && inside < queries.count - 500)
    }

    @Test func edgesOfEachBandAreTheSameInBothLayouts() {
        var rng = SeededGenerator(seed: 4)
        let rings = [Self.ring(&rng, x0: 0, y0: 0, r: 5, n: 2000)]
        let p = Self.bothLayouts(rings)
        for band in [0, 7, Int(p.headers[1].bandCount) - 1] {
            var fromBlocks: [[Double]] = []
            var fromIndex: [[Double]] = []
            // the same band heights: both polygons have the same edges (4 vs 8 per band aside)
            let y = p.headers[1].y0 + (Double(band) + 0.5) / p.headers[1].inv
            let b0 = bandIndex(y, p.headers[0].y0, p.headers[0].inv, Int(p.headers[0].bandCount))
            let b1 = bandIndex(y, p.headers[1].y0, p.headers[1].inv, Int(p.headers[1].bandCount))
            p.forEachEdge(polygon: 0, bands: b0, through: b0) { fromBlocks.append([$0, $1, $2, $3]) }
            p.forEachEdge(polygon: 1, bands: b1, through: b1) { fromIndex.append([$0, $1, $2, $3]) }
            // every edge crossing latitude y is listed in both
            let crossing = (0..<(rings[0].count - 1)).filter {
                min(rings[0][$0].lat, rings[0][$0 + 1].lat) <= y && max(rings[0][$0].lat, rings[0][$0 + 1].lat) >= y
            }
            #expect(!crossing.isEmpty)
            for k in crossing {
                let e = [rings[0][k].lon, rings[0][k].lat, rings[0][k + 1].lon, rings[0][k + 1].lat]
                #expect(fromBlocks.contains(e))
                #expect(fromIndex.contains(e))
            }
        }
    }

    @Test func aHugePolygonIsIndexedInUnder24BytesPerVertex() throws {
        // the loader's path: a GeoJSON MultiPolygon of 300,000 vertices in two parts
        // smooth outlines, as borders are (a spiky star lists its long edges in many bands)
        func wobbly(x0: Double, n: Int) -> Ring {
            var ring: Ring = (0..<n).map { k in
                let t = 2 * Double.pi * Double(k) / Double(n)
                let r = 10 + 0.5 * sin(t * 37)
                return (((x0 + r * cos(t)) * 1e7).rounded() / 1e7, ((r * sin(t)) * 1e7).rounded() / 1e7)
            }
            ring.append(ring[0])
            return ring
        }
        var rng = SeededGenerator(seed: 5)
        let a = wobbly(x0: 0, n: 200_000)
        let b = wobbly(x0: 30, n: 100_000)
        func text(_ r: Ring) -> String { "[[" + r.map { "[\($0.lon),\($0.lat)]" }.joined(separator: ",") + "]]" }
        let json =
            "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"MultiPolygon\",\"coordinates\":["
            + text(a) + "," + text(b) + "]}}"
        let set = try FenceSet.parse(json, file: "huge.geojson")
        let p = set.polygons
        #expect(p.headers[0].vertexBase == 0)
        #expect(p.blocks.count <= 1)  // nothing in blocks (take() keeps one element at least)
        #expect(p.vertices.count == 2 * 300_002)  // each vertex once, closing ones included
        let perVertex = Double(p.bytes) / 300_002
        #expect(perVertex > 16 && perVertex < 24, "\(perVertex) bytes per vertex")
        for _ in 0..<500 {
            let x = Double.random(in: -11...41, using: &rng)
            let y = Double.random(in: -11...11, using: &rng)
            let want = PolygonKernel.referenceContains(x: x, y: y, rings: [a, b])
            #expect(set.contains(fence: 0, lat: y, lon: x) == want)
        }
    }

    @Test func outlineOfAnIndexedPolygonGivesBackItsRings() throws {
        var rng = SeededGenerator(seed: 6)
        let outer = Self.ring(&rng, x0: 5, y0: 50, r: 1, n: 3000)
        let hole = Self.ring(&rng, x0: 5, y0: 50, r: 0.2, n: 12, cw: true)
        let set = try fenceSet(
            collection(polygonFeature(id: "0", rings: [outer, hole].map { $0.map { ($0.lon, $0.lat) } })))
        #expect(set.polygons.headers[0].vertexBase >= 0)
        let rings = set.outline(0)
        #expect(rings.count == 2)
        #expect(Set(rings.map(\.count)) == [outer.count, hole.count])
        let big = try #require(rings.first { $0.count == outer.count })
        #expect(Set(big.map { "\($0.lon),\($0.lat)" }) == Set(outer.map { "\($0.lon),\($0.lat)" }))
    }
}
