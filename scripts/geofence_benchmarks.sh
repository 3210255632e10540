#!/usr/bin/env bash
# Runs the ordo-one benchmarks of Benchmarks/GeofenceBenchmarks (load time, points/s one at a time
# and batched, mallocs per query, peak resident memory) on the bench-data/ workloads.
#
#   bash scripts/geofence_benchmarks.sh [extra `swift package benchmark` arguments]
#
# Generate the workloads first with scripts/containment_vs_shapely.sh. (This used to build the
# benchmarks in a separate package because a target named `Runtime` shadowed the toolchain module
# the framework imports; the target is now `FenceRuntime`, so they build here.)
set -euo pipefail
cd "$(dirname "$0")/.."
GPSFENCE_BENCHMARKS=1 exec swift package --disable-sandbox benchmark --target GeofenceBenchmarks "$@"
