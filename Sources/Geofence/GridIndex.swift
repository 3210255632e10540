#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One level of the hierarchical grid: a regular grid of (lon, lat) cells over the extent of the
/// fences assigned to it, with its entries in compressed rows (CSR). Circle entries carry copies
/// of the circle's unit vector and squared chord so the SIMD kernel reads them contiguously; each
/// cell's circle run is padded to a multiple of four. Polygon entries are polygon indices.
final class GridLevel: @unchecked Sendable {
    let x0: Double, y0: Double, invX: Double, invY: Double
    let nx: Int, ny: Int
    let circleStart: FrozenArray<Int32>
    let cx: FrozenArray<Double>, cy: FrozenArray<Double>, cz: FrozenArray<Double>, climit: FrozenArray<Double>
    let cfence: FrozenArray<Int32>
    let polyStart: FrozenArray<Int32>
    let poly: FrozenArray<Int32>
    let cellSizeY: Double

    init(x0: Double, y0: Double, sx: Double, sy: Double, nx: Int, ny: Int, circleStart: [Int32], cx: [Double],
         cy: [Double], cz: [Double], climit: [Double], cfence: [Int32], polyStart: [Int32], poly: [Int32]) {
        self.x0 = x0; self.y0 = y0; invX = 1 / sx; invY = 1 / sy; self.nx = nx; self.ny = ny
        cellSizeY = sy
        self.circleStart = FrozenArray(circleStart)
        self.cx = FrozenArray(cx); self.cy = FrozenArray(cy); self.cz = FrozenArray(cz)
        self.climit = FrozenArray(climit); self.cfence = FrozenArray(cfence)
        self.polyStart = FrozenArray(polyStart); self.poly = FrozenArray(poly)
    }

    var bytes: Int {
        circleStart.bytes + cx.bytes * 4 + cfence.bytes + polyStart.bytes + poly.bytes
    }

    /// The cell holding (x, y), or -1 outside the level's extent.
    @inline(__always)
    func cell(x: Double, y: Double) -> Int {
        let fx = (x - x0) * invX, fy = (y - y0) * invY
        guard fx >= 0, fy >= 0, fx < Double(nx), fy < Double(ny) else { return -1 }
        return Int(fy) * nx + Int(fx)
    }

    /// Cell column/row range covered by a box, clamped to the grid; nil when disjoint.
    func cellRange(_ b: BoundingBox) -> (Int, Int, Int, Int)? {
        let fx0 = (b.minX - x0) * invX, fx1 = (b.maxX - x0) * invX
        let fy0 = (b.minY - y0) * invY, fy1 = (b.maxY - y0) * invY
        if fx1 < 0 || fy1 < 0 || fx0 >= Double(nx) || fy0 >= Double(ny) { return nil }
        return (clampCell(fx0, nx), clampCell(fx1, nx), clampCell(fy0, ny), clampCell(fy1, ny))
    }
}

@inline(__always)
func clampCell(_ f: Double, _ n: Int) -> Int {
    if !(f > 0) { return 0 }
    if f >= Double(n - 1) { return n - 1 }
    return Int(f)
}

/// Something to index: a box and the shape it belongs to.
struct IndexItem {
    var box: BoundingBox
    /// Circle index (into `CircleStore`) when >= 0, else polygon index `~shape`.
    var shape: Int32
}

/// Builds the hierarchical grid. Level k has cells of `s0·2^k` degrees of latitude (and that times
/// 1/cos(mean latitude) of longitude); a box goes to the lowest level whose cell is at least its
/// size, so it covers at most 2×2 cells there. `s0` is the median box size (times `cellScale`), so
/// most fences share level 0 and a point query reads one cell per non-empty level. Cells per level
/// are capped near four per entry, so memory stays proportional to the fences whatever their spread.
/// Cost: two linear passes per level after one sample sort, O(n).
enum GridBuilder {
    static func build(items: [IndexItem], circles: CircleStore, unit: (x: [Double], y: [Double], z: [Double], limit: [Double]),
                      cellScale: Double = 1) -> [GridLevel] {
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
        while k < items.count { sample.append(size(items[k].box)); k += step }
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
            levels.append(buildLevel(l, items: items, levelOf: levelOf, n: perLevel[l], s0: s0, aspect: aspect,
                                     unit: unit, circleFence: circles.fence))
        }
        return levels
    }

    static func buildLevel(_ l: Int, items: [IndexItem], levelOf: [UInt8], n: Int, s0: Double, aspect: Double,
                           unit: (x: [Double], y: [Double], z: [Double], limit: [Double]), circleFence: [Int32]) -> GridLevel {
        var lx = Double.infinity, ly = Double.infinity, hx = -Double.infinity, hy = -Double.infinity
        for (i, item) in items.enumerated() where levelOf[i] == l {
            lx = min(lx, item.box.minX); ly = min(ly, item.box.minY)
            hx = max(hx, item.box.maxX); hy = max(hy, item.box.maxY)
        }
        var sy = s0 * pow(2, Double(l)), sx = sy * aspect
        var nx = 1, ny = 1
        while true {
            nx = Int(min((hx - lx) / sx, 1e9)) + 1
            ny = Int(min((hy - ly) / sy, 1e9)) + 1
            if nx * ny <= 4 * n + 64 { break }
            sx *= 1.4142135623730951; sy *= 1.4142135623730951
        }
        let cells = nx * ny
        let invX = 1 / sx, invY = 1 / sy
        var ccount = [Int32](repeating: 0, count: cells + 1)
        var pcount = [Int32](repeating: 0, count: cells + 1)
        @inline(__always) func range(_ b: BoundingBox) -> (Int, Int, Int, Int) {
            (clampCell((b.minX - lx) * invX, nx), clampCell((b.maxX - lx) * invX, nx),
             clampCell((b.minY - ly) * invY, ny), clampCell((b.maxY - ly) * invY, ny))
        }
        for (i, item) in items.enumerated() where levelOf[i] == l {
            let (a, b, c, d) = range(item.box)
            for row in c...d {
                for col in a...b {
                    if item.shape >= 0 { ccount[row * nx + col] += 1 } else { pcount[row * nx + col] += 1 }
                }
            }
        }
        // prefix sums (circle runs padded to multiples of four)
        var cstart = [Int32](repeating: 0, count: cells + 1)
        var pstart = [Int32](repeating: 0, count: cells + 1)
        var ct = 0, pt = 0
        for c in 0..<cells {
            cstart[c] = Int32(ct); pstart[c] = Int32(pt)
            ct += (Int(ccount[c]) + 3) & ~3
            pt += Int(pcount[c])
        }
        cstart[cells] = Int32(ct); pstart[cells] = Int32(pt)
        var cx = [Double](repeating: 0, count: ct), cy = cx, cz = cx
        var climit = [Double](repeating: -1, count: ct)
        var cfence = [Int32](repeating: -1, count: ct)
        var poly = [Int32](repeating: 0, count: pt)
        var cfill = cstart, pfill = pstart
        for (i, item) in items.enumerated() where levelOf[i] == l {
            let (a, b, c, d) = range(item.box)
            for row in c...d {
                for col in a...b {
                    let cell = row * nx + col
                    if item.shape >= 0 {
                        let s = Int(item.shape), o = Int(cfill[cell])
                        cx[o] = unit.x[s]; cy[o] = unit.y[s]; cz[o] = unit.z[s]; climit[o] = unit.limit[s]
                        cfence[o] = circleFence[s]
                        cfill[cell] += 1
                    } else {
                        poly[Int(pfill[cell])] = ~item.shape
                        pfill[cell] += 1
                    }
                }
            }
        }
        return GridLevel(x0: lx, y0: ly, sx: sx, sy: sy, nx: nx, ny: ny, circleStart: cstart, cx: cx, cy: cy, cz: cz,
                         climit: climit, cfence: cfence, polyStart: pstart, poly: poly)
    }
}
