#!/usr/bin/env bash
# The arm64 package under emulation (docs/packaging.md, "arm64"): in a clean Debian bookworm arm64
# root run by qemu-user (debootstrap --arch arm64, cached like the amd64 root),
#   apt-get install ./dist/gpsfence_VERSION_arm64.deb,
#   the bundled examples replayed: byte for byte the events of the amd64 package's binary,
#   check of a generated 10k-fence workload: the same answers as amd64,
#   decode of the gpsd captures: the same fixes as amd64,
#   simulate into run on a pseudo-terminal inside the root: enter and exit,
#   and without /proc a clear failure rather than the help.
# Usage: scripts/test-deb-arm64.sh [ARM64_DEB [AMD64_DEB]]   (needs root; make deb and make deb ARCH=arm64 first)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/debootstrap-root.sh
. scripts/arm64-sdk.sh
root_arch=arm64

deb=${1:-$(ls -t dist/gpsfence_*_arm64.deb 2>/dev/null | head -1)}
reference_deb=${2:-$(ls -t dist/gpsfence_*_amd64.deb 2>/dev/null | head -1)}
[ -f "$deb" ] || { echo "no arm64 package: run make deb ARCH=arm64 first" >&2; exit 1; }
[ -f "$reference_deb" ] || { echo "no amd64 package to compare with: run make deb first" >&2; exit 1; }
version=$(basename "$deb" | cut -d_ -f2)
root=$cache_dir/deb-arm64
work=$(mktemp -d)
trap 'umount_root "$root"; rm -rf "$work"' EXIT
arm64_binfmt

# The reference: the amd64 package's own binary and examples, unpacked here.
dpkg-deb -x "$reference_deb" "$work/amd64"
amd64() { "$work/amd64/usr/bin/gpsfence" "$@"; }

timed() { # timed NAME COMMAND...: run, and say how long it took
    local name=$1 start=$SECONDS; shift
    "$@"; local status=$?
    echo "  ($name took $((SECONDS - start)) s)" >&2
    return $status
}

timed "clean arm64 root" new_root "$root"
mount_root "$root"
cp "$deb" "$root/tmp/"
set +e
out=$(timed "apt-get install" in_root "$root" "DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -q /tmp/$(basename "$deb")" 2>&1); status=$?
set -e
echo "$out" | tail -3 | sed 's/^/  apt> /'
check "apt-get install ./$(basename "$deb") succeeds in a clean bookworm arm64 root" test "$status" -eq 0
check "... the binary is an arm64 ELF" bash -c "file -L '$root/usr/bin/gpsfence' | grep -q 'ARM aarch64'"
check "gpsfence --version prints $version" test "$(in_root "$root" 'gpsfence --version' 2>&1)" = "$version"

# 1. The bundled examples: text and JSON events of every scenario, byte for byte.
examples=/usr/share/doc/gpsfence/examples
replay_all() { # replay_all RUN: every scenario, relative paths, both formats, with exit statuses
    local scenario
    for scenario in $(ls "$work/amd64$examples" | grep -v default-gpsfence); do
        echo "== $scenario"
        $1 "replay $scenario/capture.nmea --fences $scenario/fences.geojson" 2>&1; echo "status $?"
        $1 "replay $scenario/capture.nmea --fences $scenario/fences.geojson --json" 2>&1; echo "status $?"
    done
}
arm64_replay() { in_root "$root" "cd $examples && gpsfence $1"; }
amd64_replay() { (cd "$work/amd64$examples" && eval "'$work/amd64/usr/bin/gpsfence' $1"); }
replay_all arm64_replay >"$work/replay.arm64"
replay_all amd64_replay >"$work/replay.amd64"
grep -A3 '^== bridge' "$work/replay.arm64" | sed 's/^/  arm64 replay> /'
check "the bundled demo (bridge) warns 1588 m ahead on arm64" grep -qE "approach +Low bridge .*\[bridge-1\] +1588 m ahead" "$work/replay.arm64"
check "every bundled example replays to byte-identical events on arm64 and amd64 ($(grep -c '^==' "$work/replay.amd64") scenarios, text and JSON)" \
    cmp "$work/replay.arm64" "$work/replay.amd64"

# 2. check of a 10k-fence workload (circles and polygons with holes, points aimed at edges and vertices).
python3 ../shared/bench/gen_workload.py --fences 10000 --kind mixed --points 20000 --seed 2817 \
    --out-prefix "$work/w" >/dev/null
cp "$work/w.geojson" "$work/w.points.csv" "$root/tmp/"
timed "arm64 check, 10k fences x 20k points (under qemu)" \
    in_root "$root" "gpsfence check --fences /tmp/w.geojson --points /tmp/w.points.csv" >"$work/check.arm64"
amd64 check --fences "$work/w.geojson" --points "$work/w.points.csv" >"$work/check.amd64"
check "check: 20000 answers on arm64 ($(grep -vc '^\[\]$' "$work/check.arm64") points inside some fence)" \
    test "$(wc -l <"$work/check.arm64")" -eq 20000
check "... identical to amd64's" cmp "$work/check.arm64" "$work/check.amd64"

# 3. decode of the gpsd regression captures: the same fixes, the same sentences.
mkdir -p "$root/tmp/gpsd"
cp ../shared/captures/gpsd/*.log "$root/tmp/gpsd/"
captures=$(cd ../shared/captures/gpsd && ls *.log)
for capture in $captures; do
    in_root "$root" "cd /tmp/gpsd && gpsfence decode $capture; echo status \$?; gpsfence decode --sentences $capture | md5sum" 2>&1
done >"$work/decode.arm64"
for capture in $captures; do
    (cd ../shared/captures/gpsd && amd64 decode "$capture"; echo "status $?"; amd64 decode --sentences "$capture" | md5sum) 2>&1
done >"$work/decode.amd64"
check "decode: $(wc -w <<<"$captures") gpsd captures, $(grep -c '"lat"' "$work/decode.arm64" || true) fixes on arm64" \
    test "$(grep -c '"lat"' "$work/decode.arm64" || true)" -gt 0
check "... the same fixes and sentences as amd64" cmp "$work/decode.arm64" "$work/decode.amd64"

# 4. simulate into run on a pseudo-terminal inside the root: a 900 m drive through a 100 m circle, looped.
cat >"$root/tmp/route.geojson" <<'JSON'
{"type":"Feature","geometry":{"type":"LineString","coordinates":[[139.762125,35.681236],[139.772125,35.681236]]},"properties":{}}
JSON
cp captures/start-inside/fences.geojson "$root/tmp/depot.geojson"
set +e
# The drive loops (18 s a pass): under emulation `run` may take seconds to find the baud rate, and
# 45 s leaves it at least one whole pass.
out=$(timed "simulate into run" in_root "$root" 'cd /tmp; gpsfence simulate route.geojson --speed 50 --rate 5 --loop --link /tmp/gps0 >/tmp/simulate.out 2>&1 &
    simulator=$!
    for i in $(seq 50); do [ -e /tmp/gps0 ] && break; sleep 0.2; done
    timeout -s INT 45 gpsfence run --device /tmp/gps0 --fences depot.geojson --json --state /tmp/state.sqlite
    kill $simulator; wait $simulator' 2>&1)
set -e
echo "$out" | sed 's/^/  run> /'
check "simulate -> run on a pseudo-terminal in the arm64 root: enter the depot" grep -q '"type":"enter".*"depot"' <<<"$out"
check "... and exit it" grep -q '"type":"exit".*"depot"' <<<"$out"

# 5. Without /proc the static runtime cannot read the command line: a clear failure.
umount "$root/proc"
set +e
out=$(in_root "$root" "cd $examples && gpsfence replay bridge/capture.nmea --fences bridge/fences.geojson" 2>&1); status=$?
set -e
mount -t proc proc "$root/proc"
check "without /proc: exit status 1 and the reason, not the help (arm64)" \
    bash -c "[ $status -eq 1 ] && grep -q 'cannot read the command line' <<<'$out'"

umount_root "$root"
echo "deb-arm64: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
