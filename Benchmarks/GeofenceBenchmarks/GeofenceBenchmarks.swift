import Benchmark
import Fences

#if canImport(Glibc)
    import Glibc
#endif

// Containment benchmarks (docs/performance.md) over the shared/bench workloads. Generate them first (see
// scripts/containment_vs_shapely.sh, which also runs the shapely peer in the same session):
//   bench-data/mixed_10000f_100kp.{geojson,points.csv}                 10k mixed, 50 km box
//   bench-data/mixed_100000f_100kp_500km.{geojson,points.csv}          100k mixed, 500 km box
//   bench-data/circle_1000000f_100kp_500km.{geojson,points.csv}        1M circles, 500 km box
// GPSFENCE_BENCH_DATA overrides the folder. A workload whose files are missing is skipped.

let dataFolder: String = {
    if let env = getenv("GPSFENCE_BENCH_DATA") { return String(cString: env) }
    return "bench-data"
}()

struct Workload: @unchecked Sendable {
    let name: String
    let fences: FenceSet
    let points: [GeoPoint]
}

func path(_ prefix: String, _ suffix: String) -> String { "\(dataFolder)/\(prefix).\(suffix)" }

func exists(_ p: String) -> Bool { access(p, R_OK) == 0 }

func readPoints(_ p: String) -> [GeoPoint] {
    guard let f = fopen(p, "r") else { return [] }
    defer { fclose(f) }
    var out: [GeoPoint] = []
    var lat = 0.0
    var lon = 0.0
    while withUnsafeMutablePointer(
        to: &lat,
        { la in
            withUnsafeMutablePointer(to: &lon) { lo in
                withVaList([la, lo]) { vfscanf(f, "%lf,%lf\n", $0) }
            }
        }) == 2
    {
        out.append(GeoPoint(lat: lat, lon: lon))
    }
    return out
}

nonisolated(unsafe) var loaded: [String: Workload] = [:]
nonisolated(unsafe) var cursor: [String: Int] = [:]

func workload(_ prefix: String) -> Workload? {
    if let w = loaded[prefix] { return w }
    guard exists(path(prefix, "geojson")), exists(path(prefix, "points.csv")),
        let set = try? FenceSet.load(path: path(prefix, "geojson"))
    else { return nil }
    let w = Workload(name: prefix, fences: set, points: readPoints(path(prefix, "points.csv")))
    loaded[prefix] = w
    return w
}

let workloads = [
    ("10k mixed 50km", "mixed_10000f_100kp"),
    ("100k mixed 500km", "mixed_100000f_100kp_500km"),
    ("1M circles 500km", "circle_1000000f_100kp_500km"),
]

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
        warmupIterations: 1, maxDuration: .seconds(3), maxIterations: 1_000_000)

    for (label, prefix) in workloads where exists(path(prefix, "geojson")) {
        // Load: parse + validate + index, per file.
        Benchmark(
            "load \(label)",
            configuration: .init(
                metrics: [.wallClock, .peakMemoryResident, .mallocCountTotal], warmupIterations: 0,
                maxDuration: .seconds(20),
                maxIterations: 3)
        ) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try FenceSet.load(path: path(prefix, "geojson")))
            }
        }

        // One point at a time, as the engine calls it once per fix. 1 iteration = 1 query; the
        // malloc count per iteration is the allocations per query.
        Benchmark("query one at a time \(label)", configuration: .init(scalingFactor: .kilo)) { benchmark in
            guard let w = workload(prefix) else { return }
            let hits = FenceHits()
            // the cursor carries over between iterations, so all 100k points are visited in file
            // order (random positions: no cache warmth from repeating a few points)
            var i = cursor[prefix, default: 0]
            var found = 0
            let n = w.points.count
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let p = w.points[i]
                w.fences.fences(containingLat: p.lat, lon: p.lon, into: hits)
                found &+= hits.count
                i += 1
                if i == n { i = 0 }
            }
            benchmark.stopMeasurement()
            cursor[prefix] = i
            blackHole(found)
        }

        // Batch: all 100,000 points of the workload per iteration, on one thread.
        Benchmark("query batch of 100k \(label)", configuration: .init(maxIterations: 20)) { benchmark in
            guard let w = workload(prefix) else { return }
            var found = 0
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                found &+= w.points.withUnsafeBufferPointer { PointBatch(w.fences, points: $0).totalHits }
            }
            benchmark.stopMeasurement()
            blackHole(found)
        }
    }
}
