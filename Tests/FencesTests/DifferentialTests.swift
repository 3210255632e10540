import FenceBuilders
import Foundation
import Testing

@testable import Fences

/// The indexed SIMD path against a plain double-precision reference (haversine per circle, even-odd
/// over every edge of every ring), on seeded random fences: holes, multipolygons, fences across the
/// antimeridian and near the poles. Points within 1 cm of a circle's edge are skipped (the contract
/// allows them either way); polygon vertices are also probed exactly.
@Suite struct DifferentialTests {
    struct Reference {
        enum Shape {
            case circle(CircleShape)
            case polygon([[(lon: Double, lat: Double)]])
        }
        var shapes: [Shape] = []

        /// nil when the point is within 1 cm of a circle's edge.
        func contains(_ i: Int, lat: Double, lon: Double) -> Bool? {
            switch shapes[i] {
            case .circle(let c):
                let d = Geodesy.haversine(lat1: lat, lon1: lon, lat2: c.lat, lon2: c.lon)
                if abs(d - c.radius) < 0.01 { return nil }
                return d <= c.radius
            case .polygon(let rings):
                return PolygonKernel.referenceContains(x: lon, y: lat, rings: rings)
            }
        }
    }

    /// A star-shaped ring around (lat0, lon0) of radius `r` metres, CCW (or CW), closed.
    static func star(_ rng: inout SeededGenerator, lat0: Double, lon0: Double, r: Double, n: Int, cw: Bool = false)
        -> [(Double, Double)]
    {
        var ring: [(Double, Double)] = []
        let cosLat = max(cos(lat0 * .pi / 180), 0.05)
        for k in 0..<n {
            let a = 2 * Double.pi * (Double(k) + Double.random(in: -0.3...0.3, using: &rng)) / Double(n)
            let rr = r * Double.random(in: 0.4...1, using: &rng)
            var lon = lon0 + rr * cos(a) / (Geodesy.metresPerDegree * cosLat)
            let lat = min(max(lat0 + rr * sin(a) / Geodesy.metresPerDegree, -90), 90)
            lon = min(max(lon, -180), 180)
            ring.append(((lon * 1e7).rounded() / 1e7, (lat * 1e7).rounded() / 1e7))
        }
        if cw { ring.reverse() }
        ring.append(ring[0])
        return ring
    }

    static func scenario(seed: UInt64, count: Int, centre: (Double, Double), spanDeg: Double)
        -> (String, Reference, [(Double, Double)])
    {
        var rng = SeededGenerator(seed: seed)
        var features: [String] = []
        var ref = Reference()
        var vertices: [(Double, Double)] = []
        for i in 0..<count {
            var lat0 = centre.0 + Double.random(in: -spanDeg...spanDeg, using: &rng)
            var lon0 = centre.1 + Double.random(in: -spanDeg...spanDeg, using: &rng)
            lat0 = min(max(lat0, -89.99), 89.99)
            if lon0 > 180 { lon0 -= 360 } else if lon0 < -180 { lon0 += 360 }
            let r = Double.random(in: 30...3000, using: &rng)
            switch Int.random(in: 0..<4, using: &rng) {
            case 0, 1:
                features.append(circleFeature(id: "\(i)", lon: lon0, lat: lat0, radius: r))
                ref.shapes.append(.circle(CircleShape(lat: lat0, lon: lon0, radius: r)))
            case 2:
                var rings = [star(&rng, lat0: lat0, lon0: lon0, r: r, n: Int.random(in: 4...80, using: &rng))]
                if Bool.random(using: &rng) {
                    rings.append(
                        star(&rng, lat0: lat0, lon0: lon0, r: r * 0.3, n: Int.random(in: 4...12, using: &rng), cw: true)
                    )
                }
                features.append(polygonFeature(id: "\(i)", rings: rings))
                ref.shapes.append(.polygon(rings.map { $0.map { (lon: $0.0, lat: $0.1) } }))
                vertices += rings.flatMap { $0 }
            default:
                let a = [star(&rng, lat0: lat0, lon0: lon0, r: r, n: Int.random(in: 4...30, using: &rng))]
                let b = [star(&rng, lat0: lat0 + 3 * r / Geodesy.metresPerDegree, lon0: lon0, r: r, n: 6)]
                features.append(multiPolygonFeature(id: "\(i)", parts: [a, b]))
                ref.shapes.append(.polygon((a + b).map { $0.map { (lon: $0.0, lat: $0.1) } }))
                vertices += (a + b).flatMap { $0 }
            }
        }
        return (
            "{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}", ref, vertices
        )
    }

    @Test(arguments: [
        (UInt64(1), (41.88, -87.63), 0.3),  // city
        (UInt64(2), (0.0, 179.99), 0.05),  // across the antimeridian
        (UInt64(3), (89.9, 0.0), 0.1),  // near the north pole
        (UInt64(4), (-75.0, 60.0), 1.0),  // high southern latitude
    ])
    func indexedSIMDMatchesReference(seed: UInt64, centre: (Double, Double), span: Double) throws {
        let (json, ref, vertices) = Self.scenario(seed: seed, count: 600, centre: centre, spanDeg: span)
        let set = try FenceSet.parse(json)
        var rng = SeededGenerator(seed: seed &* 7919)
        let h = FenceHits()
        var checked = 0
        var inside = 0
        var probes: [(Double, Double)] = []
        for _ in 0..<6000 {
            var lat = centre.0 + Double.random(in: -span * 1.1...span * 1.1, using: &rng)
            var lon = centre.1 + Double.random(in: -span * 1.1...span * 1.1, using: &rng)
            lat = min(max(lat, -90), 90)
            if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
            probes.append((lat, lon))
        }
        // points near fences, and exactly on vertices
        for i in 0..<ref.shapes.count {
            if case .circle(let c) = ref.shapes[i] {
                for _ in 0..<4 {
                    let p = Geodesy.destination(
                        lat: c.lat, lon: c.lon, bearing: Double.random(in: 0..<360, using: &rng),
                        distance: c.radius * Double.random(in: 0.9...1.1, using: &rng))
                    probes.append((p.lat, p.lon))
                }
            }
        }
        for v in vertices.prefix(3000) { probes.append((v.1, v.0)) }
        for (lat, lon) in probes {
            set.fences(containingLat: lat, lon: lon, into: h)
            let got = Set(h.array)
            for i in 0..<ref.shapes.count {
                guard let want = ref.contains(i, lat: lat, lon: lon) else { continue }
                if want != got.contains(i) {
                    Issue.record("seed \(seed): point (\(lat), \(lon)) fence \(i): reference \(want), index \(!want)")
                    return
                }
                checked += 1
                if want { inside += 1 }
            }
        }
        #expect(inside > 1000)
        #expect(checked > 1_000_000)
        // vertices are always inside their own fence
        for v in vertices.prefix(3000) { #expect(!hits(set, v.1, v.0).isEmpty) }
    }

    /// A few thousand points with shapely's answers, recorded from the shared bench workload (seed 3,
    /// 30 % holes, 30 % MultiPolygons; first 300 fences): the same contract as the peer comparison.
    @Test func agreesWithRecordedShapelyResults() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        let set = try FenceSet.load(path: dir.appendingPathComponent("shapely_multi_300f.geojson").path)
        let points = try String(
            contentsOf: dir.appendingPathComponent("shapely_multi_300f.points.csv"), encoding: .utf8
        )
        .split(separator: "\n")
        let expected = try String(
            contentsOf: dir.appendingPathComponent("shapely_multi_300f.shapely.jsonl"), encoding: .utf8
        )
        .split(separator: "\n")
        #expect(points.count == expected.count)
        let h = FenceHits()
        var differ = 0
        for (p, e) in zip(points, expected) {
            let parts = p.split(separator: ",")
            set.fences(containingLat: Double(parts[0])!, lon: Double(parts[1])!, into: h)
            let got = "[" + h.array.map { set.ids[$0].json }.joined(separator: ",") + "]"
            if got != e { differ += 1 }
        }
        #expect(differ == 0)
    }
}
