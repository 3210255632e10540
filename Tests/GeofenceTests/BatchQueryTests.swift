import Foundation
import Testing

@testable import Geofence

/// The batch query (`fences(containing:into:scratch:)`, used by `check --points`) against one
/// query per point, which `DifferentialTests` checks against the plain reference. The batch visits
/// the points in grid-cell order when the index is big enough and puts the results back in input
/// order: a slip there shows as another point's fences on a line.
@Suite struct BatchQueryTests {
    /// Random points around the fences, some far off the grid, some with a longitude out of
    /// [-180, 180] (the queries normalise it), plus every probe twice in a row.
    static func probes(seed: UInt64, centre: (Double, Double), span: Double, count: Int) -> [GeoPoint] {
        var rng = SeededGenerator(seed: seed)
        var points: [GeoPoint] = []
        for k in 0..<count {
            let lat = min(max(centre.0 + Double.random(in: -span * 1.2...span * 1.2, using: &rng), -90), 90)
            var lon = centre.1 + Double.random(in: -span * 1.2...span * 1.2, using: &rng)
            switch k % 50 {
            case 0: lon += 360
            case 1: points.append(GeoPoint(lat: -lat, lon: lon + 90))  // off the grid
            case 2: points.append(GeoPoint(lat: lat, lon: lon))
            default: break
            }
            points.append(GeoPoint(lat: lat, lon: lon))
        }
        return points
    }

    func oneAtATime(_ set: FenceSet, _ points: [GeoPoint]) -> [[Int32]] {
        let h = FenceHits()
        return points.map {
            set.fences(containingLat: $0.lat, lon: $0.lon, into: h)
            return Array(h.indices)
        }
    }

    func expectSame(_ set: FenceSet, _ points: [GeoPoint], _ label: String) {
        var batch = FenceBatchHits()
        set.fences(containing: points, into: &batch, scratch: FenceHits())
        #expect(batch.pointCount == points.count, "\(label)")
        let want = oneAtATime(set, points)
        var differing = 0
        for i in 0..<min(points.count, batch.pointCount) where Array(batch.fences(ofPoint: i)) != want[i] {
            if differing == 0 {
                Issue.record(
                    "\(label): point \(i) \(points[i]): batch \(Array(batch.fences(ofPoint: i))), single \(want[i])")
            }
            differing += 1
        }
        #expect(differing == 0, "\(label): \(differing) points differ")
        #expect(want.reduce(0) { $0 + $1.count } > points.count / 10, "\(label): too few hits to tell anything")
    }

    @Test func cellOrderedBatchMatchesSingleQueries() throws {
        let centre = (41.88, -87.63)
        let (json, _, _) = DifferentialTests.scenario(seed: 11, count: 3000, centre: centre, spanDeg: 0.2)
        let set = try FenceSet.parse(json)
        // big enough that the batch is visited in cell order
        #expect(set.indexBytes >= FenceSet.sortedBatchMinIndexBytes)
        let points = Self.probes(seed: 12, centre: centre, span: 0.2, count: 30_000)
        #expect(points.count >= FenceSet.sortedBatchMinPoints)
        expectSame(set, points, "cell order")
        // a batch too small to sort, and the empty batch
        expectSame(set, Array(points.prefix(FenceSet.sortedBatchMinPoints - 1)), "input order")
        var empty = FenceBatchHits()
        set.fences(containing: [], into: &empty, scratch: FenceHits())
        #expect(empty.pointCount == 0 && empty.fences.isEmpty)
    }

    @Test func smallIndexBatchMatchesSingleQueries() throws {
        let centre = (0.0, 179.99)
        let (json, _, _) = DifferentialTests.scenario(seed: 2, count: 60, centre: centre, spanDeg: 0.05)
        let set = try FenceSet.parse(json)
        #expect(set.indexBytes < FenceSet.sortedBatchMinIndexBytes)
        expectSame(set, Self.probes(seed: 3, centre: centre, span: 0.05, count: 10_000), "across the antimeridian")
    }

    /// The visiting order is a permutation that groups points by grid cell, off-grid points last.
    @Test func visitOrderIsAStablePermutationByCell() throws {
        let centre = (41.88, -87.63)
        let (json, _, _) = DifferentialTests.scenario(seed: 5, count: 2000, centre: centre, spanDeg: 0.2)
        let set = try FenceSet.parse(json)
        let grid = try #require(set.levels.first?.view)
        let points = Self.probes(seed: 6, centre: centre, span: 0.2, count: 20_000)
        var sorted = [GeoPoint](repeating: GeoPoint(lat: 0, lon: 0), count: points.count)
        var rank = [Int32](repeating: -1, count: points.count)
        points.withUnsafeBufferPointer { p in
            sorted.withUnsafeMutableBufferPointer { s in
                rank.withUnsafeMutableBufferPointer { r in
                    VisitOrder.sort(p, grid: grid, sorted: s.baseAddress!, rank: r.baseAddress!)
                }
            }
        }
        #expect(Set(rank).count == points.count && rank.allSatisfy { $0 >= 0 && Int($0) < points.count })
        for i in points.indices { #expect(sorted[Int(rank[i])] == points[i]) }
        // the cell (off grid: after every cell) never decreases along the visit, and within one
        // cell the input order is kept
        func cell(_ p: GeoPoint) -> Int {
            let c = grid.cell(x: Geodesy.normalizedLongitude(p.lon), y: p.lat)
            return c < 0 ? Int.max : c
        }
        let byVisit = points.indices.sorted { rank[$0] < rank[$1] }
        var offGrid = 0
        for k in 1..<byVisit.count {
            let (a, b) = (byVisit[k - 1], byVisit[k])
            #expect(cell(points[a]) <= cell(points[b]))
            if cell(points[a]) == cell(points[b]) { #expect(a < b) }
            if cell(points[b]) == Int.max { offGrid += 1 }
        }
        #expect(offGrid > 100)
    }
}
