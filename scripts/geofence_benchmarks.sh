#!/usr/bin/env bash
# Runs the ordo-one benchmarks of Benchmarks/GeofenceBenchmarks (load time, points/s one at a time
# and batched, mallocs per query, peak resident memory) on the bench-data/ workloads.
#
#   bash scripts/geofence_benchmarks.sh [extra `swift package benchmark` arguments]
#
# Why a separate harness package: inside this package, the target named `Runtime` shadows Swift's
# own `Runtime` module, which ordo-one/benchmark imports (`canImport(Runtime)`) for allocation stacks,
# so `GPSFENCE_BENCHMARKS=1 swift package benchmark` fails to compile the framework. The harness in
# bench-data/gfbench depends on this package's `Geofence` library only and builds the very same
# benchmark sources. Generate the workloads first with scripts/containment_vs_shapely.sh.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
H="$ROOT/bench-data/gfbench"
mkdir -p "$H/Benchmarks"
ln -sfn "$ROOT/Benchmarks/GeofenceBenchmarks" "$H/Benchmarks/GeofenceBenchmarks"
cat > "$H/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "gfbench",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: "$ROOT"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "GeofenceBenchmarks",
            dependencies: [.product(name: "Geofence", package: "$(basename "$ROOT")"),
                           .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/GeofenceBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
    ]
)
SWIFT
cd "$H"
GPSFENCE_BENCH_DATA="$ROOT/bench-data" swift package --disable-sandbox benchmark --target GeofenceBenchmarks "$@"
