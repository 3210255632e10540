import FenceBuilders
import Foundation
import Testing

@testable import Fences

@Suite struct ContainmentTests {
    @Test func circleEdgeIsHaversineOnTheContractSphere() throws {
        let set = try fenceSet(collection(circleFeature(id: "0", lon: -87.63, lat: 41.88, radius: 500)))
        for bearing in stride(from: 0.0, to: 360, by: 7.5) {
            let inside = Geodesy.destination(lat: 41.88, lon: -87.63, bearing: bearing, distance: 499.99)
            let outside = Geodesy.destination(lat: 41.88, lon: -87.63, bearing: bearing, distance: 500.01)
            #expect(hits(set, inside.lat, inside.lon) == [0])
            #expect(hits(set, outside.lat, outside.lon) == [])
        }
        #expect(abs(Geodesy.haversine(lat1: 0, lon1: 0, lat2: 0, lon2: 1) - 6_371_008.8 * Double.pi / 180) < 1e-9)
    }

    @Test func polygonBoundaryVerticesAndHoles() throws {
        let outer = square(0, 0, 10, 10)
        let hole = [(3.0, 3.0), (3.0, 7.0), (7.0, 7.0), (7.0, 3.0), (3.0, 3.0)]  // clockwise
        let set = try fenceSet(collection(polygonFeature(id: "0", rings: [outer, hole])))
        #expect(hits(set, 1, 1) == [0])
        #expect(hits(set, 5, 5) == [])  // inside the hole
        #expect(hits(set, 0, 0) == [0])  // vertex
        #expect(hits(set, 0, 5) == [0])  // edge
        #expect(hits(set, 10, 10) == [0])
        #expect(hits(set, 3, 5) == [0])  // hole edge
        #expect(hits(set, 7, 7) == [0])  // hole vertex
        #expect(hits(set, 5, -0.0000001) == [])
        #expect(hits(set, 10.0000001, 5) == [])
        // ray through a vertex's latitude counts once
        let diamond = [(0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)]
        let d = try fenceSet(collection(polygonFeature(id: "0", rings: [diamond])))
        #expect(hits(d, 0, -0.5) == [0])
        #expect(hits(d, 0, -1.5) == [])
        #expect(hits(d, 0, 0.9999) == [0])
    }

    @Test func antimeridianCircle() throws {
        let set = try fenceSet(collection(circleFeature(id: "0", lon: 179.999, lat: 10, radius: 500)))
        #expect(hits(set, 10, -179.999) == [0])  // 219 m away across the antimeridian
        #expect(hits(set, 10, 180) == [0])
        #expect(hits(set, 10, -180) == [0])
        #expect(hits(set, 10, -179.99) == [])
        let west = try fenceSet(collection(circleFeature(id: "0", lon: -179.9995, lat: -40, radius: 300)))
        #expect(hits(west, -40, 179.999) == [0])
        #expect(hits(west, -40, 179.99) == [])
    }

    @Test func antimeridianSplitMultiPolygon() throws {
        // RFC 7946 §3.1.9: a fence across 180 written as two parts touching the antimeridian
        let east = square(179.5, -1, 180, 1)
        let west = square(-180, -1, -179.5, 1)
        let set = try fenceSet(collection(multiPolygonFeature(id: "0", parts: [[east], [west]])))
        #expect(hits(set, 0, 179.8) == [0])
        #expect(hits(set, 0, -179.8) == [0])
        #expect(hits(set, 0, 180) == [0])
        #expect(hits(set, 0, -180) == [0])
        #expect(hits(set, 0, 179.4) == [])
        #expect(hits(set, 1.5, -179.8) == [])
    }

    @Test func polarFences() throws {
        let cap = circleFeature(id: "\"north\"", lon: 0, lat: 89.99, radius: 5000)
        let south = polygonFeature(id: "\"south\"", rings: [square(-180, -90, 180, -85)])
        let set = try fenceSet(collection(cap, south))
        #expect(hits(set, 90, 0) == [0])
        #expect(hits(set, 89.99, 180) == [0])  // across the pole: 2.2 km
        #expect(hits(set, 89.97, -135) == [0])
        #expect(hits(set, 89.9, 180) == [])
        #expect(hits(set, -90, 45) == [1])
        #expect(hits(set, -86, -179.99) == [1])
        #expect(hits(set, -84.9, 0) == [])
    }

    @Test func overlappingFencesComeInFileOrder() throws {
        var features: [String] = []
        for i in 0..<40 {
            if i % 2 == 0 {
                features.append(
                    circleFeature(id: "\(100 - i)", lon: 0.001 * Double(i % 5), lat: 0, radius: 2000 + Double(i)))
            } else {
                features.append(
                    polygonFeature(id: "\"p\(i)\"", rings: [square(-0.05 - 0.001 * Double(i), -0.05, 0.05, 0.05)]))
            }
        }
        let set = try fenceSet(
            "{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}")
        #expect(hits(set, 0, 0) == Array(0..<40))
    }

    @Test func hugePolygonReadsOneBand() throws {
        // 200,000-vertex ring (a wobbly circle): the query only touches one band of edges
        var ring: [(Double, Double)] = []
        let n = 200_000
        for k in 0..<n {
            let a = 2 * Double.pi * Double(k) / Double(n)
            let r = 10 + 0.5 * sin(a * 37)
            ring.append((r * cos(a), r * sin(a)))
        }
        ring.append(ring[0])
        let set = try fenceSet(collection(polygonFeature(id: "0", rings: [ring])))
        let p = set.polygons
        #expect(p.headers[0].bandCount > 1000)
        let (s, e) = p.bandRange(0, 0.3)
        #expect(e - s < 200)
        var rng = SeededGenerator(seed: 9)
        let rings = [ring.map { (lon: $0.0, lat: $0.1) }]
        for _ in 0..<300 {
            let x = Double.random(in: -11...11, using: &rng)
            let y = Double.random(in: -11...11, using: &rng)
            #expect((hits(set, y, x) == [0]) == PolygonKernel.referenceContains(x: x, y: y, rings: rings))
        }
        // every vertex is inside
        for k in stride(from: 0, to: n, by: 997) { #expect(hits(set, ring[k].1, ring[k].0) == [0]) }
    }

    @Test func queriesDoNotGrowTheBufferOnceWarm() throws {
        let set = try fenceSet(
            collection(
                circleFeature(id: "0", lon: 0, lat: 0, radius: 100),
                polygonFeature(id: "1", rings: [square(-0.01, -0.01, 0.01, 0.01)])))
        let h = FenceHits(capacity: 4)
        let before = h.storage
        for _ in 0..<1000 { set.fences(containingLat: 0, lon: 0, into: h) }
        #expect(h.storage == before)
        #expect(h.array == [0, 1])
        let points = [GeoPoint(lat: 0, lon: 0), GeoPoint(lat: 1, lon: 1), GeoPoint(lat: 0.005, lon: 0.005)]
        let batch = points.withUnsafeBufferPointer { PointBatch(set, points: $0) }
        #expect((0..<3).map { Array(batch.fences(ofPoint: $0)) } == [[0, 1], [], [1]])
    }
}

@Suite struct FastTrigTests {
    @Test func sincosIsWithinTwoUlpOfLibm() {
        var rng = SeededGenerator(seed: 11)
        var worst = 0.0
        var xs: [Double] = [0, -0.0, .pi / 4, .pi / 2, .pi, -.pi, 3 * .pi / 4, 1e-300, 4, -4]
        for _ in 0..<200_000 { xs.append(Double.random(in: -Double.pi...Double.pi, using: &rng)) }
        for x in xs {
            let (s, c) = FastTrig.sincos(x)
            worst = max(
                worst, abs(s - sin(x)) / max(sin(x).magnitude.ulp, Double.ulpOfOne.ulp),
                abs(c - cos(x)) / max(cos(x).magnitude.ulp, Double.ulpOfOne.ulp))
            // absolute error is what the unit vector needs: far below 1e-15
            #expect(abs(s - sin(x)) < 4e-16 && abs(c - cos(x)) < 4e-16, "x = \(x)")
        }
        #expect(worst <= 2)
    }
}
