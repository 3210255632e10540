import Benchmark
import Foundation

/// The benchmark input: the gpsd captures concatenated to >= 50 MB (docs/performance.md), read once.
///
/// Found at `$GPSFENCE_NMEA_BENCH_DATA`, else `bench-data/captures.nmea` in the package root
/// (located from this source file, so the working directory does not matter).
enum BenchData {
    static let path: String = {
        if let path = ProcessInfo.processInfo.environment["GPSFENCE_NMEA_BENCH_DATA"] { return path }
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent("bench-data/captures.nmea").path
    }()

    /// The bytes, or nil when the file is missing or empty.
    static let loaded: [UInt8]? = FileManager.default.contents(atPath: path).flatMap { $0.isEmpty ? nil : [UInt8]($0) }

    static var bytes: [UInt8] { loaded ?? [] }

    /// Whether there is input; if not, fails `benchmark` with the command that makes the file
    /// (the harness reports `error` messages; the process's stderr is not shown).
    static func isAvailable(for benchmark: Benchmark) -> Bool {
        guard loaded == nil else { return true }
        benchmark.error(
            """
            no input at \(path). Generate it from the package root with \
            `python3 ../shared/bench/gen_nmea.py --out bench-data/captures.nmea --mb 50 \
            --from-captures ../shared/captures` (or run scripts/bench_nmea.sh), or point \
            GPSFENCE_NMEA_BENCH_DATA at an NMEA file.
            """)
        return false
    }

    /// Line feeds in the input: the "lines" of lines/s, counted as the peer script counts them.
    static let lines: Int = bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }

    /// Bytes per `push`: what one `read()` of a capture file returns.
    static let chunk = 64 * 1024

    /// Calls `body` with the input cut into `chunk`-byte pieces.
    static func forEachChunk(_ body: (UnsafeRawBufferPointer) -> Void) {
        bytes.withUnsafeBytes { all in
            var start = 0
            while start < all.count {
                let end = min(all.count, start + chunk)
                body(UnsafeRawBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
    }
}
