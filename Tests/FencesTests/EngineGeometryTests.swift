import FenceBuilders
import Foundation
import Testing

@testable import Fences

@Suite struct EngineGeometryTests {
    let set: FenceSet

    init() throws {
        set = try fenceSet(
            collection(
                circleFeature(id: "\"c\"", lon: 0, lat: 0, radius: 100),
                polygonFeature(id: "\"sq\"", rings: [square(0.01, -0.001, 0.012, 0.001)]),
                circleFeature(id: "\"am\"", lon: 179.9995, lat: 0, radius: 50)))
    }

    @Test func signedDistance() {
        #expect(abs(set.signedDistance(fence: 0, lat: 0, lon: 0) + 100) < 1e-9)
        let p = Geodesy.destination(lat: 0, lon: 0, bearing: 90, distance: 130)
        #expect(abs(set.signedDistance(fence: 0, lat: p.lat, lon: p.lon) - 30) < 1e-6)
        // square: west edge at lon 0.01; a point 0.0001 deg (11.1 m) west of it
        let d = set.signedDistance(fence: 1, lat: 0, lon: 0.0099)
        #expect(abs(d - 0.0001 * Geodesy.metresPerDegree) < 0.01)
        let inside = set.signedDistance(fence: 1, lat: 0, lon: 0.0101)
        #expect(abs(inside + 0.0001 * Geodesy.metresPerDegree) < 0.01)
        // with a limit, a far boundary is reported as the limit
        #expect(set.signedDistance(fence: 1, lat: 0.5, lon: 0.011, limit: 60) == 60)
    }

    @Test func segmentCrossing() {
        let h = FenceHits()
        // passes through the circle's middle without either fix inside
        set.fences(crossedFrom: GeoPoint(lat: -0.002, lon: 0), to: GeoPoint(lat: 0.002, lon: 0), into: h)
        #expect(h.array == [0])
        // passes through the square
        set.fences(crossedFrom: GeoPoint(lat: 0, lon: 0.009), to: GeoPoint(lat: 0, lon: 0.013), into: h)
        #expect(h.array == [1])
        // misses everything
        set.fences(crossedFrom: GeoPoint(lat: 0.01, lon: 0), to: GeoPoint(lat: 0.01, lon: 0.02), into: h)
        #expect(h.isEmpty)
        // across the antimeridian, through the circle at 179.9995
        set.fences(crossedFrom: GeoPoint(lat: 0, lon: 179.998), to: GeoPoint(lat: 0, lon: -179.999), into: h)
        #expect(h.array == [2])
        #expect(
            !set.segmentIntersects(
                fence: 2, from: GeoPoint(lat: 0.01, lon: 179.998), to: GeoPoint(lat: 0.01, lon: -179.999)))
    }

    /// A circle and short segments around it, north, south, through and beside it: whether the
    /// segment meets the circle, judged by points every few centimetres along it measured with the
    /// great-circle formula. Segments ending just beyond the radius north or south are the ones the
    /// cheap latitude test turns away.
    @Test func segmentMeetsACircleAsDenseSamplingSays() {
        var generator = SystemRandomNumberGenerator()
        let circle = 100.0  // fence 0 of the set above
        var met = 0
        var missed = 0
        for _ in 0..<4000 {
            let from = Geodesy.destination(
                lat: 0, lon: 0, bearing: Double.random(in: 0..<360, using: &generator),
                distance: Double.random(in: 0..<(circle * 1.3), using: &generator))
            let to = Geodesy.destination(
                lat: from.lat, lon: from.lon, bearing: Double.random(in: 0..<360, using: &generator),
                distance: Double.random(in: 0..<20, using: &generator))
            var nearest = Double.infinity
            for k in 0...400 {
                let t = Double(k) / 400
                let lat = from.lat + (to.lat - from.lat) * t
                let lon = from.lon + (to.lon - from.lon) * t
                nearest = min(nearest, Geodesy.haversine(lat1: 0, lon1: 0, lat2: lat, lon2: lon))
            }
            let says = set.segmentIntersects(
                fence: 0, from: GeoPoint(lat: from.lat, lon: from.lon), to: GeoPoint(lat: to.lat, lon: to.lon))
            // Within a few centimetres of the edge the sampling and the plane disagree by design.
            if nearest < circle - 0.05 {
                #expect(says, "a segment \(nearest) m from the centre")
                met += 1
            } else if nearest > circle + 0.1 {
                #expect(!says, "a segment \(nearest) m from the centre")
                missed += 1
            }
        }
        #expect(met > 500 && missed > 500)
    }

    @Test func approachAlongRay() throws {
        // heading east from 1 km west of the circle's centre: reaches the edge after 900 m
        let start = Geodesy.destination(lat: 0, lon: 0, bearing: 270, distance: 1000)
        let d = try #require(
            set.distanceAlongRay(toFence: 0, lat: start.lat, lon: start.lon, bearing: 90, maxDistance: 2000))
        #expect(abs(d - 900) < 0.5)
        #expect(set.distanceAlongRay(toFence: 0, lat: start.lat, lon: start.lon, bearing: 90, maxDistance: 800) == nil)
        #expect(set.distanceAlongRay(toFence: 0, lat: start.lat, lon: start.lon, bearing: 0, maxDistance: 5000) == nil)
        #expect(set.distanceAlongRay(toFence: 0, lat: 0, lon: 0, bearing: 0, maxDistance: 10) == 0)
        // the square's west edge is at lon 0.01: 1111.95 m east of (0, 0)
        // the engine's path: candidates from the index, then the exact distance along the ray
        let hits = FenceHits()
        set.fences(aheadOfLat: 0, lon: 0.002, bearing: 90, maxDistance: 2000, into: hits)
        let reached = hits.indices.compactMap { fence in
            set.distanceAlongRay(toFence: Int(fence), lat: 0, lon: 0.002, bearing: 90, maxDistance: 2000).map {
                (Int(fence), $0)
            }
        }
        #expect(reached.count == 1)
        #expect(reached.first?.0 == 1)
        #expect(abs((reached.first?.1 ?? 0) - 0.008 * Geodesy.metresPerDegree) < 0.5)
    }

    @Test func nearest() {
        let near = set.nearestFences(lat: 0, lon: 0.008, count: 2)
        #expect(near.map(\.fence) == [1, 0])
    }
}

@Suite struct EngineGeometryAntimeridianTests {
    @Test func crossingASplitPolygonAcrossTheAntimeridian() throws {
        let east = square(179.99, -0.01, 180, 0.01)
        let west = square(-180, -0.01, -179.99, 0.01)
        let set = try fenceSet(collection(multiPolygonFeature(id: "\"dateline\"", parts: [[east], [west]])))
        let h = FenceHits()
        // from 0.02° east of the fence to 0.02° west of it, the short way (across 180)
        set.fences(crossedFrom: GeoPoint(lat: 0, lon: -179.97), to: GeoPoint(lat: 0, lon: 179.97), into: h)
        #expect(h.array == [0])
        // the same longitudes 0.05° further north miss it
        set.fences(crossedFrom: GeoPoint(lat: 0.05, lon: -179.97), to: GeoPoint(lat: 0.05, lon: 179.97), into: h)
        #expect(h.isEmpty)
        // heading west from -179.97 reaches the west part's edge at -179.99 after 0.02° (2,224 m)
        let d = try #require(set.distanceAlongRay(toFence: 0, lat: 0, lon: -179.97, bearing: 270, maxDistance: 5000))
        #expect(abs(d - 0.02 * Geodesy.metresPerDegree) < 1)
    }

    @Test func signedDistanceOnAHugePolygonWithALimit() throws {
        var ring: [(Double, Double)] = []
        let n = 100_000
        for k in 0..<n {
            let a = 2 * Double.pi * Double(k) / Double(n)
            ring.append((cos(a), sin(a)))  // unit circle in degrees around (0, 0)
        }
        ring.append(ring[0])
        let set = try fenceSet(collection(polygonFeature(id: "0", rings: [ring])))
        // 0.001° inside the ring at lat 0: 111 m from the boundary
        let d = set.signedDistance(fence: 0, lat: 0, lon: 0.999, limit: 500)
        #expect(abs(d + 0.001 * Geodesy.metresPerDegree) < 0.5)
        // far from the boundary the limit is reported
        #expect(set.signedDistance(fence: 0, lat: 0, lon: 0, limit: 500) == -500)
    }
}
