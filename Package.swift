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
        .library(name: "Presentation", targets: ["Presentation"]),
        .library(name: "Fences", targets: ["Fences"]),
        .library(name: "Events", targets: ["Events"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // The one JSON writer (byte buffer, escaping, number formatting). No Foundation, no dependencies.
        .target(name: "JSONOutput"),
        // The one JSON reader (a tokenizer over bytes that builds no tree) and the reader of decimal
        // numbers it shares with the points file. No Foundation; Platform only for `strtod`.
        .target(name: "JSONInput", dependencies: ["Platform"]),
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
        .systemLibrary(name: "CMemory"),
        // The operating system as typed values: every syscall wrapper (termios, pseudo-terminals,
        // poll, sockets, inotify, eventfd, libudev, posix_spawn, fallocate, signals), the clocks,
        // the lock, thread names and the reconnect backoff; files read whole, mapped, replaced
        // atomically and synced; the C library's pure functions re-exported by name. The only place
        // the kernel is called.
        .target(
            name: "Platform",
            dependencies: ["CUdev", "CFileSpace", "CMemory", .product(name: "SystemPackage", package: "swift-system")]
        ),
        // bytes -> sentences -> typed sentences -> fixes. No I/O, no Foundation.
        .target(name: "NMEA", dependencies: ["JSONOutput", "Platform"]),
        // what people read: the local calendar over the tz database's zones (one TZif reader for
        // `--timezone`, `TZ`, /etc/localtime and a fence's `timezone`), units and measures, human
        // numbers and text, a URL's password hidden, the buffered output writer.
        .target(
            name: "Presentation",
            dependencies: [
                "NMEA", "Platform", "JSONOutput", .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // the receivers: device discovery, the port's rate (autobaud, remembered rates), the UBX and
        // PMTK conversations that configure them, gpsd's protocol, the simulator's wire.
        .target(
            name: "Receivers",
            dependencies: [
                "NMEA", "Platform", "JSONInput", "JSONOutput",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // fences: geometry, file formats and their loaders, the spatial index, the SIMD containment
        // kernels, the rules a fence's properties carry, lint.
        .target(name: "Fences", dependencies: ["NMEA", "Presentation", "Platform", "JSONInput", "JSONOutput"]),
        // fences from the data people already have: OpenStreetMap (XML, PBF), KML, KMZ, GPX, read
        // in streams and written as GeoJSON.
        // zlib's inflate for PBF blobs and KMZ entries.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "FenceImport", dependencies: ["JSONInput", "JSONOutput", "Platform", "CZlib"]),
        // events: the engine (each fence's state machine, the rules applied, the foresight), the
        // event model and its one JSON form, the outbox protocol.
        .target(
            name: "Events", dependencies: ["Fences", "NMEA", "Presentation", "Platform", "JSONInput", "JSONOutput"]),
        // every sink: console, bell, hooks, notify, speech, the outbox's delivery to webhooks and
        // MQTT, Home Assistant discovery, OwnTracks.
        .target(
            name: "Delivery",
            dependencies: [
                "Fences", "Events", "NMEA", "Presentation", "Platform", "JSONInput", "JSONOutput", "CMosquitto",
            ]
        ),
        // persistent state: fence states, event log, visits, the outbox, track and odometer.
        .target(
            name: "Store",
            dependencies: [
                "Fences", "Events", "NMEA", "Presentation", "Platform", "JSONInput", "JSONOutput",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // the read-only presentation of the state file: status, visits, the live view's frame, the
        // field report and its exports. It reads the store, never runs the engine.
        .target(name: "Views", dependencies: ["JSONOutput", "NMEA", "Presentation", "Fences", "Events", "Store"]),
        // the live loop: fix sources (serial reader and its pacing, gpsd, captures) -> ring ->
        // engine -> store -> sinks, fence watching and swapping, and the inputs every job reads.
        .target(
            name: "LiveLoop",
            dependencies: [
                "NMEA", "Presentation", "Platform", "Receivers", "Fences", "Events", "Delivery", "Store", "JSONInput",
                "JSONOutput", .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // the page on the phone (`run --web`): the live state, the status, events, track and fences
        // over HTTP, with the alarm's answer; its page and assets compiled in.
        .target(
            name: "Web",
            dependencies: [
                "Platform", "NMEA", "Presentation", "Fences", "Events", "Store", "Views", "Delivery", "LiveLoop",
                "JSONOutput",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            resources: [.embedInCode("Page/page.html"), .embedInCode("Page/page.js"), .embedInCode("Page/page.css")]
        ),
        // the receiver's tools: simulate (with its emulated receivers), configure, record, doctor,
        // devices.
        .target(
            name: "Tools",
            dependencies: [
                "JSONInput", "JSONOutput", "NMEA", "Presentation", "Platform", "Receivers", "Fences", "Views",
                "LiveLoop",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // one job per fence command: run, replay, check, decode, visits, status and its live view,
        // report, fences lint/add, sync; and the one place an error becomes an exit status.
        .target(
            name: "Jobs",
            dependencies: [
                "JSONInput", "JSONOutput", "NMEA", "Presentation", "Platform", "Receivers", "Fences", "FenceImport",
                "Events", "Delivery", "Store", "Views", "LiveLoop", "Web",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // argument parsing and wiring only.
        .executableTarget(
            name: "gpsfence",
            dependencies: [
                "NMEA", "Presentation", "Platform", "Receivers", "Fences", "FenceImport", "Events", "Delivery", "Views",
                "LiveLoop", "Web", "Tools", "Jobs", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "LayoutTests"),
        .testTarget(name: "PlatformTests", dependencies: ["Platform", "Waiting"]),
        .testTarget(name: "JSONInputTests", dependencies: ["JSONInput"]),
        .testTarget(name: "NMEATests", dependencies: ["NMEA", "JSONOutput"]),
        .testTarget(
            name: "PresentationTests",
            dependencies: ["Presentation", "NMEA", .product(name: "SystemPackage", package: "swift-system")]),
        .target(name: "FenceBuilders", dependencies: ["Fences"], path: "Tests/FenceBuilders"),
        // waits for a state with a deadline a slow machine can lengthen (GPSFENCE_TEST_TIME_SCALE).
        .target(name: "Waiting", dependencies: ["Platform"], path: "Tests/Support/Waiting"),
        // NMEA written for the integrity monitor: a quiet sky, a jammer, a spoofer, urban driving.
        .target(name: "SkyScenarios", path: "Tests/Support/SkyScenarios"),
        .testTarget(
            name: "FencesTests",
            dependencies: ["Fences", "Events", "NMEA", "Presentation", "JSONInput", "FenceBuilders"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "EventsTests",
            dependencies: ["Events", "Fences", "NMEA", "FenceBuilders", "Platform", "SkyScenarios"]),
        .testTarget(
            name: "LiveLoopTests",
            dependencies: [
                "LiveLoop", "Jobs", "Tools", "NMEA", "Store", "Delivery", "Fences", "Events", "Platform", "Waiting",
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        .testTarget(name: "ViewsTests", dependencies: ["Views", "Fences", "Events", "NMEA", "Presentation", "Store"]),
        .testTarget(
            name: "StoreTests",
            dependencies: ["Store", "Fences", "Events", "NMEA", "Presentation", "Delivery", "Platform", "Waiting"]),
        .testTarget(
            name: "DeliveryTests",
            dependencies: [
                "Delivery", "Fences", "Events", "NMEA", "Presentation", "Receivers", "Platform", "JSONOutput", "Store",
                "Waiting",
            ]),
        .testTarget(
            name: "ReceiversTests",
            dependencies: ["Receivers", "LiveLoop", "Tools", "Jobs", "NMEA", "Fences", "Events", "Platform", "Waiting"]),
        .testTarget(
            name: "EndToEndTests", dependencies: ["gpsfence", "JSONOutput", "Platform", "Waiting", "SkyScenarios"]),
        .testTarget(name: "FenceImportTests", dependencies: ["FenceImport"]),
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
            name: "GeofenceBenchmarks", dependencies: ["Fences", "Events"] + benchmark,
            path: "Benchmarks/GeofenceBenchmarks", plugins: plugins),
        .executableTarget(
            name: "GpsdBenchmarks", dependencies: ["Receivers", "NMEA"] + benchmark,
            path: "Benchmarks/GpsdBenchmarks", plugins: plugins),
        .executableTarget(
            name: "EngineBenchmarks", dependencies: ["Fences", "Events", "NMEA"] + benchmark,
            path: "Benchmarks/EngineBenchmarks", plugins: plugins),
    ]
}

// The ThreadSanitizer build of CI (.ci/run) compiles only the tests it runs, the suites that start
// threads, and not the whole suite a second time:
//   GPSFENCE_THREAD_SANITIZER_TESTS=1 swift build --build-tests --sanitize=thread
// A test target named here keeps only the files listed (nil: all of them); one not named is left
// out. The suites CI runs under the sanitizer are named in .ci/run: one added there needs its files
// here.
if ProcessInfo.processInfo.environment["GPSFENCE_THREAD_SANITIZER_TESTS"] != nil {
    let threadSanitizerSources: [String: [String]?] = [
        "PlatformTests": nil, "LiveLoopTests": nil, "StoreTests": nil, "DeliveryTests": nil, "ReceiversTests": nil,
        "FencesTests": [
            "PolygonLayoutTests.swift", "BatchQueryTests.swift", "DifferentialTests.swift", "SecondHalfTests.swift",
        ],
        "EndToEndTests": [
            "SyncCommandTests.swift", "DecodeCommandTests.swift", "LiveFencesTests.swift",
            "CheckPointsStreamTests.swift",
            // what they share with other suites: the binary, runs and simulators in the background,
            // the broker, a free port, the sqlite3 reader of a state file
            "Binary.swift", "RunCommandTests.swift", "SerialCommandTests.swift", "RunFixOnFile.swift",
            "Mosquitto.swift", "GpsdHarness.swift", "PowerCutFilesystemTests.swift", "PowerCutFilesystem.swift",
        ],
    ]
    package.targets = package.targets.compactMap { target in
        guard target.type == .test else { return target }
        guard let sources = threadSanitizerSources[target.name] else { return nil }
        target.sources = sources
        return target
    }
}
