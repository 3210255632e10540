// NMEA decoding speed and allocations over the gpsd captures (docs/performance.md: >= 300 MB/s on one core,
// no heap allocation per sentence). Figures and commands: docs/performance.md.
//
//   GPSFENCE_BENCHMARKS=1 swift package --disable-sandbox benchmark --target NMEABenchmarks
//
// One iteration = one pass over the whole input (about 50 MB). "MB/s" and "lines/s" come from a
// clock read around the pass inside the iteration (the harness's wall clock, also reported, spans
// the iteration and agrees within 1 %); MB = 10^6 bytes and lines = line feeds, as the peer script
// counts them.
import Benchmark
import Foundation
import NMEA

let benchmarks: @Sendable () -> Void = {
    // Load the input now, so that reading it is never inside a measured region.
    _ = (BenchData.bytes.count, BenchData.lines)

    let speed = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, megabytesPerSecond, linesPerSecond],
        warmupIterations: 1, scalingFactor: .one, maxDuration: .seconds(20), maxIterations: 10)

    // Framing and checksums only: the floor under everything else.
    Benchmark("Framer MB/s (captures)", configuration: speed) { benchmark in
        guard BenchData.isAvailable(for: benchmark) else { return }
        for _ in benchmark.scaledIterations {
            let framer = Framer()
            var sentences = 0
            let clock = ContinuousClock.now
            BenchData.forEachChunk { framer.push($0) { _ in sentences += 1 } }
            report(benchmark, since: clock)
            blackHole(sentences)
        }
    }

    // The live-port path: framer + Sentence + FixAssembler.
    Benchmark("Decoder MB/s (captures)", configuration: speed) { benchmark in
        guard BenchData.isAvailable(for: benchmark) else { return }
        for _ in benchmark.scaledIterations {
            let decoder = Decoder()
            var fixes = 0
            let clock = ContinuousClock.now
            BenchData.forEachChunk { decoder.push($0) { _ in fixes += 1 } }
            decoder.finish { _ in fixes += 1 }
            report(benchmark, since: clock)
            blackHole(fixes)
        }
    }

    // The replay path (`decode`, `replay`): the same plus `#` comment-line skipping.
    Benchmark("Decoder+comments MB/s (captures)", configuration: speed) { benchmark in
        guard BenchData.isAvailable(for: benchmark) else { return }
        for _ in benchmark.scaledIterations {
            let decoder = Decoder(skipsCommentLines: true)
            var fixes = 0
            let clock = ContinuousClock.now
            BenchData.forEachChunk { decoder.push($0) { _ in fixes += 1 } }
            decoder.finish { _ in fixes += 1 }
            report(benchmark, since: clock)
            blackHole(fixes)
        }
    }

    let allocations = Benchmark.Configuration(
        metrics: [.mallocCountTotal, sentences, fixesMetric], warmupIterations: 0, scalingFactor: .one,
        maxDuration: .seconds(30), maxIterations: 3)

    // Steady state: the first pass warms the decoder up (unmeasured), the second pass is counted.
    Benchmark("Decoder allocations, second pass", configuration: allocations) { benchmark in
        guard BenchData.isAvailable(for: benchmark) else { return }
        let decoder = Decoder()
        BenchData.forEachChunk { decoder.push($0) { blackHole($0) } }
        let before = (decoder.framer.counters.sentences, decoder.fixes)
        benchmark.startMeasurement()
        BenchData.forEachChunk { decoder.push($0) { blackHole($0) } }
        benchmark.stopMeasurement()
        benchmark.measurement(sentences, Int(decoder.framer.counters.sentences - before.0))
        benchmark.measurement(fixesMetric, Int(decoder.fixes - before.1))
    }

    // For comparison: creating the decoder plus one pass from cold.
    Benchmark("Decoder allocations, create + first pass", configuration: allocations) { benchmark in
        guard BenchData.isAvailable(for: benchmark) else { return }
        let decoder = Decoder()
        BenchData.forEachChunk { decoder.push($0) { blackHole($0) } }
        benchmark.measurement(sentences, Int(decoder.framer.counters.sentences))
        benchmark.measurement(fixesMetric, Int(decoder.fixes))
    }
}

let megabytesPerSecond = BenchmarkMetric.custom("MB/s", polarity: .prefersLarger, useScalingFactor: false)
let linesPerSecond = BenchmarkMetric.custom("lines/s", polarity: .prefersLarger, useScalingFactor: false)
let sentences = BenchmarkMetric.custom("sentences", polarity: .prefersLarger, useScalingFactor: false)
let fixesMetric = BenchmarkMetric.custom("fixes", polarity: .prefersLarger, useScalingFactor: false)

/// Records MB/s and lines/s for one pass that started at `start`.
func report(_ benchmark: Benchmark, since start: ContinuousClock.Instant) {
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    benchmark.measurement(megabytesPerSecond, Int((Double(BenchData.bytes.count) / 1e6 / seconds).rounded()))
    benchmark.measurement(linesPerSecond, Int((Double(BenchData.lines) / seconds).rounded()))
}
