import FenceBuilders
import Foundation
import Testing

@testable import Fences

/// The corridors' own grid: the cheap box each segment is filed under holds the exact one, and the
/// grid finds exactly what testing every corridor finds, on a dense road network.
@Suite struct CorridorGridTests {
    static func covered(_ p: (x: Double, y: Double), by boxes: (BoundingBox, BoundingBox?)) -> Bool {
        func inside(_ b: BoundingBox) -> Bool { p.x >= b.minX && p.x <= b.maxX && p.y >= b.minY && p.y <= b.maxY }
        return inside(boxes.0) || (boxes.1.map(inside) ?? false)
    }

    @Test func coverHoldsTheExactBox() {
        var rng = SeededGenerator(seed: 11)
        var fast = 0
        for i in 0..<20000 {
            let lat = [Double.random(in: -80...80, using: &rng), Double.random(in: 78...80, using: &rng)][i % 2]
            let lon = [Double.random(in: -180...180, using: &rng), Double.random(in: 179...180, using: &rng)][i % 3 % 2]
            let length = [1e-5, 1e-3, 0.05, 1.0][i % 4] * Double.random(in: 0...1, using: &rng)
            let bearing = Double.random(in: 0..<(2 * .pi), using: &rng)
            var lon2 = lon + length * sin(bearing)
            if lon2 > 180 { lon2 -= 360 }
            let lat2 = min(max(lat + length * cos(bearing), -90), 90)
            let radius = [1.0, 10, 500, 60_000][i / 4 % 4] * Double.random(in: 0.5...1, using: &rng)
            var store = CorridorStore()
            store.add(fence: 0, lines: [[(lon, lat), (lon2, lat2)]], radius: radius)
            let exact = corridorSegmentBoxes(
                from: (lon, lat), to: (lon2, lat2), segment: store.segment(0, radius: radius), radius: radius)
            let cover = corridorSegmentCover(store, 0, radius: radius)
            if abs(lat) <= 80 && abs(lat2) <= 80 { fast += 1 }
            for box in [exact.0, exact.1].compactMap({ $0 }) {
                for u in 0...6 {
                    for v in 0...6 {
                        let p = (
                            x: box.minX + (box.maxX - box.minX) * Double(u) / 6,
                            y: box.minY + (box.maxY - box.minY) * Double(v) / 6
                        )
                        #expect(Self.covered(p, by: cover), "segment \(lon),\(lat) → \(lon2),\(lat2) r=\(radius): \(p)")
                    }
                }
            }
        }
        #expect(fast > 15000)
    }

    @Test func gridFindsWhatEveryCorridorFinds() throws {
        var rng = SeededGenerator(seed: 3)
        var features: [String] = []
        var lines: [[(lon: Double, lat: Double)]] = []
        for i in 0..<800 {
            var p = (lon: Double.random(in: 9...9.1, using: &rng), lat: Double.random(in: 50...50.02, using: &rng))
            var heading = Double.random(in: 0..<(2 * .pi), using: &rng)
            var line = [p]
            // mostly road steps, some long straight ones (a higher level of the grid)
            let stepDegrees = i % 50 == 0 ? 0.02 : 0.0008
            for _ in 0..<14 {
                heading += Double.random(in: -0.3...0.3, using: &rng)
                let step = stepDegrees * Double.random(in: 0.2...1, using: &rng)
                p = (
                    ((p.lon + step * sin(heading) * 1.55) * 1e7).rounded() / 1e7,
                    ((p.lat + step * cos(heading)) * 1e7).rounded() / 1e7
                )
                line.append(p)
            }
            lines.append(line)
            let coordinates = line.map { "[\($0.lon),\($0.lat)]" }.joined(separator: ",")
            let radius = Double.random(in: 5...10, using: &rng)
            features.append(
                "{\"type\":\"Feature\",\"id\":\"w\(i)\",\"geometry\":{\"type\":\"LineString\",\"coordinates\":[\(coordinates)]},"
                    + "\"properties\":{\"radius\":\(radius)}}")
        }
        let set = try fenceSet(collection(features.joined(separator: ",")))
        #expect(set.corridorLevels.count >= 2)
        let entries = set.corridorLevels.reduce(0) { $0 + $1.entries.count }
        #expect(entries < 3 * 800 * 14)
        let found = FenceHits()
        let nearby = FenceHits()
        var inside = 0
        // the corridors whose vertices' box, widened by 0.001° (over 70 m), holds the point: the
        // only ones that may contain it, found without the grid
        let boxes = lines.map { line in
            BoundingBox(
                minX: line.map(\.lon).min()! - 0.001, minY: line.map(\.lat).min()! - 0.001,
                maxX: line.map(\.lon).max()! + 0.001, maxY: line.map(\.lat).max()! + 0.001)
        }
        for k in 0..<1000 {
            let line = lines[k % lines.count]
            let v = line[Int.random(in: 0..<line.count, using: &rng)]
            let p = (
                lon: v.lon + Double.random(in: -0.0003...0.0003, using: &rng),
                lat: v.lat + Double.random(in: -0.0002...0.0002, using: &rng)
            )
            set.fences(containingLat: p.lat, lon: p.lon, into: found)
            var want: [Int] = []
            for f in 0..<set.count {
                let b = boxes[f]
                guard b.minX <= p.lon, p.lon <= b.maxX, b.minY <= p.lat, p.lat <= b.maxY else { continue }
                if set.contains(fence: f, lat: p.lat, lon: p.lon) { want.append(f) }
            }
            #expect(found.array == want, "point \(p.lat),\(p.lon)")
            inside += want.isEmpty ? 0 : 1
            nearby.removeAll()
            set.candidates(in: BoundingBox(minX: p.lon, minY: p.lat, maxX: p.lon, maxY: p.lat), into: nearby)
            #expect(Set(want).isSubset(of: Set(nearby.array)))
        }
        #expect(inside > 300)
    }

    /// Over the whole globe (across the antimeridian, beyond 80° where the cheap box gives way to
    /// the exact one, segments over a degree, radii up to 200 km, corridors that climb 30° of
    /// latitude, whose reach in longitude is their steepest segment's), the grid's answer is
    /// the one of testing every corridor.
    @Test func gridFindsWhatEveryCorridorFindsEverywhere() throws {
        var builder = FenceSetBuilder()
        var rng = SeededGenerator(seed: 11)
        var lines: [[(lon: Double, lat: Double)]] = []
        var radii: [Double] = []
        for i in 0..<300 {
            var p = (lon: Double.random(in: -180...180, using: &rng), lat: Double.random(in: -86...86, using: &rng))
            if i % 10 == 0 { p.lon = Double.random(in: 179.5...180, using: &rng) }
            let climbs = i % 7 == 0
            let step = i % 5 == 0 ? 1.4 : (climbs ? 0.9 : 0.01)
            var line = [p]
            for _ in 0..<(climbs ? 30 : 6) {
                var lon = p.lon + Double.random(in: -step...step, using: &rng)
                if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
                let lat =
                    climbs ? p.lat + (p.lat < 0 ? 1 : -1) * 0.95 : p.lat + Double.random(in: -step...step, using: &rng)
                p = (lon, min(max(lat, -89.9), 89.9))
                line.append(p)
            }
            let radius = exp(Double.random(in: log(5)...log(200_000), using: &rng))
            lines.append(line)
            radii.append(radius)
            try builder.add(id: .string("c\(i)"), shape: .corridor(CorridorShape(lines: [line], radius: radius)))
        }
        let set = builder.build()
        let found = FenceHits()
        var inside = 0
        for k in 0..<3000 {
            let line = lines[k % lines.count]
            let v = line[Int.random(in: 0..<line.count, using: &rng)]
            let reach = radii[k % lines.count] * 2 / 111_000
            let lat = min(max(v.lat + Double.random(in: -reach...reach, using: &rng), -90), 90)
            var lon = v.lon + Double.random(in: -reach...reach, using: &rng) / max(cos(lat * .pi / 180), 0.05)
            lon = lon.truncatingRemainder(dividingBy: 360)
            if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
            set.fences(containingLat: lat, lon: lon, into: found)
            let want = (0..<set.count).filter { set.contains(fence: $0, lat: lat, lon: lon) }
            #expect(found.array == want, "point \(lat),\(lon)")
            inside += want.isEmpty ? 0 : 1
        }
        #expect(inside > 1000)
    }

    /// The store keeps the corridors in map order, not the file's: each fence must still answer with
    /// its own route, radius and containment.
    @Test func corridorsInMapOrderKeepTheirFences() throws {
        var rng = SeededGenerator(seed: 5)
        var features: [String] = []
        var routes: [(lines: [[(lon: Double, lat: Double)]], radius: Double)] = []
        for i in 0..<300 {
            // scattered over a country, as a file's way ids are; some with two lines
            var lines: [[(lon: Double, lat: Double)]] = []
            for _ in 0..<(i % 7 == 0 ? 2 : 1) {
                var p = (lon: Double.random(in: 6...15, using: &rng), lat: Double.random(in: 47...55, using: &rng))
                var line = [p]
                for _ in 0..<Int.random(in: 1...6, using: &rng) {
                    p = (
                        ((p.lon + Double.random(in: -0.002...0.002, using: &rng)) * 1e7).rounded() / 1e7,
                        ((p.lat + Double.random(in: -0.002...0.002, using: &rng)) * 1e7).rounded() / 1e7
                    )
                    line.append(p)
                }
                lines.append(line)
            }
            let radius = Double(5 + i % 6)
            routes.append((lines, radius))
            let coordinates = lines.map { line in
                "[" + line.map { "[\($0.lon),\($0.lat)]" }.joined(separator: ",") + "]"
            }
            let geometry =
                lines.count == 1
                ? "{\"type\":\"LineString\",\"coordinates\":\(coordinates[0])}"
                : "{\"type\":\"MultiLineString\",\"coordinates\":[\(coordinates.joined(separator: ","))]}"
            features.append(
                "{\"type\":\"Feature\",\"id\":\"w\(i)\",\"geometry\":\(geometry),\"properties\":{\"radius\":\(radius)}}"
            )
        }
        let set = try fenceSet(collection(features.joined(separator: ",")))
        #expect(set.corridors.fence.map(Int.init) != Array(0..<300), "the store is in file order")
        let hits = FenceHits()
        for (f, route) in routes.enumerated() {
            let shape = try #require(set.corridor(f))
            #expect(shape.radius == route.radius)
            #expect(shape.lines.map { $0.map(\.lon) } == route.lines.map { $0.map(\.lon) }, "fence \(f)")
            #expect(shape.lines.map { $0.map(\.lat) } == route.lines.map { $0.map(\.lat) }, "fence \(f)")
            // on its last vertex: this fence among the hits, and contained by its own test
            let end = route.lines[route.lines.count - 1].last!
            set.fences(containingLat: end.lat, lon: end.lon, into: hits)
            #expect(hits.array.contains(f), "fence \(f)")
            #expect(set.contains(fence: f, lat: end.lat, lon: end.lon))
        }
    }
}
