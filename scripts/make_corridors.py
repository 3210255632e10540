#!/usr/bin/env python3
"""Generate a corridor workload for `check --points`: random routes (LineString features with
properties.radius, numeric ids 0..N-1) in a square around a centre, and query points, most of them
within two radii of a route (so about half are inside), the rest spread over the square.

    python3 scripts/make_corridors.py --corridors 10000 --points 200000 --seed 1 \
        --out-prefix bench-data/corridors_10000f_200kp

writes PREFIX.geojson and PREFIX.points.csv ('lat,lon' per line, the format of check --points and
of ../shared/bench). Deterministic for a seed.
"""
import argparse
import json
import math
import random

R = 6371008.8
DEG = math.pi / 180


def destination(lat, lon, bearing, distance):
    d = distance / R
    p1 = lat * DEG
    p2 = math.asin(math.sin(p1) * math.cos(d) + math.cos(p1) * math.sin(d) * math.cos(bearing))
    l2 = lon * DEG + math.atan2(math.sin(bearing) * math.sin(d) * math.cos(p1),
                                math.cos(d) - math.sin(p1) * math.sin(p2))
    lon2 = (l2 / DEG + 540) % 360 - 180
    return p2 / DEG, lon2


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corridors", type=int, default=10000)
    ap.add_argument("--points", type=int, default=200000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lat", type=float, default=47.0)
    ap.add_argument("--lon", type=float, default=8.0)
    ap.add_argument("--side-km", type=float, default=200.0)
    ap.add_argument("--out-prefix", required=True)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    half = a.side_km * 500.0
    routes = []
    features = []
    for i in range(a.corridors):
        lat, lon = destination(a.lat, a.lon, rng.uniform(0, 2 * math.pi), rng.uniform(0, half))
        heading = rng.uniform(0, 2 * math.pi)
        line = [(round(lon, 7), round(lat, 7))]
        for _ in range(rng.randint(1, 7)):
            heading += rng.uniform(-0.7, 0.7)
            lat, lon = destination(lat, lon, heading, rng.uniform(200, 1500))
            line.append((round(lon, 7), round(lat, 7)))
        radius = round(rng.uniform(10, 150), 1)
        routes.append((line, radius))
        features.append({"type": "Feature", "id": i,
                         "geometry": {"type": "LineString", "coordinates": [list(p) for p in line]},
                         "properties": {"radius": radius}})
    with open(a.out_prefix + ".geojson", "w") as fh:
        json.dump({"type": "FeatureCollection", "features": features}, fh, separators=(",", ":"))
    with open(a.out_prefix + ".points.csv", "w") as fh:
        for _ in range(a.points):
            if rng.random() < 0.7:
                line, radius = routes[rng.randrange(len(routes))]
                k = rng.randrange(1, len(line))
                t = rng.random()
                lon = line[k - 1][0] + t * (line[k][0] - line[k - 1][0])
                lat = line[k - 1][1] + t * (line[k][1] - line[k - 1][1])
                lat, lon = destination(lat, lon, rng.uniform(0, 2 * math.pi), rng.uniform(0, 2 * radius))
            else:
                lat, lon = destination(a.lat, a.lon, rng.uniform(0, 2 * math.pi), rng.uniform(0, half))
            fh.write("%.7f,%.7f\n" % (lat, lon))


if __name__ == "__main__":
    main()
