import Benchmark
import NMEA

let benchmarks: @Sendable () -> Void = {
    Benchmark("placeholder") { _ in blackHole(Framer()) }
}
