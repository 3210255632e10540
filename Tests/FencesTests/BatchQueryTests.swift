import FenceBuilders
import Foundation
import Testing

@testable import Fences

/// The batch query (`PointBatch`, used by `check --points`) against one query per point, which
/// `DifferentialTests` checks against the plain reference. The batch visits the points in grid-cell
/// order when the index is big enough, on several threads, and files each answer by input index:
/// a slip there shows as another point's fences on a line.
@Suite struct BatchQueryTests {
    /// Random points around the fences; one in fifty each with a longitude out of [-180, 180]
    /// (the queries normalise it), preceded by a point far off the grid, or given twice in a row.
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

    func expectSame(_ set: FenceSet, _ points: [GeoPoint], threads: Int, _ label: String) {
        let batch = points.withUnsafeBufferPointer { PointBatch(set, points: $0, threads: threads) }
        #expect(batch.count == points.count, "\(label)")
        let want = oneAtATime(set, points)
        var differing = 0
        for i in 0..<min(points.count, batch.count) where Array(batch.fences(ofPoint: i)) != want[i] {
            if differing == 0 {
                Issue.record(
                    "\(label): point \(i) \(points[i]): batch \(Array(batch.fences(ofPoint: i))), single \(want[i])")
            }
            differing += 1
        }
        #expect(differing == 0, "\(label): \(differing) points differ")
        #expect(batch.totalHits == want.reduce(0) { $0 + $1.count }, "\(label)")
        #expect(want.reduce(0) { $0 + $1.count } > points.count / 10, "\(label): too few hits to tell anything")
    }

    @Test func cellOrderedBatchMatchesSingleQueries() throws {
        let centre = (41.88, -87.63)
        let (json, _, _) = DifferentialTests.scenario(seed: 11, count: 3000, centre: centre, spanDeg: 0.2)
        let set = try FenceSet.parse(json)
        // big enough that the batch is visited in cell order
        #expect(set.indexBytes >= PointBatch.sortedMinIndexBytes)
        let points = Self.probes(seed: 12, centre: centre, span: 0.2, count: 30_000)
        #expect(points.count >= PointBatch.sortedMinPoints)
        for threads in [1, 2, 3] { expectSame(set, points, threads: threads, "cell order, \(threads) threads") }
        // a batch too small to sort, and the empty batch
        expectSame(set, Array(points.prefix(PointBatch.sortedMinPoints - 1)), threads: 2, "input order")
        let empty = PointBatch(set, points: UnsafeBufferPointer(start: nil, count: 0), threads: 2)
        #expect(empty.count == 0 && empty.totalHits == 0)
    }

    /// A set of corridors alone is visited in the order of the corridors' own grid.
    @Test func corridorsAloneAreVisitedInCellOrderAndMatchSingleQueries() throws {
        var builder = FenceSetBuilder()
        var rng = SeededGenerator(seed: 21)
        for i in 0..<3000 {
            var p = (
                lon: Double.random(in: -87.73 ... -87.53, using: &rng),
                lat: Double.random(in: 41.78...41.98, using: &rng)
            )
            var line = [p]
            for _ in 0..<14 {
                p = (
                    p.lon + Double.random(in: -0.004...0.004, using: &rng),
                    p.lat + Double.random(in: -0.003...0.003, using: &rng)
                )
                line.append(p)
            }
            try builder.add(
                id: .string("w\(i)"),
                shape: .corridor(CorridorShape(lines: [line], radius: Double.random(in: 5...60, using: &rng))))
        }
        let set = builder.build()
        #expect(set.levels.isEmpty && !set.corridorLevels.isEmpty)
        #expect(set.indexBytes >= PointBatch.sortedMinIndexBytes)
        let points = Self.probes(seed: 22, centre: (41.88, -87.63), span: 0.25, count: 30_000)
        for threads in [1, 2, 3] { expectSame(set, points, threads: threads, "corridors, \(threads) threads") }
    }

    @Test func smallIndexBatchMatchesSingleQueries() throws {
        let centre = (0.0, 179.99)
        let (json, _, _) = DifferentialTests.scenario(seed: 2, count: 60, centre: centre, spanDeg: 0.05)
        let set = try FenceSet.parse(json)
        #expect(set.indexBytes < PointBatch.sortedMinIndexBytes)
        let points = Self.probes(seed: 3, centre: centre, span: 0.05, count: 10_000)
        expectSame(set, points, threads: 2, "across the antimeridian")
    }

    /// Points in more than three fences: their answers do not fit the slot and go to the querying
    /// thread's overflow list.
    @Test func pointsInManyFencesMatchSingleQueries() throws {
        var features: [String] = []
        for k in 0..<8 {
            features.append(circleFeature(id: "\(2 * k)", lon: 10, lat: 50, radius: 100 + 150 * Double(k)))
            let h = 0.001 * Double(k + 1)
            features.append(polygonFeature(id: "\(2 * k + 1)", rings: [square(10 - h, 50 - h, 10 + h, 50 + h)]))
        }
        let set = try FenceSet.parse(
            "{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}")
        let points = Self.probes(seed: 4, centre: (50, 10), span: 0.012, count: 8000)
        let batch = points.withUnsafeBufferPointer { PointBatch(set, points: $0, threads: 2) }
        #expect((0..<points.count).filter { batch.fences(ofPoint: $0).count > 3 }.count > 500)
        expectSame(set, points, threads: 2, "nested fences")
    }

    /// The visiting order, sorted in three parts, is a permutation that groups points by grid cell,
    /// off-grid points last, keeping input order within a cell.
    @Test func visitOrderIsAStablePermutationByCell() throws {
        let centre = (41.88, -87.63)
        let (json, _, _) = DifferentialTests.scenario(seed: 5, count: 2000, centre: centre, spanDeg: 0.2)
        let set = try FenceSet.parse(json)
        let grid = try #require(set.levels.first?.view.frame)
        let points = Self.probes(seed: 6, centre: centre, span: 0.2, count: 20_000)
        let (sorted, order) = points.withUnsafeBufferPointer { p in
            let o = VisitOrder(points: p, grid: grid, parts: 3)
            for part in 0..<3 { o.count(part: part) }
            o.place()
            for part in [2, 0, 1] { o.scatter(part: part) }
            o.releaseScratch()
            defer {
                o.sorted.deallocate()
                o.order.deallocate()
            }
            return (
                Array(UnsafeBufferPointer(start: o.sorted, count: p.count)),
                Array(UnsafeBufferPointer(start: o.order, count: p.count))
            )
        }
        #expect(Set(order).count == points.count && order.allSatisfy { $0 >= 0 && Int($0) < points.count })
        for k in points.indices { #expect(sorted[k] == points[Int(order[k])]) }
        func cell(_ p: GeoPoint) -> Int {
            let c = grid.cell(x: Geodesy.normalizedLongitude(p.lon), y: p.lat)
            return c < 0 ? Int.max : c
        }
        var offGrid = 0
        for k in 1..<order.count {
            let (a, b) = (Int(order[k - 1]), Int(order[k]))
            #expect(cell(points[a]) <= cell(points[b]))
            if cell(points[a]) == cell(points[b]) { #expect(a < b) }
            if cell(points[b]) == Int.max { offGrid += 1 }
        }
        #expect(offGrid > 100)
    }
}
