// swift-tools-version: 6.1
// Layout and dependency direction: see docs/architecture.md. Linux only: Platform wraps termios,
// poll, sockets, inotify, libudev, posix_spawn and fallocate through Glibc.
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
        // fallocate(2), which the Glibc module does not declare.
        .systemLibrary(name: "CFileSpace"),
        // The operating system as typed values: every syscall wrapper (termios, pseudo-terminals,
        // poll, sockets, inotify, eventfd, libudev, posix_spawn, fallocate, signals), the clocks,
        // the lock, thread names and the reconnect backoff. The only place those are called.
        .target(
            name: "Platform",
            dependencies: ["CUdev", "CFileSpace", .product(name: "SystemPackage", package: "swift-system")]
        ),
        // bytes -> sentences -> typed sentences -> fixes. No I/O, no Foundation.
        .target(name: "NMEA", dependencies: ["JSONOutput", "Platform"]),
        // the receivers: how a port is found and its rate chosen, the UBX and PMTK conversations,
        // gpsd's protocol, the reader thread and its pacing.
        .target(
            name: "Serial",
            dependencies: [
                "NMEA", "Platform", "JSONOutput",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // fences, file formats, spatial index, SIMD containment, event state machine.
        .target(name: "Geofence", dependencies: ["NMEA", "JSONOutput", "Platform"]),
        // event sinks (console, bell, hooks, notify, webhook and MQTT deliveries).
        .target(
            name: "Alerts",
            dependencies: [
                "Geofence", "NMEA", "Platform", "JSONOutput", "CMosquitto",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // persistent state: fence states, event log, visits, the outbox, track and odometer.
        .target(
            name: "Store",
            dependencies: ["Geofence", "NMEA", "Platform", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // the read-only presentation of the state file: status, visits, the live view's frame, the
        // field report and its exports. Below the runtime: it reads the store, never runs the engine.
        .target(name: "Views", dependencies: ["JSONOutput", "NMEA", "Geofence", "Store", "Platform"]),
        // the engine loop (source -> ring -> engine -> store -> sinks) and the jobs.
        // Named FenceRuntime, kept in Sources/Runtime: a module called `Runtime` would shadow the
        // toolchain's own `Runtime` module, which ordo-one/benchmark imports.
        .target(
            name: "FenceRuntime",
            dependencies: [
                "JSONOutput", "NMEA", "Platform", "Serial", "Geofence", "Alerts", "Store", "Views",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "Sources/Runtime"
        ),
        // argument parsing and wiring only.
        .executableTarget(
            name: "gpsfence",
            dependencies: [
                "NMEA", "Platform", "Serial", "Geofence", "Alerts", "Store", "Views", "FenceRuntime",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "PlatformTests", dependencies: ["Platform"]),
        .testTarget(name: "NMEATests", dependencies: ["NMEA", "JSONOutput"]),
        .testTarget(name: "GeofenceTests", dependencies: ["Geofence", "NMEA"], exclude: ["Fixtures"]),
        .testTarget(
            name: "RuntimeTests", dependencies: ["FenceRuntime", "NMEA", "Store", "Alerts", "Geofence", "Platform"]),
        .testTarget(name: "ViewsTests", dependencies: ["Views", "Geofence", "NMEA", "Store"]),
        .testTarget(name: "StoreTests", dependencies: ["Store", "Geofence", "NMEA", "Alerts"]),
        .testTarget(name: "AlertsTests", dependencies: ["Alerts", "Geofence", "NMEA", "Serial", "Platform"]),
        .testTarget(name: "SerialTests", dependencies: ["Serial", "NMEA", "Geofence", "FenceRuntime", "Platform"]),
        .testTarget(name: "EndToEndTests", dependencies: ["gpsfence", "JSONOutput", "Platform"]),
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
