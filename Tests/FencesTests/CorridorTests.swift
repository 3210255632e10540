import FenceBuilders
import Foundation
import Testing

@testable import Fences

/// Corridors (LineString / MultiLineString with a radius) against a double-precision reference
/// written here from the textbook formulas alone: haversine distance, initial bearing, cross-track
/// distance asin(sin δ13 · sin(θ13 − θ12)) and along-track distance acos(cos δ13 / cos δxt) signed
/// by cos(θ13 − θ12), clamped to the segment (beyond an end, the distance to that end). Points
/// within 1 cm of the edge are skipped, as the contract allows them either way.
@Suite struct CorridorTests {
    static let earthRadius = 6_371_008.8
    static let rad = Double.pi / 180

    /// Angular haversine distance (radians).
    static func angular(_ p: (lon: Double, lat: Double), _ q: (lon: Double, lat: Double)) -> Double {
        let dLat = (q.lat - p.lat) * rad
        let dLon = (q.lon - p.lon) * rad
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(p.lat * rad) * cos(q.lat * rad) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * asin(min(1, h.squareRoot()))
    }

    static func bearing(_ p: (lon: Double, lat: Double), _ q: (lon: Double, lat: Double)) -> Double {
        let dLon = (q.lon - p.lon) * rad
        let y = sin(dLon) * cos(q.lat * rad)
        let x = cos(p.lat * rad) * sin(q.lat * rad) - sin(p.lat * rad) * cos(q.lat * rad) * cos(dLon)
        return atan2(y, x)
    }

    /// Reference distance in metres from `x` to the great-circle arc p1 → p2.
    static func referenceDistance(
        _ x: (lon: Double, lat: Double), _ p1: (lon: Double, lat: Double), _ p2: (lon: Double, lat: Double)
    ) -> Double {
        let d13 = angular(p1, x)
        let d12 = angular(p1, p2)
        let d23 = angular(p2, x)
        guard d12 > 0 else { return d13 * earthRadius }
        let dTheta = bearing(p1, x) - bearing(p1, p2)
        let crossTrack = asin(sin(d13) * sin(dTheta))
        let ratio = min(1, max(-1, cos(d13) / cos(crossTrack)))
        let alongTrack = acos(ratio) * (cos(dTheta) >= 0 ? 1 : -1)
        if alongTrack < 0 { return d13 * earthRadius }
        if alongTrack > d12 { return d23 * earthRadius }
        return abs(crossTrack) * earthRadius
    }

    static func referenceDistance(_ x: (lon: Double, lat: Double), lines: [[(lon: Double, lat: Double)]]) -> Double {
        var best = Double.infinity
        for line in lines {
            for k in 1..<line.count { best = min(best, referenceDistance(x, line[k - 1], line[k])) }
        }
        return best
    }

    /// The point `distance` metres from `p` at `bearing` radians (the direct problem on the sphere).
    static func destination(_ p: (lon: Double, lat: Double), bearing b: Double, distance: Double) -> (
        lon: Double, lat: Double
    ) {
        let d = distance / earthRadius
        let lat1 = p.lat * rad
        let lat2 = asin(sin(lat1) * cos(d) + cos(lat1) * sin(d) * cos(b))
        var lon = p.lon + atan2(sin(b) * sin(d) * cos(lat1), cos(d) - sin(lat1) * sin(lat2)) / rad
        lon = lon - 360 * ((lon + 180) / 360).rounded(.down)
        return (min(max(lon, -180), 180), lat2 / rad)
    }

    struct Corridor {
        var id: String
        var lines: [[(lon: Double, lat: Double)]]
        var radius: Double

        var json: String {
            let coordinates = lines.map { line in
                "[" + line.map { "[\($0.lon),\($0.lat)]" }.joined(separator: ",") + "]"
            }
            let geometry =
                lines.count == 1
                ? "{\"type\":\"LineString\",\"coordinates\":\(coordinates[0])}"
                : "{\"type\":\"MultiLineString\",\"coordinates\":[\(coordinates.joined(separator: ","))]}"
            return
                "{\"type\":\"Feature\",\"id\":\"\(id)\",\"geometry\":\(geometry),\"properties\":{\"radius\":\(radius)}}"
        }
    }

    /// A wandering route from `start`: `count` vertices, each `step` metres (±50 %) on from the
    /// last at a bearing that turns a little each time.
    static func route(
        _ rng: inout SeededGenerator, start: (lon: Double, lat: Double), count: Int, step: Double,
        heading: Double
    ) -> [(lon: Double, lat: Double)] {
        var points = [start]
        var b = heading
        for _ in 1..<count {
            b += Double.random(in: -0.8...0.8, using: &rng)
            let length = step * Double.random(in: 0.5...1.5, using: &rng)
            let next = destination(points.last!, bearing: b, distance: length)
            points.append(((next.lon * 1e7).rounded() / 1e7, (next.lat * 1e7).rounded() / 1e7))
        }
        return points
    }

    /// Points around the corridor: near a random place on a random segment, up to two radii off.
    static func probes(_ rng: inout SeededGenerator, _ c: Corridor, count: Int) -> [(lon: Double, lat: Double)] {
        (0..<count).map { _ in
            let line = c.lines.randomElement(using: &rng)!
            let k = Int.random(in: 1..<line.count, using: &rng)
            let a = line[k - 1]
            let along = angular(a, line[k]) * earthRadius * Double.random(in: -0.1...1.1, using: &rng)
            let onRoute = destination(a, bearing: bearing(a, line[k]), distance: along)
            return destination(
                onRoute, bearing: Double.random(in: 0..<(2 * .pi), using: &rng),
                distance: c.radius * Double.random(in: 0...2, using: &rng))
        }
    }

    /// Every probe against every corridor, through the grid query and the single-fence test.
    static func check(_ corridors: [Corridor], probesPerCorridor: Int, seed: UInt64) throws -> (
        inside: Int, outside: Int
    ) {
        var rng = SeededGenerator(seed: seed)
        let set = try fenceSet(collection(corridors.map(\.json).joined(separator: ",")))
        #expect(set.count == corridors.count)
        var points: [(lon: Double, lat: Double)] = []
        for c in corridors { points += probes(&rng, c, count: probesPerCorridor) }
        var tally = (inside: 0, outside: 0)
        let found = FenceHits()
        for p in points {
            set.fences(containingLat: p.lat, lon: p.lon, into: found)
            let hits = Set(found.array)
            for (i, c) in corridors.enumerated() {
                let d = referenceDistance(p, lines: c.lines)
                if abs(d - c.radius) < 0.01 { continue }
                let want = d <= c.radius
                if want { tally.inside += 1 } else { tally.outside += 1 }
                #expect(
                    hits.contains(i) == want, "corridor \(c.id) point \(p.lat),\(p.lon): \(d) m, radius \(c.radius)")
                #expect(set.contains(fence: i, lat: p.lat, lon: p.lon) == want)
            }
        }
        return tally
    }

    @Test func randomCorridorsAgreeWithTheReference() throws {
        var rng = SeededGenerator(seed: 25)
        var corridors: [Corridor] = []
        for i in 0..<24 {
            let start = (
                lon: Double.random(in: -170...170, using: &rng), lat: Double.random(in: -70...70, using: &rng)
            )
            let step = [30.0, 400, 5000, 60000][i % 4]
            let radius = [2.0, 25, 300, 4000][(i / 4) % 4] * Double.random(in: 0.7...1.3, using: &rng)
            var lines = [
                Self.route(
                    &rng, start: start, count: Int.random(in: 2...12, using: &rng), step: step,
                    heading: Double.random(in: 0..<(2 * .pi), using: &rng))
            ]
            if i % 5 == 0 {  // a MultiLineString: a second line nearby
                let other = Self.destination(start, bearing: 1, distance: step * 3)
                lines.append(Self.route(&rng, start: other, count: 4, step: step, heading: 2))
            }
            corridors.append(Corridor(id: "c\(i)", lines: lines, radius: radius))
        }
        let tally = try Self.check(corridors, probesPerCorridor: 400, seed: 7)
        #expect(tally.inside > 3000)
        #expect(tally.outside > 3000)
    }

    @Test func longCorridorAcrossTheAntimeridian() throws {
        var rng = SeededGenerator(seed: 180)
        // 1,400 km along 52° N from 170° E to 170° W, 60 vertices, 3 km each side
        var line: [(lon: Double, lat: Double)] = []
        for k in 0..<60 {
            var lon = 170 + Double(k) * 20 / 59
            if lon > 180 { lon -= 360 }
            line.append((lon, 52 + Double.random(in: -0.2...0.2, using: &rng)))
        }
        // a short one whose single segment spans the antimeridian, narrow
        let short = Corridor(id: "short", lines: [[(179.9995, -16.5), (-179.9993, -16.5004)]], radius: 12)
        let corridors = [Corridor(id: "long", lines: [line], radius: 3000), short]
        let tally = try Self.check(corridors, probesPerCorridor: 3000, seed: 9)
        #expect(tally.inside > 1500)
        // points on both sides of the line of ±180 are inside
        let set = try fenceSet(collection(corridors.map(\.json).joined(separator: ",")))
        #expect(hits(set, -16.5002, 180) == [1])
        #expect(hits(set, -16.5002, -180) == [1])
        #expect(hits(set, -16.5002, 179.9999) == [1])
        #expect(hits(set, -16.5002, -179.9999) == [1])
    }

    @Test func corridorsNearAndOverAPole() throws {
        var rng = SeededGenerator(seed: 90)
        // one segment over the North Pole (from 0° to 180° at 89.9°), one ring round it at 89.5°,
        // and a route near the South Pole
        let over = Corridor(id: "over", lines: [[(0, 89.9), (180, 89.9)]], radius: 800)
        let round = Corridor(
            id: "round", lines: [(0...12).map { (lon: -180 + Double($0) * 30, lat: 89.5) }], radius: 2000)
        let south = Corridor(
            id: "south", lines: [Self.route(&rng, start: (lon: 40, lat: -89.7), count: 10, step: 8000, heading: 0.3)],
            radius: 1500)
        let tally = try Self.check([over, round, south], probesPerCorridor: 3000, seed: 11)
        #expect(tally.inside > 3000)
        let set = try fenceSet(collection(over.json, round.json, south.json))
        #expect(hits(set, 90, 0) == [0])  // the pole itself, on the first corridor's line
        #expect(hits(set, 89.99, 90) == [])  // 1.1 km from the line over the pole: outside it
    }

    @Test func loaderRefusesBadCorridors() throws {
        func line(_ geometry: String, _ properties: String) -> String {
            collection("{\"type\":\"Feature\",\"id\":\"r\",\"geometry\":\(geometry),\"properties\":\(properties)}")
        }
        let two = "{\"type\":\"LineString\",\"coordinates\":[[8,47],[8.01,47]]}"
        #expect(
            loadError(line(two, "{}"))
                == "f.geojson: feature 0 (id \"r\"): a corridor (LineString) needs properties.radius in metres")
        #expect(
            loadError(line(two, "{\"radius\":0}"))
                == "f.geojson: feature 0 (id \"r\"): corridor radius 0 must be a positive number of metres")
        #expect(loadError(line(two, "{\"radius\":\"wide\"}"))?.contains("radius") == true)
        #expect(
            loadError(line("{\"type\":\"LineString\",\"coordinates\":[[8,47]]}", "{\"radius\":5}"))
                == "f.geojson: feature 0 (id \"r\"): line has 1 position; a line needs at least 2")
        #expect(
            loadError(
                line("{\"type\":\"MultiLineString\",\"coordinates\":[[[8,47],[8,48]],[[9,47]]]}", "{\"radius\":5}"))
                == "f.geojson: feature 0 (id \"r\"): line 1 has 1 position; a line needs at least 2")
        #expect(
            loadError(line("{\"type\":\"LineString\",\"coordinates\":[[8,47],[8,95]]}", "{\"radius\":5}"))
                == "f.geojson: feature 0 (id \"r\"): line position 1: latitude 95 is out of range [-90, 90]")
        #expect(
            loadError(line("{\"type\":\"LineString\",\"coordinates\":[[0,0],[179,0]]}", "{\"radius\":5}"))?.contains(
                "segment 0 is 19904 km long") == true)
        // a bare LineString geometry with a radius member is a fence file of one corridor
        let bare = try fenceSet("{\"type\":\"LineString\",\"coordinates\":[[8,47],[8.01,47]],\"radius\":20}")
        #expect(bare.kinds == [.corridor])
        #expect(bare.corridor(0)?.radius == 20)
    }

    /// Distances the engine uses (exit hysteresis, approach) on a line along the equator, where the
    /// arithmetic is exact: a point `m` metres north of it is m metres from it.
    @Test func engineGeometryOnTheEquator() throws {
        let metre = 1 / (Self.earthRadius * Self.rad)  // degrees of latitude per metre
        let set = try fenceSet(
            collection(Corridor(id: "eq", lines: [[(0, 0), (1, 0)]], radius: 100).json))
        #expect(abs(set.signedDistance(fence: 0, lat: 500 * metre, lon: 0.5) - 400) < 1e-6)
        #expect(abs(set.signedDistance(fence: 0, lat: -30 * metre, lon: 0.5) + 70) < 1e-6)
        // beyond the end: the distance to the end vertex
        #expect(abs(set.signedDistance(fence: 0, lat: 0, lon: 1 + 300 * metre) - 200) < 1e-6)
        // heading north from 500 m south: 400 m to the edge
        let ahead = try #require(
            set.distanceAlongRay(toFence: 0, lat: -500 * metre, lon: 0.5, bearing: 0, maxDistance: 1000))
        #expect(abs(ahead - 400) < 0.01)
        #expect(set.distanceAlongRay(toFence: 0, lat: -500 * metre, lon: 0.5, bearing: 0, maxDistance: 300) == nil)
        // heading west towards the end cap from 300 m beyond it: 200 m
        let cap = try #require(
            set.distanceAlongRay(toFence: 0, lat: 0, lon: 1 + 300 * metre, bearing: 270, maxDistance: 1000))
        #expect(abs(cap - 200) < 0.01)
        // a jump from 200 m south to 200 m north crosses the corridor
        #expect(
            set.segmentIntersects(
                fence: 0, from: GeoPoint(lat: -200 * metre, lon: 0.5), to: GeoPoint(lat: 200 * metre, lon: 0.5)))
        #expect(
            !set.segmentIntersects(
                fence: 0, from: GeoPoint(lat: -200 * metre, lon: 1.1), to: GeoPoint(lat: 200 * metre, lon: 1.1)))
        // the outline stays 100 m from the line
        for ring in set.outline(0) {
            for p in ring {
                let d = Self.referenceDistance((p.lon, p.lat), lines: [[(0, 0), (1, 0)]])
                #expect(abs(d - 100) < 0.5)
            }
        }
    }
}
