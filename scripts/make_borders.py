#!/usr/bin/env python3
"""Real borders for the huge-polygon benchmark (docs/performance.md): the world's time-zone
boundaries as one GeoJSON FeatureCollection of MultiPolygons with holes, from the PyPI package
`timezonefinder` (its data is the timezone-boundary-builder polygons from OpenStreetMap, ODbL,
"with no polygon simplification"). Also writes query points: uniform over the world plus points
near vertices. The data is generated, never committed (bench-data/ is git-ignored).

    pip install timezonefinder
    python3 scripts/make_borders.py --out bench-data/tz_borders.geojson --points bench-data/tz_points.csv
"""
import argparse
import json
import random

from timezonefinder import TimezoneFinder


def ring_text(xs, ys):
    # 7 decimals, as the other workloads; close the ring as RFC 7946 wants
    pts = ["[%.7f,%.7f]" % (x, y) for x, y in zip(xs, ys)]
    if (xs[0], ys[0]) != (xs[-1], ys[-1]):
        pts.append(pts[0])
    return "[" + ",".join(pts) + "]"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--points", required=True)
    ap.add_argument("--n-points", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    tf = TimezoneFinder()
    rnd = random.Random(a.seed)
    vertices = 0
    sample = []
    with open(a.out, "w") as fh:
        fh.write('{"type":"FeatureCollection","features":[\n')
        for zone_id, name in enumerate(tf.timezone_names):
            geometry = tf.get_geometry(tz_id=zone_id, use_id=True)  # [[outer(xs, ys), hole, ...], ...]
            parts = []
            for polygon in geometry:
                rings = []
                for xs, ys in polygon:
                    xs, ys = list(xs), list(ys)
                    if len(xs) < 3:
                        continue
                    rings.append(ring_text(xs, ys))
                    vertices += len(xs)
                    if rnd.random() < 0.02:
                        k = rnd.randrange(len(xs))
                        sample.append((ys[k], xs[k]))
                if rings:
                    parts.append("[" + ",".join(rings) + "]")
            if not parts:
                continue
            fh.write("%s{\"type\":\"Feature\",\"id\":%d,\"properties\":{\"name\":%s},"
                     "\"geometry\":{\"type\":\"MultiPolygon\",\"coordinates\":[%s]}}\n"
                     % ("," if zone_id else "", zone_id, json.dumps(name), ",".join(parts)))
        fh.write("]}\n")
    with open(a.points, "w") as fh:
        for i in range(a.n_points):
            if sample and i % 10 == 0:
                lat, lon = rnd.choice(sample)  # near a vertex: 0..~100 m off
                lat += rnd.uniform(-1e-3, 1e-3)
                lon += rnd.uniform(-1e-3, 1e-3)
                lat = max(-90.0, min(90.0, lat))
                lon = max(-180.0, min(180.0, lon))
            else:
                lat, lon = rnd.uniform(-89.9, 89.9), rnd.uniform(-180, 180)
            fh.write("%.8f,%.8f\n" % (lat, lon))
    print(json.dumps({"zones": len(tf.timezone_names), "vertices": vertices, "raw_coordinate_bytes": 16 * vertices}))


if __name__ == "__main__":
    main()
