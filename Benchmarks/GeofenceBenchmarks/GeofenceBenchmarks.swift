import Benchmark
import Geofence

let benchmarks: @Sendable () -> Void = {
    Benchmark("placeholder") { _ in blackHole(0) }
}
