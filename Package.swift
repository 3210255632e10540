// swift-tools-version: 6.1
// Layout and dependency direction: see docs/architecture.md. Linux only: Serial and
// the runtime wrap termios, poll, libudev and posix_spawn through Glibc.
import Foundation
import PackageDescription

let package = Package(
    name: "gpsfence",
    products: [
        .executable(name: "gpsfence", targets: ["gpsfence"]),
        .library(name: "NMEA", targets: ["NMEA"]),
        .library(name: "Geofence", targets: ["Geofence"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // The one JSON writer (byte buffer, escaping, number formatting). No Foundation, no dependencies.
        .target(name: "JSONOutput", path: "Sources/JSON"),
        // bytes -> sentences -> typed sentences -> fixes. No I/O, no Foundation.
        .target(name: "NMEA", dependencies: ["JSONOutput"]),
        .systemLibrary(
            name: "CUdev",
            pkgConfig: "libudev",
            providers: [.apt(["libudev-dev"])]
        ),
        .systemLibrary(
            name: "CMosquitto",
            pkgConfig: "libmosquitto",
            providers: [.apt(["libmosquitto-dev"])]
        ),
        // termios, poll, socket and libudev wrappers; the only place those are called.
        .target(
            name: "Serial",
            dependencies: [
                "NMEA", "CUdev", "JSONOutput",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // fences, file formats, spatial index, SIMD containment, event state machine.
        .target(name: "Geofence", dependencies: ["NMEA", "JSONOutput"]),
        // child processes: posix_spawn in a process group of its own, a clean signal mask, input
        // fed without blocking, timeouts that kill the whole group. The only place that spawns.
        .target(name: "Spawn", dependencies: ["NMEA"]),
        // event sinks (console, bell, hooks, notify, webhook and MQTT deliveries).
        .target(
            name: "Alerts",
            dependencies: [
                "Geofence", "NMEA", "Serial", "JSONOutput", "CMosquitto", "Spawn",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // fallocate(2), which the Glibc module does not declare.
        .systemLibrary(name: "CFileSpace"),
        // persistent state: fence states, event log, visits, the outbox, track and odometer.
        .target(
            name: "Store",
            dependencies: ["Geofence", "NMEA", "CFileSpace", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // the read-only presentation of the state file: status, visits, the live view's frame, the
        // field report and its exports. Below the runtime: it reads the store, never runs the engine.
        .target(name: "Views", dependencies: ["JSONOutput", "NMEA", "Geofence", "Store"]),
        // the engine loop (source -> ring -> engine -> store -> sinks) and the jobs.
        // Named FenceRuntime, kept in Sources/Runtime: a module called `Runtime` would shadow the
        // toolchain's own `Runtime` module, which ordo-one/benchmark imports.
        .target(
            name: "FenceRuntime",
            dependencies: [
                "JSONOutput", "NMEA", "Serial", "Geofence", "Alerts", "Store", "Views",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "Sources/Runtime"
        ),
        // argument parsing and wiring only.
        .executableTarget(
            name: "gpsfence",
            dependencies: [
                "NMEA", "Serial", "Geofence", "Alerts", "Store", "Views", "FenceRuntime",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "NMEATests", dependencies: ["NMEA", "JSONOutput"]),
        .testTarget(name: "GeofenceTests", dependencies: ["Geofence", "NMEA"], exclude: ["Fixtures"]),
        .testTarget(name: "RuntimeTests", dependencies: ["FenceRuntime", "NMEA", "Store", "Alerts", "Geofence"]),
        .testTarget(name: "ViewsTests", dependencies: ["Views", "Geofence", "NMEA", "Store"]),
        .testTarget(name: "StoreTests", dependencies: ["Store", "Geofence", "NMEA", "Alerts"]),
        .testTarget(name: "AlertsTests", dependencies: ["Alerts", "Geofence", "NMEA", "Serial", "Spawn"]),
        .testTarget(name: "SerialTests", dependencies: ["Serial", "NMEA", "Geofence", "FenceRuntime"]),
        .testTarget(name: "EndToEndTests", dependencies: ["gpsfence", "JSONOutput"]),
    ],
    swiftLanguageModes: [.v6]
)

// Benchmarks (ordo-one/benchmark) are built only when asked for, so that the everyday build and CI
// never fetch or compile the benchmark framework:
//   GPSFENCE_BENCHMARKS=1 swift package --disable-sandbox benchmark
if ProcessInfo.processInfo.environment["GPSFENCE_BENCHMARKS"] != nil {
    package.dependencies.append(
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]))
    let benchmark: [Target.Dependency] = [.product(name: "Benchmark", package: "benchmark")]
    let plugins: [Target.PluginUsage] = [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    package.targets += [
        .executableTarget(
            name: "NMEABenchmarks", dependencies: ["NMEA"] + benchmark,
            path: "Benchmarks/NMEABenchmarks", plugins: plugins),
        .executableTarget(
            name: "GeofenceBenchmarks", dependencies: ["Geofence"] + benchmark,
            path: "Benchmarks/GeofenceBenchmarks", plugins: plugins),
        .executableTarget(
            name: "GpsdBenchmarks", dependencies: ["Serial", "NMEA"] + benchmark,
            path: "Benchmarks/GpsdBenchmarks", plugins: plugins),
        .executableTarget(
            name: "EngineBenchmarks", dependencies: ["Geofence", "NMEA"] + benchmark,
            path: "Benchmarks/EngineBenchmarks", plugins: plugins),
    ]
}
