#!/usr/bin/env bash
# Containment: gpsfence against the shapely peer, in one run, on the shared/bench workloads.
#
#   bash scripts/containment_vs_shapely.sh            # all workloads (needs ~1 GB disk, ~5 min)
#   bash scripts/containment_vs_shapely.sh --quick    # 1k and 10k mixed only
#   bash scripts/containment_vs_shapely.sh --ordo     # also the ordo-one benchmarks afterwards
#
# For each workload: generates it (once, deterministic, into bench-data/), runs
# `gpsfence check --points --stats` (load, batch and one-at-a-time rates, resident memory) and
# `peer_shapely.py` (bulk, median of 3), compares the two result files with diff_results.py
# (must print "0 differ"), and prints one Markdown table with both sides. Not run in CI: it needs
# shapely (pip install -r ../shared/bench/requirements-peers.txt) and minutes of CPU.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BENCH="${SHARED_BENCH:-$ROOT/../shared/bench}"
[ -d "$BENCH" ] || BENCH=/work/shared/bench
DATA="$ROOT/bench-data"
OUT="$DATA/results"
mkdir -p "$DATA" "$OUT"
QUICK=0; ORDO=0
for a in "$@"; do
  case "$a" in --quick) QUICK=1 ;; --ordo) ORDO=1 ;; *) echo "unknown option $a" >&2; exit 2 ;; esac
done
python3 -c "import shapely, numpy" 2>/dev/null || python3 -m pip install -q -r "$BENCH/requirements-peers.txt"

# name | generator arguments
WORKLOADS=(
  "mixed_1000f_100kp|--fences 1000 --kind mixed --points 100000 --seed 1"
  "mixed_10000f_100kp|--fences 10000 --kind mixed --points 100000 --seed 1"
  "multi_2000f_50kp|--fences 2000 --kind mixed --points 50000 --seed 3 --multi-frac 0.3 --hole-frac 0.3"
  "mixed_100000f_100kp_500km|--fences 100000 --kind mixed --points 100000 --seed 1 --side-km 500"
  "circle_1000000f_100kp_500km|--fences 1000000 --kind circle --points 100000 --seed 1 --side-km 500"
)
[ "$QUICK" = 1 ] && WORKLOADS=("${WORKLOADS[@]:0:3}")

(cd "$ROOT" && swift build -c release --product gpsfence >/dev/null)
BIN="$ROOT/.build/release/gpsfence"

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ)  commit: $(git -C "$ROOT" rev-parse --short HEAD)"
for w in "${WORKLOADS[@]}"; do
  name="${w%%|*}"; args="${w#*|}"
  if [ ! -f "$DATA/$name.geojson" ]; then
    # shellcheck disable=SC2086
    python3 "$BENCH/gen_workload.py" $args --out-prefix "$DATA/$name" >/dev/null
  fi
  # gpsfence: best of 3 runs (the machine is shared); --stats prints load/batch/single rates
  for rep in 1 2 3; do
    /usr/bin/time -f "maxrss_kb %M" "$BIN" check --fences "$DATA/$name.geojson" --points "$DATA/$name.points.csv" \
      --stats > "$OUT/$name.gpsfence.jsonl" 2> "$OUT/$name.gpsfence.stats.$rep"
  done
  python3 "$BENCH/peer_shapely.py" --fences "$DATA/$name.geojson" --points "$DATA/$name.points.csv" \
    --out "$OUT/$name.shapely.jsonl" --reps 3 --json-summary "$OUT/$name.shapely.json" > /dev/null
  if [ "$name" = "mixed_10000f_100kp" ]; then
    python3 "$BENCH/peer_shapely.py" --fences "$DATA/$name.geojson" --points "$DATA/$name.points.csv" \
      --limit-points 20000 --streaming --reps 1 --json-summary "$OUT/$name.shapely-streaming.json" > /dev/null
  fi
  python3 "$BENCH/diff_results.py" "$OUT/$name.shapely.jsonl" "$OUT/$name.gpsfence.jsonl" \
    --points "$DATA/$name.points.csv" > "$OUT/$name.diff.txt" || true
done

python3 - "$OUT" "${WORKLOADS[@]}" <<'PY'
import json, re, sys, os
out = sys.argv[1]
print()
print("| workload | gpsfence load s | gpsfence one at a time pts/s | gpsfence batch pts/s | gpsfence RSS after load / peak MB | shapely load+build s | shapely bulk pts/s | shapely streaming pts/s | differences |")
print("|---|---|---|---|---|---|---|---|---|")
for w in sys.argv[2:]:
    name = w.split("|")[0]
    best = None
    for rep in (1, 2, 3):
        t = open(os.path.join(out, "%s.gpsfence.stats.%d" % (name, rep))).read()
        load = float(re.search(r"in ([0-9.]+) s; resident", t).group(1))
        rss, peak = map(int, re.search(r"resident (\d+) MB \(peak (\d+) MB\)", t).groups())
        batch = int(re.search(r"\((\d+) points/s, batch", t).group(1))
        single = int(re.search(r"one at a time [0-9.]+ s \((\d+) points/s\)", t).group(1))
        cur = dict(load=load, rss=rss, peak=peak, batch=batch, single=single)
        if best is None:
            best = cur
        else:
            best = dict(load=min(best["load"], load), rss=rss, peak=max(best["peak"], peak),
                        batch=max(best["batch"], batch), single=max(best["single"], single))
    s = json.load(open(os.path.join(out, "%s.shapely.json" % name)))
    st = os.path.join(out, "%s.shapely-streaming.json" % name)
    stream = "%d" % json.load(open(st))["points_per_s"] if os.path.exists(st) else "—"
    diff = open(os.path.join(out, "%s.diff.txt" % name)).read().strip().splitlines()[-1]
    ndiff = re.search(r"(\d+) differ", diff).group(1)
    print("| %s | %.2f | %s | %s | %d / %d | %.2f | %s | %s | %s |" % (
        name, best["load"], format(best["single"], ","), format(best["batch"], ","), best["rss"], best["peak"],
        s["load_s"] + s["geom_build_s"] + s["index_build_s"], format(s["points_per_s"], ","),
        stream if stream == "—" else format(int(stream), ","), ndiff))
PY

if [ "$ORDO" = 1 ]; then
  (cd "$ROOT" && GPSFENCE_BENCHMARKS=1 swift package --disable-sandbox benchmark --target GeofenceBenchmarks)
fi
