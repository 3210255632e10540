// swift-tools-version: 6.1
// libFuzzer targets: the NMEA decoder, fence files, option values. A package of its own so that the everyday build and
// `swift test` never need libFuzzer. Build and run with Fuzz/run.sh; see docs/fuzzing.md.
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder (`main`, `nmeaperf`, whatever CI cloned into),
// lowercased; compute it from where this manifest sits instead of hard-coding one checkout's name.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let rootIdentity = root.standardizedFileURL.lastPathComponent.lowercased()

let package = Package(
    name: "NMEAFuzz",
    dependencies: [.package(path: "..")],
    targets: [
        // Built with `-Xswiftc -sanitize=fuzzer,address` (run.sh): libFuzzer supplies `main`.
        .executableTarget(
            name: "NMEAFuzz",
            dependencies: [.product(name: "NMEA", package: rootIdentity)]
        ),
        // Fence files (GeoJSON and CSV) through the loaders, the index and the event engine.
        .executableTarget(
            name: "FenceFuzz",
            dependencies: [
                .product(name: "Fences", package: rootIdentity), .product(name: "Events", package: rootIdentity),
                .product(name: "NMEA", package: rootIdentity), .product(name: "Presentation", package: rootIdentity),
            ]
        ),
        // Option values and settings through the range checks and the event engine.
        .executableTarget(
            name: "OptionsFuzz",
            dependencies: [
                .product(name: "Fences", package: rootIdentity), .product(name: "Events", package: rootIdentity),
                .product(name: "NMEA", package: rootIdentity),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
