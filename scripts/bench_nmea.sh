#!/usr/bin/env bash
# NMEA decoding: our benchmark and the peers (pynmea2, gpsdecode), one after the other in one
# session so the figures in docs/performance.md are comparable.
#   scripts/bench_nmea.sh            # from anywhere; writes bench-data/ (git-ignored)
# Environment: GPSFENCE_SHARED (default ../shared beside the repo), GPSDECODE (gpsdecode binary).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SHARED="${GPSFENCE_SHARED:-$ROOT/../shared}"
DATA="$ROOT/bench-data/captures.nmea"
OUT="$ROOT/bench-data/results"
mkdir -p "$OUT"
cd "$ROOT"

# 1. Input: the gpsd captures concatenated to >= 50 MB (deterministic, so regenerate only if missing).
if [ ! -s "$DATA" ]; then
  python3 "$SHARED/bench/gen_nmea.py" --out "$DATA" --mb 50 --from-captures "$SHARED/captures"
fi
echo "input: $DATA ($(stat -c %s "$DATA") bytes, $(tr -cd '\n' < "$DATA" | wc -c) lines)"

# 2. Peers' tools, installed the way shared/bench/install_peers.sh does (that folder is read-only
#    here, so the steps are repeated rather than run in place).
python3 -c 'import pynmea2' 2>/dev/null || python3 -m pip install -q -r "$SHARED/bench/requirements-peers.txt"
GPSDECODE="${GPSDECODE:-$(command -v gpsdecode || echo /opt/gpsd-clients/usr/bin/gpsdecode)}"
if [ ! -x "$GPSDECODE" ]; then
  export DEBIAN_FRONTEND=noninteractive
  tmp="$(mktemp -d)"; chmod 755 "$tmp"
  (cd "$tmp" && apt-get download -qq gpsd-clients && dpkg -x gpsd-clients_*.deb /opt/gpsd-clients)
  rm -rf "$tmp"
  GPSDECODE=/opt/gpsd-clients/usr/bin/gpsdecode
fi
# The unpacked binary's own libraries (install_peers.sh installs only libgps28; gpsdecode also
# links libusb and libbluetooth).
if ldd "$GPSDECODE" | grep -q "not found"; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    libgps28 libusb-1.0-0 libbluetooth3 >/dev/null
fi
echo "load average before the runs: $(cut -d' ' -f1-3 /proc/loadavg)"

# 3. Ours (release build, one thread).
GPSFENCE_NMEA_BENCH_DATA="$DATA" GPSFENCE_BENCHMARKS=1 \
  swift package --disable-sandbox benchmark --target NMEABenchmarks --no-progress --time-units milliseconds \
  | tee "$OUT/ours.txt"

# 4. Peers, same input, median of 3.
PEER="$SHARED/bench/peer_nmea.py"
python3 "$PEER" --input "$DATA" --reps 3 --json-summary "$OUT/pynmea2.json" > /dev/null
python3 "$PEER" --input "$DATA" --reps 3 --decode --json-summary "$OUT/pynmea2-decode.json" > /dev/null
python3 "$PEER" --input "$DATA" --reps 3 --no-pynmea2 --gpsdecode --gpsdecode-bin "$GPSDECODE" \
  --json-summary "$OUT/gpsdecode.json" > /dev/null
python3 - "$OUT" <<'PY'
import json, sys
for name in ("pynmea2", "pynmea2-decode", "gpsdecode"):
    summary = json.load(open("%s/%s.json" % (sys.argv[1], name)))
    r = summary["gpsdecode" if name == "gpsdecode" else "pynmea2"]
    lines = r.get("lines_per_s", r.get("sentences_per_s"))
    print("%-16s %8.3f s  %7.2f MB/s  %9d lines/s" % (name, r["median_s"], r["MB_per_s"], lines))
PY
