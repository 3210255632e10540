#!/usr/bin/env python3
"""Whole-process benchmarks, ours and the peer's in one run (docs/performance.md, "Whole processes against the peers").

Each command is run as a user runs it (a fresh process, output to a file), `--reps` times; the
table shows the median wall time, the CPU time (user + system, all threads) of that run, and the
peak resident memory (ru_maxrss). Results are compared with ../shared/bench/diff_results.py.

    python3 scripts/whole_process_bench.py [--reps 3] [--only decode,points,borders]

Inputs (generated into bench-data/ when missing; never committed):
  decode : bench-data/captures.nmea (gen_nmea.py --from-captures, 50 MB)     peer: gpsdecode
  points : 1 M points x 10k mixed fences, seeds 1 and 31 (gen_workload.py)    peer: peer_shapely.py --reps 1
  borders: time-zone borders (scripts/make_borders.py, timezonefinder), 100k points   peer: peer_shapely.py --reps 1
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.environ.get("SHARED_BENCH", os.path.join(ROOT, "..", "shared", "bench"))
DATA = os.path.join(ROOT, "bench-data")
# The newer of the binary users get (`make deb`, `make install`: Swift runtime linked statically,
# .build-deb) and the plain release build (.build); GPSFENCE_BIN chooses another.
_BUILT = [p for p in (os.path.join(ROOT, ".build-deb", "release", "gpsfence"),
                      os.path.join(ROOT, ".build", "release", "gpsfence")) if os.path.exists(p)]
BIN = os.environ.get("GPSFENCE_BIN") or (max(_BUILT, key=os.path.getmtime) if _BUILT else "gpsfence")
GPSDECODE = os.environ.get("GPSDECODE", "/opt/gpsd-clients/usr/bin/gpsdecode")


def run(cmd, stdin=None, stdout=None):
    """-> (wall s, cpu s, peak RSS MB, stderr) of one child process (its own rusage, via wait4)."""
    fin = open(stdin, "rb") if stdin else subprocess.DEVNULL
    fout = open(stdout, "wb") if stdout else subprocess.DEVNULL
    errf = open(os.path.join(DATA, "results", "stderr.txt"), "w+b")
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdin=fin, stdout=fout, stderr=errf)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    for f in (fin, fout):
        if f is not subprocess.DEVNULL:
            f.close()
    errf.seek(0)
    err = errf.read().decode(errors="replace")
    errf.close()
    if p.returncode != 0:
        sys.exit("failed (%d): %s\n%s" % (p.returncode, " ".join(cmd), err[-2000:]))
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0, err


def timed(cmd, reps, **kw):
    runs = [run(cmd, **kw) for _ in range(reps)]
    runs.sort(key=lambda r: r[0])
    return runs[len(runs) // 2]


def ensure(path, cmd):
    if not os.path.exists(path):
        print("generating", path, file=sys.stderr)
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def diff(a, b, points):
    out = subprocess.run([sys.executable, os.path.join(BENCH, "diff_results.py"), a, b, "--points", points],
                         capture_output=True, text=True)
    return out.stdout.strip().splitlines()[-1] if out.stdout.strip() else out.stderr.strip()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--only", default="decode,points,borders")
    a = ap.parse_args()
    only = a.only.split(",")
    os.makedirs(os.path.join(DATA, "results"), exist_ok=True)
    res = os.path.join(DATA, "results")
    print("load average at start: %s; binary %s" % (open("/proc/loadavg").read().split()[:3], BIN))
    rows = []
    if "decode" in only:
        nmea = os.path.join(DATA, "captures.nmea")
        ensure(nmea, [sys.executable, os.path.join(BENCH, "gen_nmea.py"), "--out", nmea, "--mb", "50",
                      "--from-captures", os.path.join(BENCH, "..", "captures")])
        mb = os.path.getsize(nmea) / 1e6
        ours = timed([BIN, "decode", nmea], a.reps, stdout=os.path.join(res, "decode.jsonl"))
        peer = timed([GPSDECODE], a.reps, stdin=nmea, stdout=os.path.join(res, "gpsdecode.json"))
        rows.append(("`decode` 50 MB captures -> JSON Lines", ours, peer, "%.0f MB/s" % (mb / ours[0]),
                     "%.1f MB/s" % (mb / peer[0]), "gpsdecode", ""))
    if "points" in only:
        for seed in (1, 31):
            prefix = os.path.join(DATA, "mixed_10000f_1mp_s%d" % seed)
            ensure(prefix + ".geojson", [sys.executable, os.path.join(BENCH, "gen_workload.py"), "--fences", "10000",
                                         "--kind", "mixed", "--points", "1000000", "--seed", str(seed),
                                         "--out-prefix", prefix])
            o = os.path.join(res, "points_s%d.gpsfence.jsonl" % seed)
            s = os.path.join(res, "points_s%d.shapely.jsonl" % seed)
            ours = timed([BIN, "check", "--fences", prefix + ".geojson", "--points", prefix + ".points.csv"], a.reps, stdout=o)
            peer = timed([sys.executable, os.path.join(BENCH, "peer_shapely.py"), "--fences", prefix + ".geojson",
                          "--points", prefix + ".points.csv", "--out", s, "--reps", "1"], max(1, a.reps // 2))
            rows.append(("`check --points` 1 M points x 10k mixed, seed %d" % seed, ours, peer,
                         "%.2f s" % ours[0], "%.2f s" % peer[0], "shapely", diff(s, o, prefix + ".points.csv")))
    if "borders" in only:
        fences = os.path.join(DATA, "tz_borders.geojson")
        points = os.path.join(DATA, "tz_points_100k.csv")
        ensure(fences, [sys.executable, os.path.join(ROOT, "scripts", "make_borders.py"), "--out", fences,
                        "--points", os.path.join(DATA, "tz_points.csv")])
        if not os.path.exists(points):
            # shapely answers about 800 points/s against these borders: 100k points is two minutes
            with open(os.path.join(DATA, "tz_points.csv")) as src, open(points, "w") as dst:
                for i, line in enumerate(src):
                    if i == 100_000:
                        break
                    dst.write(line)
        o = os.path.join(res, "borders.gpsfence.jsonl")
        s = os.path.join(res, "borders.shapely.jsonl")
        ours = timed([BIN, "check", "--fences", fences, "--points", points, "--stats"], a.reps, stdout=o)
        peer = timed([sys.executable, os.path.join(BENCH, "peer_shapely.py"), "--fences", fences,
                      "--points", points, "--out", s, "--reps", "1"], 1)
        mb = os.path.getsize(fences) / 1e6
        load = [l for l in ours[3].splitlines() if l.startswith("loaded")]
        rows.append(("`check --points` time-zone borders (%.0f MB GeoJSON), 100k points" % mb, ours, peer,
                     "%.2f s" % ours[0], "%.2f s" % peer[0], "shapely", diff(s, o, points) + "; " + "; ".join(load)))
    print()
    print("| what | ours wall s | ours CPU s | ours peak MB | peer | peer wall s | peer CPU s | peer peak MB | ours | peer | wall ratio | results |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, ours, peer, ofig, pfig, pname, d in rows:
        print("| %s | %.3f | %.3f | %.0f | %s | %.3f | %.3f | %.0f | %s | %s | %.1fx | %s |" % (
            name, ours[0], ours[1], ours[2], pname, peer[0], peer[1], peer[2], ofig, pfig, peer[0] / ours[0], d))


if __name__ == "__main__":
    main()
