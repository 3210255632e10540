#!/usr/bin/env bash
# Runs the ordo-one benchmarks of Benchmarks/GeofenceBenchmarks (load time, points/s one at a time
# and batched, mallocs per query, peak resident memory) on the bench-data/ workloads.
#
#   bash scripts/geofence_benchmarks.sh [extra `swift package benchmark` arguments]
#
# Generate the workloads first with scripts/containment_vs_shapely.sh. (No module of gpsfence may be
# named `Runtime`: it would shadow the toolchain module the framework imports.)
set -euo pipefail
cd "$(dirname "$0")/.."
GPSFENCE_BENCHMARKS=1 exec swift package --disable-sandbox benchmark --target GeofenceBenchmarks "$@"
