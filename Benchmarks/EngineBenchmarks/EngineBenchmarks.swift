import Benchmark
import Events
import Fences
import Foundation
import NMEA

/// The event engine over a one-hour 10 Hz drive against 10,000 mixed fences, and over an hour's
/// drive along 10,000 roads matched fix by fix (docs/performance.md: no heap allocation per fix in
/// steady state). Data: `bash scripts/bench_engine.sh --data-only` writes it to bench-data/ (or
/// set GPSFENCE_BENCH_DATA).
let benchmarks: @Sendable () -> Void = {
    let folder = ProcessInfo.processInfo.environment["GPSFENCE_BENCH_DATA"] ?? "bench-data"
    let capture = folder + "/engine_1h_10hz.nmea"
    let fencesPath = folder + "/engine_10000f_trace.geojson"
    guard FileManager.default.fileExists(atPath: capture), FileManager.default.fileExists(atPath: fencesPath) else {
        print("EngineBenchmarks: no data in \(folder)/: run `bash scripts/bench_engine.sh --data-only` first")
        return
    }
    let roadsPath = folder + "/road_matching_roads.geojson"
    let roadDrive = folder + "/road_matching_drive.nmea"
    guard FileManager.default.fileExists(atPath: roadsPath), FileManager.default.fileExists(atPath: roadDrive) else {
        print("EngineBenchmarks: no roads in \(folder)/: run `bash scripts/bench_engine.sh --data-only` first")
        return
    }
    let fences = try! FenceSet.load(path: fencesPath)
    let fixes = decode(capture)
    let half = fixes.count / 2
    let roads = try! FenceSet.load(path: roadsPath)
    let roadFixes = decode(roadDrive)
    let roadHalf = roadFixes.count / 2

    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident], maxDuration: .seconds(20),
        maxIterations: 5)

    // What the harness itself allocates in a measured region, to subtract.
    Benchmark("baseline: an empty measured region") { benchmark in
        benchmark.startMeasurement()
        blackHole(fixes.count)
        benchmark.stopMeasurement()
    }

    // Warm up on the first half (scratch lists reach their working size), measure the second.
    Benchmark(
        "engine, steady state: second half hour of fixes (\(fixes.count - half) fixes, 10k mixed fences)",
        configuration: .init(scalingFactor: .one)
    ) { benchmark in
        let engine = EventEngine(fences: fences)
        var events = 0
        for fix in fixes[..<half] { engine.process(fix) { _ in events += 1 } }
        benchmark.startMeasurement()
        for fix in fixes[half...] { engine.process(fix) { blackHole($0) } }
        benchmark.stopMeasurement()
        blackHole(events)
    }

    Benchmark("engine with approach look-ahead 500 m, steady state (\(fixes.count - half) fixes)") { benchmark in
        var settings = EventSettings()
        settings.approach = 500
        let engine = EventEngine(fences: fences, settings: settings)
        for fix in fixes[..<half] { engine.process(fix) { blackHole($0) } }
        benchmark.startMeasurement()
        for fix in fixes[half...] { engine.process(fix) { blackHole($0) } }
        benchmark.stopMeasurement()
    }

    // Each fix matched to the road being driven among the corridors containing it (the roads carry
    // `highway` and a limit), and with the walk along the roads ahead.
    for approach in [nil, 500.0] {
        Benchmark(
            "engine matching roads\(approach == nil ? "" : ", approach 500 m"), steady state "
                + "(\(roadFixes.count - roadHalf) fixes, 10k roads)"
        ) { benchmark in
            var settings = EventSettings()
            settings.approach = approach
            let engine = EventEngine(fences: roads, settings: settings)
            for fix in roadFixes[..<roadHalf] { engine.process(fix) { blackHole($0) } }
            benchmark.startMeasurement()
            for fix in roadFixes[roadHalf...] { engine.process(fix) { blackHole($0) } }
            benchmark.stopMeasurement()
        }
    }
}

func decode(_ path: String) -> [Fix] {
    let data = FileManager.default.contents(atPath: path)!
    let decoder = Decoder()
    var fixes: [Fix] = []
    data.withUnsafeBytes { decoder.push($0) { fixes.append($0) } }
    decoder.finish { fixes.append($0) }
    return fixes
}
