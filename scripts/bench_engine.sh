#!/usr/bin/env bash
# Engine benchmark (docs/performance.md, "Engine (events and replay)"): a one-hour 10 Hz drive (36,000 epochs)
# against 10,000 mixed fences in a 50 km box (shared/bench workload, seed 1), replayed at
# --speed max through the built binary, plus the ordo-one EngineBenchmarks target for heap
# allocations per fix in steady state, with and without matching to the road being driven.
#   bash scripts/bench_engine.sh [--data-only]
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH=../shared/bench
mkdir -p bench-data
if [ ! -f bench-data/engine_1h_10hz.nmea ]; then
  python3 $BENCH/gen_workload.py --fences 10000 --kind mixed --points 36000 --seed 1 --trace \
      --out-prefix bench-data/engine_10000f_trace >/dev/null
  python3 $BENCH/gen_nmea.py --out bench-data/engine_1h_10hz.nmea --mb 20.74 --rate 10 \
      --points bench-data/engine_10000f_trace.points.csv
fi
# The road set and its drive, for the allocation count with matching on.
[ -f bench-data/road_matching_drive.nmea ] || python3 scripts/bench_road_matching.py --data-only
[ "${1:-}" = "--data-only" ] && exit 0

swift build -c release --product gpsfence >/dev/null
echo "replay --speed max (3 runs; wall seconds, peak RSS):"
for i in 1 2 3; do
  /usr/bin/time -f "  %e s  %M KB" ./.build/release/gpsfence replay bench-data/engine_1h_10hz.nmea \
      --fences bench-data/engine_10000f_trace.geojson --json --speed max > bench-data/engine_events.jsonl
done
echo "  events: $(wc -l < bench-data/engine_events.jsonl)"
GPSFENCE_BENCHMARKS=1 swift package --disable-sandbox benchmark --target EngineBenchmarks
