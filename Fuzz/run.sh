#!/usr/bin/env bash
# Builds the libFuzzer targets and runs one of them.
#   Fuzz/run.sh [SECONDS] [extra libFuzzer flags...]     (default 60 s)
#   FUZZ_TARGET=FenceFuzz Fuzz/run.sh 600                 (NMEAFuzz, FenceFuzz or OptionsFuzz)
# The committed seeds (Fuzz/corpus/ for NMEA, Fuzz/corpus-fences/, Fuzz/corpus-options/) are read
# only; new inputs go to Fuzz/corpus-work/ (NMEA) or Fuzz/corpus-work-<target>/ (git-ignored),
# crashes to Fuzz/crash-* (git-ignored). See docs/fuzzing.md.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
SECONDS_TO_RUN="${1:-60}"
shift || true
cd "$HERE"
# Release + ASan: overflow and bounds traps stay on in -O.
# --sanitize=fuzzer tells SwiftPM to leave `main` to libFuzzer rather than main.swift's top level;
# the -Xswiftc list is needed as well because SwiftPM passes its sanitizers as separate
# `-sanitize=` flags in no fixed order and the compiler keeps only the last one, so about half the
# builds came out without coverage counters (libFuzzer: "no interesting inputs were found").
# A scratch path of its own keeps objects built with other flags out of this link.
FLAGS=(-c release --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address
       --scratch-path "$HERE/.build/fuzzer")
swift build "${FLAGS[@]}" >&2
TARGET="${FUZZ_TARGET:-NMEAFuzz}"
case "$TARGET" in
    NMEAFuzz) WORK=corpus-work; SEEDS=corpus; DICT=nmea.dict; MAXLEN=2048 ;;
    FenceFuzz) WORK=corpus-work-fences; SEEDS=corpus-fences; DICT=fences.dict; MAXLEN=8192 ;;
    OptionsFuzz) WORK=corpus-work-options; SEEDS=corpus-options; DICT=options.dict; MAXLEN=1024 ;;
    *) echo "unknown FUZZ_TARGET $TARGET" >&2; exit 2 ;;
esac
BIN="$(swift build "${FLAGS[@]}" --show-bin-path)/$TARGET"
mkdir -p "$WORK"
# A crash report with a Swift backtrace can hang on the pipe; libFuzzer prints its own.
export SWIFT_BACKTRACE=enable=no
# -max_len: a few sentences is enough to reach every path (120-byte lines); longer inputs just run slower.
exec "$BIN" "$WORK" "$SEEDS" -dict="$DICT" -max_len="$MAXLEN" -max_total_time="$SECONDS_TO_RUN" \
    -artifact_prefix="$HERE/crash-$TARGET-" -print_final_stats=1 "$@"
