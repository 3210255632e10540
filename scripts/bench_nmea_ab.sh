#!/usr/bin/env bash
# Compares the NMEA decoding speed of Sources/NMEA at several commits, alternating them so that
# machine load hits all alike (docs/performance.md, "NMEA decoding"):
#   scripts/bench_nmea_ab.sh [ROUNDS] REV1 REV2 ...     e.g. scripts/bench_nmea_ab.sh 2 main HEAD
# Checks out each REV's Sources/NMEA into the working tree and restores HEAD's at the end, so it
# refuses to run with uncommitted changes there. Input: bench-data/captures.nmea (bench_nmea.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS="$1"; shift
git diff --quiet HEAD -- Sources/NMEA || { echo "Sources/NMEA has uncommitted changes" >&2; exit 1; }
trap 'git checkout -q HEAD -- Sources/NMEA' EXIT
mkdir -p bench-data/results
for round in $(seq "$ROUNDS"); do
  for rev in "$@"; do
    git checkout -q "$rev" -- Sources/NMEA
    out="bench-data/results/ab-$rev-$round.txt"
    echo "== round $round $rev (load $(cut -d' ' -f1 /proc/loadavg))"
    GPSFENCE_BENCHMARKS=1 swift package --disable-sandbox benchmark --target NMEABenchmarks \
      --filter ".*MB/s.*" --no-progress > "$out" 2>&1
    python3 - "$out" <<'PY'
import re, sys
name = None
for line in open(sys.argv[1]):
    if re.match(r'^(Framer|Decoder)', line): name = line.strip()
    if line.startswith('│ MB/s'):
        cells = [c.strip() for c in line.split('│')[1:-1]]   # p0 is the best pass for MB/s
        print("  %-36s median %s MB/s (best %s, worst %s)" % (name, cells[3], cells[1], cells[7]))
PY
  done
done
