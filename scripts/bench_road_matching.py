#!/usr/bin/env python3
"""The engine's cost per fix with matching to the road being driven (docs/performance.md, "The road
being driven"): the 10,000 corridors of `make_corridors.py --corridors 10000 --seed 1` twice, as
roads (`highway`, `speed_limit_kmh`) and as plain corridors (the same geometry, matched as any
fence), and a 10 Hz drive along them: route after route, each driven end to end at 25 m/s in its
lane (1.75 m off the line) with a course off by up to 4 degrees, and driven straight from one
route's end to the nearest unvisited route's start. `replay --speed max --json` of the drive
against each set, with and without `--approach 500`, the median of `--runs` wall times minus a
replay without fences, per fix.

    python3 scripts/bench_road_matching.py --binary .build/release/gpsfence [--fixes 36000] [--runs 3]

With `--data-only` it writes the sets and the drive to bench-data/ and stops: the data of
EngineBenchmarks' allocation count with matching on (`bash scripts/bench_engine.sh`).
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import time

R = 6371008.8
DEG = math.pi / 180


def bearing(a, b):
    (lon1, lat1), (lon2, lat2) = a, b
    y = math.sin((lon2 - lon1) * DEG) * math.cos(lat2 * DEG)
    x = math.cos(lat1 * DEG) * math.sin(lat2 * DEG) - math.sin(lat1 * DEG) * math.cos(lat2 * DEG) * math.cos(
        (lon2 - lon1) * DEG)
    return (math.atan2(y, x) / DEG + 360) % 360


def offset(p, north, east):
    lon, lat = p
    return lon + east / (R * math.cos(lat * DEG) * DEG), lat + north / (R * DEG)


def distance(a, b):
    (lon1, lat1), (lon2, lat2) = a, b
    x = (lon2 - lon1) * DEG * math.cos((lat1 + lat2) / 2 * DEG)
    y = (lat2 - lat1) * DEG
    return R * math.hypot(x, y)


def checksummed(body):
    c = 0
    for ch in body.encode():
        c ^= ch
    return "$%s*%02X\r\n" % (body, c)


def nmea(fixes):
    out = []
    for k, (p, track) in enumerate(fixes):
        t = k // 10
        hms = "%02d%02d%02d.%02d" % (10 + t // 3600, t // 60 % 60, t % 60, k % 10 * 10)
        lon, lat = p
        la = "%02d%08.5f" % (int(lat), (lat - int(lat)) * 60)
        lo = "%03d%08.5f" % (int(lon), (lon - int(lon)) * 60)
        out.append(checksummed("GPGGA,%s,%s,N,%s,E,1,09,0.9,450.0,M,47.0,M,," % (hms, la, lo)))
        out.append(checksummed("GPRMC,%s,A,%s,N,%s,E,%.2f,%.1f,030226,,,A" % (hms, la, lo, 25 / 0.514444, track)))
    return "".join(out)


def drive(routes, count):
    """Fixes (position, track) at 10 Hz and 25 m/s along the routes, 2.5 m a fix."""
    fixes = []
    visited = set()
    current = 0
    position = routes[0][0]
    step = 2.5
    while len(fixes) < count:
        visited.add(current)
        line = routes[current]
        legs = [(position, line[0], 0)] + [(line[i], line[i + 1], 1.75) for i in range(len(line) - 1)]
        for a, b, lane in legs:
            length = distance(a, b)
            if length == 0:
                continue
            track = bearing(a, b)
            n = int(length / step)
            for i in range(n):
                f = i / max(n, 1)
                p = (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f)
                right = (track + 90) * DEG
                p = offset(p, lane * math.cos(right), lane * math.sin(right))
                fixes.append((p, (track + 4 * math.sin(len(fixes) / 50)) % 360))
        position = line[-1]
        best = None
        for j, other in enumerate(routes):
            if j in visited:
                continue
            d = distance(position, other[0])
            if best is None or d < best[0]:
                best = (d, j)
        if best is None:
            break
        current = best[1]
    return fixes[:count]


def timed(args, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default=".build/release/gpsfence")
    ap.add_argument("--fixes", type=int, default=36000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--data-only", action="store_true", help="write the data to bench-data/ and stop")
    a = ap.parse_args()
    os.makedirs("bench-data", exist_ok=True)
    prefix = "bench-data/corridors_10000f_1kp"
    if not os.path.exists(prefix + ".geojson"):
        subprocess.run(["python3", "scripts/make_corridors.py", "--corridors", "10000", "--points", "1000",
                        "--seed", "1", "--out-prefix", prefix], check=True)
    with open(prefix + ".geojson") as fh:
        plain = json.load(fh)
    routes = [[tuple(p) for p in f["geometry"]["coordinates"]] for f in plain["features"]]
    roads = json.loads(json.dumps(plain))
    for feature in roads["features"]:
        feature["properties"].update({"highway": "primary", "speed_limit_kmh": 50})
    for feature in plain["features"]:
        feature["properties"]["speed_limit_kmh"] = 50
    files = {}
    for name, data in (("plain", plain), ("roads", roads)):
        files[name] = "bench-data/road_matching_%s.geojson" % name
        with open(files[name], "w") as fh:
            json.dump(data, fh, separators=(",", ":"))
    empty = "bench-data/road_matching_empty.geojson"
    with open(empty, "w") as fh:
        fh.write('{"type":"FeatureCollection","features":[]}')
    capture = "bench-data/road_matching_drive.nmea"
    fixes = drive(routes, a.fixes)
    with open(capture, "w") as fh:
        fh.write(nmea(fixes))
    if a.data_only:
        return
    base = [a.binary, "replay", capture, "--speed", "max", "--json"]
    floor = timed(base + ["--fences", empty], a.runs)
    print("%d fixes at 10 Hz; a replay without fences: %.3f s" % (len(fixes), floor))
    for approach in ([], ["--approach", "500"]):
        for name in ("plain", "roads"):
            seconds = timed(base + ["--fences", files[name]] + approach, a.runs)
            print("%-6s %-16s %.3f s, %.2f us a fix over no fences" % (
                name, " ".join(approach) or "(no approach)", seconds, (seconds - floor) / len(fixes) * 1e6))


if __name__ == "__main__":
    main()
