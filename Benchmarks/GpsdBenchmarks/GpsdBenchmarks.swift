// gpsd report reading (docs/hardware.md): gpsd's own JSON lines through the bounded line buffer
// and the TPV field scanner to fixes, as `GpsdFixSource` reads them. No allocation per report.
//
//   GPSFENCE_BENCHMARKS=1 swift package --disable-sandbox benchmark --target GpsdBenchmarks
//
// Input: every JSON line of the 70 gpsd regression outputs in ../shared/captures/gpsd/*.chk (TPV,
// SKY, GST, ... as gpsd wrote them), repeated to about 20 MB, fed in 64 KiB reads.
import Benchmark
import Foundation
import NMEA
import Receivers

enum GpsdBenchData {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/captures/gpsd")

    static let bytes: [UInt8] = {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
            $0.hasSuffix(".chk")
        }.sorted()
        var once: [UInt8] = []
        for file in files {
            let text = (try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)) ?? ""
            for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("{") {
                once += Array(line.utf8) + [0x0D, 0x0A]
            }
        }
        guard !once.isEmpty else { return [] }
        var all: [UInt8] = []
        while all.count < 20_000_000 { all += once }
        return all
    }()

    static let lines = bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
}

/// One pass: 64 KiB "reads" into the line buffer, each line scanned, TPVs turned into fixes.
func readReports(_ buffer: LineBuffer, _ fixes: inout Int) {
    GpsdBenchData.bytes.withUnsafeBytes { all in
        var start = 0
        while start < all.count {
            let space = buffer.freeSpace()
            let count = min(space.count, all.count - start, 64 * 1024)
            space.copyMemory(from: UnsafeRawBufferPointer(rebasing: all[start..<(start + count)]))
            start += count
            buffer.commit(count) { line in
                guard let report = GpsdReport(line), report.reportClass == .tpv else { return }
                if let fix = report.tpv.fix {
                    fixes += 1
                    blackHole(fix)
                }
            }
        }
    }
}

let megabytesPerSecond = BenchmarkMetric.custom("MB/s", polarity: .prefersLarger, useScalingFactor: false)
let reportsPerSecond = BenchmarkMetric.custom("reports/s", polarity: .prefersLarger, useScalingFactor: false)
let reportsMetric = BenchmarkMetric.custom("reports", polarity: .prefersLarger, useScalingFactor: false)
let fixesMetric = BenchmarkMetric.custom("fixes", polarity: .prefersLarger, useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
    let speed = Benchmark.Configuration(
        metrics: [.wallClock, megabytesPerSecond, reportsPerSecond], warmupIterations: 1, scalingFactor: .one,
        maxDuration: .seconds(20), maxIterations: 5)
    Benchmark("gpsd reports: line buffer + scanner + TPV to Fix", configuration: speed) { benchmark in
        let buffer = LineBuffer()
        var fixes = 0
        let start = ContinuousClock.now
        readReports(buffer, &fixes)
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        benchmark.measurement(megabytesPerSecond, Int((Double(GpsdBenchData.bytes.count) / 1e6 / seconds).rounded()))
        benchmark.measurement(reportsPerSecond, Int((Double(GpsdBenchData.lines) / seconds).rounded()))
    }

    let allocations = Benchmark.Configuration(
        metrics: [.mallocCountTotal, reportsMetric, fixesMetric], warmupIterations: 0, scalingFactor: .one,
        maxDuration: .seconds(30), maxIterations: 3)
    // Steady state: the buffer exists (one allocation per connection); a pass is counted.
    Benchmark("gpsd reports allocations, one pass", configuration: allocations) { benchmark in
        let buffer = LineBuffer()
        var fixes = 0
        readReports(buffer, &fixes)
        fixes = 0
        benchmark.startMeasurement()
        readReports(buffer, &fixes)
        benchmark.stopMeasurement()
        benchmark.measurement(reportsMetric, GpsdBenchData.lines)
        benchmark.measurement(fixesMetric, fixes)
    }
}
