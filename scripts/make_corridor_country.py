#!/usr/bin/env python3
"""Generate a country's speed-limit corridors as `gpsfence fences import --speed-limits` writes
them: LineString features (ids `osm:way/N`, properties `speed_limit_kmh`, `maxspeed`, `radius`, one
feature a line, 7 decimals), road-like (segments of 20-200 m turning gently), radius 5-10 m, spread
over a Germany-size box, and query points (most within two radii of a road, the rest anywhere).

    python3 scripts/make_corridor_country.py --corridors 1000000 --vertices 15 --points 200000 \
        --out-prefix bench-data/corridor_country

writes PREFIX.geojson and PREFIX.points.csv ('lat,lon' a line). Deterministic for a seed.
"""
import argparse
import math
import random

from country_arguments import add_country_arguments

R = 6371008.8
DEG = math.pi / 180
SPEEDS = (30, 50, 70, 100, 120)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corridors", type=int, default=1000000)
    ap.add_argument("--vertices", type=int, default=15)
    add_country_arguments(ap)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    near = []
    with open(a.out_prefix + ".geojson", "w") as fh:
        fh.write('{"type":"FeatureCollection","features":[')
        for i in range(a.corridors):
            lat = rng.uniform(a.south, a.north)
            lon = rng.uniform(a.west, a.east)
            bearing = rng.uniform(0, 2 * math.pi)
            radius = rng.choice((5, 6, 7.5, 8, 10))
            coords = []
            for k in range(a.vertices):
                coords.append("[%.7f,%.7f]" % (lon, lat))
                if k < a.vertices - 1:
                    step = rng.uniform(20, 200)
                    bearing += rng.uniform(-0.3, 0.3)
                    lat += step * math.cos(bearing) / R / DEG
                    lon += step * math.sin(bearing) / (R * math.cos(lat * DEG)) / DEG
            if len(near) < a.points and rng.random() < 0.5:
                near.append((lat, lon, radius))
            speed = rng.choice(SPEEDS)
            fh.write(('\n' if i == 0 else ',\n')
                     + '{"type":"Feature","id":"osm:way/%d","geometry":{"type":"LineString","coordinates":[%s]},'
                       '"properties":{"speed_limit_kmh":%d,"maxspeed":"%d","radius":%g}}'
                     % (100000 + 7 * i, ",".join(coords), speed, speed, radius))
        fh.write("\n]}\n")
    with open(a.out_prefix + ".points.csv", "w") as fh:
        for j in range(a.points):
            if j % 2 == 0 and near:
                lat, lon, radius = near[j // 2 % len(near)]
                d = rng.uniform(0, 2 * radius) / R / DEG
                t = rng.uniform(0, 2 * math.pi)
                fh.write("%.7f,%.7f\n" % (lat + d * math.cos(t), lon + d * math.sin(t) / math.cos(lat * DEG)))
            else:
                fh.write("%.7f,%.7f\n" % (rng.uniform(a.south, a.north), rng.uniform(a.west, a.east)))


if __name__ == "__main__":
    main()
