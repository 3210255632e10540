/// A regular grid of (lon, lat) cells: its origin, cells per degree each way and cell counts. The
/// frame of a level of the fences' grid (`LevelView`) and of the corridors' (`CorridorLevelView`).
struct GridFrame: Sendable {
    let x0: Double, y0: Double, invX: Double, invY: Double
    let nx: Int, ny: Int

    init(x0: Double, y0: Double, sx: Double, sy: Double, nx: Int, ny: Int) {
        self.x0 = x0
        self.y0 = y0
        invX = 1 / sx
        invY = 1 / sy
        self.nx = nx
        self.ny = ny
    }

    var cells: Int { nx * ny }

    /// The cell holding (x, y), or -1 outside the grid's extent.
    @inline(__always)
    func cell(x: Double, y: Double) -> Int {
        let fx = (x - x0) * invX
        let fy = (y - y0) * invY
        guard fx >= 0, fy >= 0, fx < Double(nx), fy < Double(ny) else { return -1 }
        return Int(fy) * nx + Int(fx)
    }

    /// Cell column/row range covered by a box, clamped to the grid; nil when disjoint.
    func cellRange(_ b: BoundingBox) -> (Int, Int, Int, Int)? {
        let fx0 = (b.minX - x0) * invX
        let fx1 = (b.maxX - x0) * invX
        let fy0 = (b.minY - y0) * invY
        let fy1 = (b.maxY - y0) * invY
        if fx1 < 0 || fy1 < 0 || fx0 >= Double(nx) || fy0 >= Double(ny) { return nil }
        return clampedRange(b)
    }

    /// Cell column/row range covered by a box, clamped to the grid (for a box within its extent).
    @inline(__always)
    func clampedRange(_ b: BoundingBox) -> (Int, Int, Int, Int) {
        (
            clampCell((b.minX - x0) * invX, nx), clampCell((b.maxX - x0) * invX, nx),
            clampCell((b.minY - y0) * invY, ny), clampCell((b.maxY - y0) * invY, ny)
        )
    }
}

@inline(__always)
func clampCell(_ f: Double, _ n: Int) -> Int {
    if !(f > 0) { return 0 }
    if f >= Double(n - 1) { return n - 1 }
    return Int(f)
}
