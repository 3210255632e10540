import Platform

/// One level of the hierarchical grid: a regular grid of (lon, lat) cells over the extent of the
/// fences assigned to it, with its entries in compressed rows (CSR). `starts[2c]`, `starts[2c+1]`
/// are the first circle and polygon entries of cell c (so one cache line holds a cell's ranges).
/// Circle entries are blocks of four `[x×4, y×4, z×4, chord²×4]` (unit vector and squared chord
/// copied from the circle, so the SIMD kernel reads 128 contiguous bytes); each cell's circle run
/// is padded to whole blocks with chord² = -1. Polygon entries carry the polygon's box inline. Corridor
/// segments have their own grid (`CorridorLevel`).
final class GridLevel: @unchecked Sendable {
    let starts: FrozenArray<Int32>
    let cblocks: FrozenArray<SIMD4<Double>>
    let cfence: FrozenArray<Int32>
    let pbox: FrozenArray<SIMD4<Double>>
    let poly: FrozenArray<Int32>
    let view: LevelView

    init(
        frame: GridFrame, starts: FrozenArray<Int32>, cblocks: FrozenArray<SIMD4<Double>>,
        cfence: FrozenArray<Int32>, pbox: FrozenArray<SIMD4<Double>>, poly: FrozenArray<Int32>
    ) {
        self.starts = starts
        self.cblocks = cblocks
        self.cfence = cfence
        self.pbox = pbox
        self.poly = poly
        view = LevelView(
            frame: frame, starts: self.starts.base,
            cblocks: self.cblocks.base, cfence: self.cfence.base, pbox: self.pbox.base, poly: self.poly.base)
    }

    var bytes: Int { starts.bytes + cblocks.bytes + cfence.bytes + pbox.bytes + poly.bytes }
}

/// A level's geometry and raw pointers, for the query loop (no reference counting there). The
/// pointers stay valid as long as the owning `GridLevel` (held by the `FenceSet`).
struct LevelView: @unchecked Sendable {
    let frame: GridFrame
    let starts: UnsafeMutablePointer<Int32>
    let cblocks: UnsafeMutablePointer<SIMD4<Double>>
    let cfence: UnsafeMutablePointer<Int32>
    let pbox: UnsafeMutablePointer<SIMD4<Double>>
    let poly: UnsafeMutablePointer<Int32>
}

/// Something to index: a box and the shape it belongs to.
struct IndexItem {
    enum Kind {
        /// `shape` indexes `CircleStore`: an entry of the SIMD circle run.
        case circle
        /// `shape` indexes the polygons: an entry `shape` of the boxed run.
        case polygon
    }
    var box: BoundingBox
    var kind: Kind
    var shape: Int32
}

/// Builds the hierarchical grid. Level k has cells of `s0·2^k` degrees of latitude (and that times
/// 1/cos(mean latitude) of longitude); a box goes to the lowest level whose cell is at least its
/// size, so it covers at most 2×2 cells there. `s0` is the median box size times `cellScale` (the
/// loaders pass 2: measured best on the 10k-mixed and 1M-circle workloads, see docs/fences.md), so
/// most fences share level 0 and a point query reads one cell per non-empty level. Cells per level
/// are capped near four per entry, so memory stays proportional to the fences whatever their spread.
/// Cost: two linear passes per level after one sample sort, O(n).
enum GridBuilder {
    static func build(
        items: [IndexItem], circles: CircleStore, unit: (x: [Double], y: [Double], z: [Double], limit: [Double]),
        cellScale: Double
    ) -> [GridLevel] {
        guard !items.isEmpty else { return [] }
        // aspect: longitude degrees per latitude degree of equal length, at the mean latitude
        var latSum = 0.0
        let step = max(1, items.count / 20000)
        var sample: [Double] = []
        var k = 0
        while k < items.count {
            latSum += (items[k].box.minY + items[k].box.maxY) * 0.5
            k += step
        }
        let meanLat = latSum / Double((items.count + step - 1) / step)
        let aspect = min(max(1 / cos(meanLat * Geodesy.degree), 1), 8)
        func size(_ b: BoundingBox) -> Double { max((b.maxX - b.minX) / aspect, b.maxY - b.minY) }
        k = 0
        while k < items.count {
            sample.append(size(items[k].box))
            k += step
        }
        sample.sort()
        var s0 = sample[sample.count / 2] * cellScale
        if !(s0 > 1e-7) { s0 = 1e-5 }
        var levelOf = [UInt8](repeating: 0, count: items.count)
        var perLevel = [Int](repeating: 0, count: 64)
        for (i, item) in items.enumerated() {
            let s = size(item.box)
            let l = s <= s0 ? 0 : min(Int(ceil(log2(s / s0))), 63)
            levelOf[i] = UInt8(l)
            perLevel[l] += 1
        }
        var levels: [GridLevel] = []
        for l in 0..<64 where perLevel[l] > 0 {
            levels.append(
                buildLevel(
                    l, items: items, levelOf: levelOf, n: perLevel[l], s0: s0, aspect: aspect,
                    unit: unit, circleFence: circles.fence))
        }
        return levels
    }

    static func buildLevel(
        _ l: Int, items: [IndexItem], levelOf: [UInt8], n: Int, s0: Double, aspect: Double,
        unit: (x: [Double], y: [Double], z: [Double], limit: [Double]), circleFence: [Int32]
    ) -> GridLevel {
        var lx = Double.infinity
        var ly = Double.infinity
        var hx = -Double.infinity
        var hy = -Double.infinity
        for (i, item) in items.enumerated() where levelOf[i] == l {
            lx = min(lx, item.box.minX)
            ly = min(ly, item.box.minY)
            hx = max(hx, item.box.maxX)
            hy = max(hy, item.box.maxY)
        }
        var sy = s0 * pow(2, Double(l))
        var sx = sy * aspect
        var nx = 1
        var ny = 1
        while true {
            nx = Int(min((hx - lx) / sx, 1e9)) + 1
            ny = Int(min((hy - ly) / sy, 1e9)) + 1
            if nx * ny <= 4 * n + 64 { break }
            sx *= 1.4142135623730951
            sy *= 1.4142135623730951
        }
        let frame = GridFrame(x0: lx, y0: ly, sx: sx, sy: sy, nx: nx, ny: ny)
        let cells = frame.cells
        var ccount = [Int32](repeating: 0, count: cells + 1)
        var pcount = [Int32](repeating: 0, count: cells + 1)
        for (i, item) in items.enumerated() where levelOf[i] == l {
            let (a, b, c, d) = frame.clampedRange(item.box)
            for row in c...d {
                for col in a...b {
                    switch item.kind {
                    case .circle: ccount[row * nx + col] += 1
                    case .polygon: pcount[row * nx + col] += 1
                    }
                }
            }
        }
        // prefix sums (circle runs padded to whole blocks of four)
        // filled in place: no second copy of the big arrays while building
        let starts = FrozenArray<Int32>(repeating: 0, count: 2 * (cells + 1))
        var ct = 0
        var pt = 0
        for c in 0..<cells {
            starts[2 * c] = Int32(ct)
            starts[2 * c + 1] = Int32(pt)
            ct += (Int(ccount[c]) + 3) & ~3
            pt += Int(pcount[c])
        }
        starts[2 * cells] = Int32(ct)
        starts[2 * cells + 1] = Int32(pt)
        let cblocks = FrozenArray<SIMD4<Double>>(repeating: .zero, count: ct)
        for b in stride(from: 3, to: ct, by: 4) { cblocks[b] = SIMD4(repeating: -1) }
        let cfence = FrozenArray<Int32>(repeating: -1, count: ct)
        let pbox = FrozenArray<SIMD4<Double>>(repeating: .zero, count: pt)
        let poly = FrozenArray<Int32>(repeating: 0, count: pt)
        var cfill = [Int32](repeating: 0, count: cells)
        var pfill = cfill
        for c in 0..<cells {
            cfill[c] = starts[2 * c]
            pfill[c] = starts[2 * c + 1]
        }
        for (i, item) in items.enumerated() where levelOf[i] == l {
            let (a, b, c, d) = frame.clampedRange(item.box)
            for row in c...d {
                for col in a...b {
                    let cell = row * nx + col
                    switch item.kind {
                    case .circle:
                        let s = Int(item.shape)
                        let o = Int(cfill[cell])
                        let blk = o & ~3
                        let lane = o & 3
                        cblocks.base[blk][lane] = unit.x[s]
                        cblocks.base[blk + 1][lane] = unit.y[s]
                        cblocks.base[blk + 2][lane] = unit.z[s]
                        cblocks.base[blk + 3][lane] = unit.limit[s]
                        cfence[o] = circleFence[s]
                        cfill[cell] += 1
                    case .polygon:
                        let o = Int(pfill[cell])
                        poly[o] = item.shape
                        pbox[o] = SIMD4(item.box.minX, item.box.minY, item.box.maxX, item.box.maxY)
                        pfill[cell] += 1
                    }
                }
            }
        }
        return GridLevel(frame: frame, starts: starts, cblocks: cblocks, cfence: cfence, pbox: pbox, poly: poly)
    }
}
