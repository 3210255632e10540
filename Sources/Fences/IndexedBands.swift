import Dispatch

/// Builds the bands of the huge (indexed) polygons on a second thread while the loader parses on:
/// working out a border's bands takes about half as long as parsing its coordinates, so on two
/// cores it costs the load nothing.
///
/// The loader hands over each polygon's vertices in place (`add`); they are in the store's vertex
/// buffer, which waits for this builder before it moves (`PolygonStore.init`), and the loader never
/// writes a vertex it has handed over. The edge lists and band boundaries grow here only; the
/// loader reads them after `finish`.
final class IndexedBands: @unchecked Sendable {
    struct Built {
        let polygon: Int
        let plan: BandPlan
        /// First boundary in `bandStart`.
        let bandBase: Int
    }

    /// Per band, the index of each edge's first vertex, from the polygon's first vertex.
    let edgeIndex = GrowableBuffer<UInt32>()
    /// Band boundaries in `edgeIndex`: `bandCount + 1` per polygon.
    let bandStart = GrowableBuffer<Int32>()
    /// What was built, in the order handed over; touched on `queue` only.
    private var built: [Built] = []
    private let queue = DispatchQueue(label: "gpsfence.polygon-bands")
    /// Entries the polygons handed over may need at most; the loader's thread only.
    private(set) var entriesBound = 0

    /// Hands over polygon `polygon`: `edges` edges over the vertices from `vertices` (lon, lat
    /// pairs), rings ending at `ringEnds` (in vertices).
    func add(polygon: Int, vertices: UnsafePointer<Double>, edges: Int, ringEnds: [Int], edgesPerBand: Int) {
        entriesBound += PolygonStore.entriesBound(edges: edges)
        let address = Int(bitPattern: vertices)
        let doubles = 2 * (ringEnds.last ?? 0)
        queue.async {
            let c = UnsafeBufferPointer(start: UnsafePointer<Double>(bitPattern: address), count: doubles)
            self.build(polygon: polygon, c, edges: edges, ringEnds: ringEnds, edgesPerBand: edgesPerBand)
        }
    }

    private func build(polygon: Int, _ c: UnsafeBufferPointer<Double>, edges: Int, ringEnds: [Int], edgesPerBand: Int) {
        let plan = BandPlan(c, ringEnds: ringEnds, edges: edges, edgesPerBand: edgesPerBand)
        let base = edgeIndex.count
        let bandBase = bandStart.count
        var offsets = [Int](repeating: 0, count: plan.bands)
        var total = 0
        bandStart.append(Int32(base))
        for i in 0..<plan.bands {
            offsets[i] = total
            total += plan.counts[i]
            bandStart.append(Int32(base + total))
        }
        let out = edgeIndex.appendUninitialized(count: total)
        offsets.withUnsafeMutableBufferPointer { offsets in
            plan.forEachEdge(c, ringEnds: ringEnds) { k, first, last in
                for i in first...last {
                    out[offsets[i]] = UInt32(k)
                    offsets[i] += 1
                }
            }
        }
        built.append(Built(polygon: polygon, plan: plan, bandBase: bandBase))
    }

    /// Waits until everything handed over is built.
    func wait() { queue.sync {} }

    /// Waits, and returns what was built (once).
    func finish() -> [Built] {
        queue.sync {
            let done = built
            built = []
            return done
        }
    }
}
