#!/usr/bin/env python3
"""`check --points` on corridors against the shapely peer, in one run (docs/performance.md).

    python3 scripts/corridors_vs_shapely.py [--corridors 10000] [--points 200000] [--reps 3]

Generates the workload once (scripts/make_corridors.py, into bench-data/), builds the release
binary, and runs, one after the other on the same points:
  - gpsfence check --points --stats on the corridors (best of --reps: the machine is shared);
  - the shapely peer, dwithin on each corridor's projected line and buffer polygons
    (scripts/peer_shapely_corridors.py, median of --reps after a cold run); the buffer run also
    writes the buffers as polygons;
  - gpsfence check --points --stats on those polygons: polygons of the same size as the corridors;
and diff_results.py (../shared/bench) of gpsfence's corridors against each peer. Prints one
Markdown table. Needs shapely and numpy (pip install -r ../shared/bench/requirements-peers.txt).
"""
import argparse
import json
import math
import os
import re
import resource
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.environ.get("SHARED_BENCH", os.path.join(ROOT, "..", "shared", "bench"))


def run(cmd, check=True, **kw):
    return subprocess.run(cmd, check=check, text=True, **kw)


def edge_distances(fences, points, peer_jsonl, ours_jsonl):
    """For each (point, fence) pair on which the peer and gpsfence disagree: how far the point is
    from the corridor's edge on the sphere (textbook haversine, bearing, cross-track and along-track
    formulas, independent of both), and whether gpsfence's answer is the sphere's."""
    r_earth, deg = 6371008.8, math.pi / 180

    def angular(p, q):
        h = (math.sin((q[0] - p[0]) * deg / 2) ** 2
             + math.cos(p[0] * deg) * math.cos(q[0] * deg) * math.sin((q[1] - p[1]) * deg / 2) ** 2)
        return 2 * math.asin(min(1, math.sqrt(h)))

    def bearing(p, q):
        dl = (q[1] - p[1]) * deg
        return math.atan2(math.sin(dl) * math.cos(q[0] * deg), math.cos(p[0] * deg) * math.sin(q[0] * deg)
                          - math.sin(p[0] * deg) * math.cos(q[0] * deg) * math.cos(dl))

    def to_arc(x, a, b):
        d13, d12 = angular(a, x), angular(a, b)
        if d12 == 0:
            return d13 * r_earth
        dt = bearing(a, x) - bearing(a, b)
        xt = math.asin(math.sin(d13) * math.sin(dt))
        at = math.acos(max(-1, min(1, math.cos(d13) / math.cos(xt)))) * (1 if math.cos(dt) >= 0 else -1)
        if at < 0:
            return d13 * r_earth
        return angular(b, x) * r_earth if at > d12 else abs(xt) * r_earth

    lines = {}
    for f in json.load(open(fences))["features"]:
        g = f["geometry"]
        parts = [g["coordinates"]] if g["type"] == "LineString" else g["coordinates"]
        lines[f["id"]] = ([[(c[1], c[0]) for c in part] for part in parts], f["properties"]["radius"])
    coords = open(points).read().split("\n")
    worst, pairs, wrong = 0.0, 0, 0
    for i, (a, b) in enumerate(zip(open(peer_jsonl), open(ours_jsonl))):
        if a == b:
            continue
        peer, ours = set(json.loads(a)), set(json.loads(b))
        p = tuple(map(float, coords[i].split(",")))
        for fence in peer ^ ours:
            parts, radius = lines[fence]
            d = min(to_arc(p, part[k - 1], part[k]) for part in parts for k in range(1, len(part)))
            pairs += 1
            worst = max(worst, abs(d - radius))
            wrong += (d <= radius) != (fence in ours)
    return pairs, worst, wrong


def gpsfence(binary, fences, points, out, reps):
    """Best of `reps` runs of check --stats: load s, batch and one-at-a-time points/s, wall s."""
    best = None
    for _ in range(reps):
        t = time.perf_counter()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        with open(out, "w") as fh:
            p = run([binary, "check", "--fences", fences, "--points", points, "--stats"], stdout=fh,
                    stderr=subprocess.PIPE)
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        s = p.stderr
        cur = dict(load=float(re.search(r"in ([0-9.]+) s \(index", s).group(1)),
                   query=float(re.search(r"queried in ([0-9.]+) s", s).group(1)),
                   batch=int(re.search(r"\((\d+) points/s, batch", s).group(1)),
                   single=int(re.search(r"one at a time [0-9.]+ s \((\d+) points/s\)", s).group(1)),
                   wall=wall, cpu=cpu)
        if best is None:
            best = cur
        else:
            best = dict(load=min(best["load"], cur["load"]), query=min(best["query"], cur["query"]),
                        batch=max(best["batch"], cur["batch"]), single=max(best["single"], cur["single"]),
                        wall=min(best["wall"], cur["wall"]), cpu=min(best["cpu"], cur["cpu"]))
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corridors", type=int, default=10000)
    ap.add_argument("--points", type=int, default=200000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--binary", default=os.environ.get("GPSFENCE_BIN"))
    a = ap.parse_args()
    data = os.path.join(ROOT, "bench-data")
    out = os.path.join(data, "results")
    os.makedirs(out, exist_ok=True)
    name = "corridors_%df_%dkp_seed%d" % (a.corridors, a.points // 1000, a.seed)
    prefix = os.path.join(data, name)
    if not os.path.exists(prefix + ".geojson"):
        run([sys.executable, os.path.join(ROOT, "scripts", "make_corridors.py"), "--corridors", str(a.corridors),
             "--points", str(a.points), "--seed", str(a.seed), "--out-prefix", prefix])
    binary = a.binary
    if not binary:
        run(["swift", "build", "-c", "release", "--product", "gpsfence"], cwd=ROOT, stdout=subprocess.DEVNULL)
        binary = os.path.join(ROOT, ".build", "release", "gpsfence")
    load = open("/proc/loadavg").read().split()[:3]
    commit = run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE).stdout.strip()
    print("date %s, commit %s, %d cores, load average at the start %s" % (
        time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), commit, os.cpu_count(), " ".join(load)))

    ours = gpsfence(binary, prefix + ".geojson", prefix + ".points.csv", os.path.join(out, name + ".gpsfence.jsonl"),
                    a.reps)
    peers = {}
    for mode in ("dwithin", "buffer"):
        summary = os.path.join(out, "%s.shapely-%s.json" % (name, mode))
        cmd = [sys.executable, os.path.join(ROOT, "scripts", "peer_shapely_corridors.py"), "--fences",
               prefix + ".geojson", "--points", prefix + ".points.csv", "--mode", mode, "--reps", str(a.reps),
               "--out", os.path.join(out, "%s.shapely-%s.jsonl" % (name, mode)), "--json-summary", summary]
        if mode == "buffer":
            cmd += ["--write-polygons", prefix + ".buffers.geojson"]
        run(cmd, stdout=subprocess.DEVNULL)
        peers[mode] = json.load(open(summary))
        diff = run([sys.executable, os.path.join(BENCH, "diff_results.py"),
                    os.path.join(out, "%s.shapely-%s.jsonl" % (name, mode)), os.path.join(out, name + ".gpsfence.jsonl"),
                    "--points", prefix + ".points.csv", "--show", "0"], stdout=subprocess.PIPE,
                   check=False).stdout.strip().splitlines()[-1]
        peers[mode]["differ"] = int(re.search(r"(\d+) differ", diff).group(1))
        peers[mode]["edge"] = edge_distances(prefix + ".geojson", prefix + ".points.csv",
                                             os.path.join(out, "%s.shapely-%s.jsonl" % (name, mode)),
                                             os.path.join(out, name + ".gpsfence.jsonl"))
    polygons = gpsfence(binary, prefix + ".buffers.geojson", prefix + ".points.csv",
                        os.path.join(out, name + ".gpsfence-polygons.jsonl"), a.reps)
    print()
    print("| what | load s | query s (wall) | batch points/s | one at a time points/s | whole process CPU s | "
          "query wall vs shapely dwithin | vs shapely buffer | points that differ from gpsfence's corridors |")
    print("|---|---|---|---|---|---|---|---|---|")
    for label, r in (("gpsfence, %d corridors" % a.corridors, ours),
                     ("gpsfence, the same as %d buffer polygons" % a.corridors, polygons)):
        print("| %s | %.3f | %.3f | %s | %s | %.2f | %.1fx | %.1fx | |" % (
            label, r["load"], r["query"], format(r["batch"], ","), format(r["single"], ","), r["cpu"],
            peers["dwithin"]["query_median_s"] / r["query"], peers["buffer"]["query_median_s"] / r["query"]))
    for mode in ("dwithin", "buffer"):
        p = peers[mode]
        print("| shapely %s %s | %.3f (+ build %.3f) | %.3f (CPU %.3f) | %s | | | | | %d of %d |" % (
            p["shapely"], mode, p["load_s"], p["build_s"], p["query_median_s"], p["query_cpu_median_s"],
            format(int(p["points_per_s"]), ","), p["differ"], p["points"]))
    for mode in ("dwithin", "buffer"):
        pairs, worst, wrong = peers[mode]["edge"]
        print("\nshapely %s against gpsfence: %d (point, corridor) pairs differ, all within %.3f m of the edge on "
              "the sphere; gpsfence's answer differs from the sphere's on %d of them" % (mode, pairs, worst, wrong))

if __name__ == "__main__":
    main()
