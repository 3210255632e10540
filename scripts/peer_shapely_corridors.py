#!/usr/bin/env python3
"""Peer for `check --points` on corridors: shapely 2.x (GEOS), the way a shapely user would do it.

Each corridor (LineString / MultiLineString with properties.radius, numeric ids) is projected into
its own local equirectangular plane (metres east and north of its first vertex, the sphere of
radius 6371008.8 m), then

  --mode dwithin (default): an STRtree over the corridors' lon/lat boxes widened by the radius,
        one bulk envelope query with all points, then shapely.dwithin(projected line, point
        projected into the same plane, radius) on every candidate pair, vectorised;
  --mode buffer: each projected line buffered by its radius (quad_segs=16), brought back to
        lon/lat, an STRtree over those polygons and STRtree.query(points, predicate='intersects').

Both are approximations of the sphere (the plane's scale error over a corridor's few kilometres,
and for buffer the 64-gon's chords): points within a few centimetres (dwithin) or decimetres
(buffer) of the edge may differ from gpsfence, which diff_results.py then counts.

Timed region (median of --reps, after one untimed cold run): from the float lat/lon arrays to the
sorted (point, fence id) pairs, as ../shared/bench/peer_shapely.py times polygons. Building the
geometries and the tree is reported separately.

    peer_shapely_corridors.py --fences F.geojson --points P.csv --out R.jsonl [--reps 3]
        [--mode dwithin|buffer] [--write-polygons B.geojson]

--write-polygons writes the buffers as GeoJSON Polygons (same ids): "polygons of the same size"
for gpsfence's own polygon path.
"""
import argparse
import json
import math
import statistics
import sys
import time

import numpy as np
import shapely
from shapely import STRtree

R = 6371008.8
DEG = math.pi / 180


def load(path):
    with open(path) as fh:
        doc = json.load(fh)
    ids, lines, radius = [], [], []
    for f in doc["features"]:
        g = f["geometry"]
        parts = [g["coordinates"]] if g["type"] == "LineString" else g["coordinates"]
        ids.append(int(f["id"]))
        lines.append(parts)
        radius.append(float(f["properties"]["radius"]))
    return np.array(ids), lines, np.array(radius)


def load_points(path):
    data = np.loadtxt(path, delimiter=",", ndmin=2)
    return data[:, 0].copy(), data[:, 1].copy()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fences", required=True)
    ap.add_argument("--points", required=True)
    ap.add_argument("--out")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--mode", choices=("dwithin", "buffer"), default="dwithin")
    ap.add_argument("--write-polygons")
    ap.add_argument("--json-summary")
    a = ap.parse_args()

    t0 = time.perf_counter()
    ids, lines, radius = load(a.fences)
    lat, lon = load_points(a.points)
    t_load = time.perf_counter() - t0

    t0 = time.perf_counter()
    n = len(ids)
    lat0 = np.array([parts[0][0][1] for parts in lines])
    lon0 = np.array([parts[0][0][0] for parts in lines])
    ky = R * DEG
    kx = ky * np.cos(lat0 * DEG)

    projected = []
    boxes = []
    for i, parts in enumerate(lines):
        pl = [[(((x - lon0[i] + 540) % 360 - 180) * kx[i], (y - lat0[i]) * ky) for x, y in part] for part in parts]
        projected.append(shapely.linestrings(pl[0]) if len(pl) == 1 else shapely.multilinestrings(pl))
        xs = [x for part in parts for x, _ in part]
        ys = [y for part in parts for _, y in part]
        dlat = radius[i] / ky * 1.01
        dlon = radius[i] / kx[i] * 1.01 * 1.01
        boxes.append(shapely.box(min(xs) - dlon, min(ys) - dlat, max(xs) + dlon, max(ys) + dlat))
    projected = np.array(projected, dtype=object)

    if a.mode == "buffer" or a.write_polygons:
        buffered = shapely.buffer(projected, radius, quad_segs=16)
        polys = []
        for i, b in enumerate(buffered):
            polys.append(shapely.transform(
                b, lambda xy, i=i: np.column_stack((xy[:, 0] / kx[i] + lon0[i], xy[:, 1] / ky + lat0[i]))))
        polys = np.array(polys, dtype=object)
        if a.write_polygons:
            with open(a.write_polygons, "w") as fh:
                feats = [{"type": "Feature", "id": int(ids[i]), "geometry": json.loads(shapely.to_geojson(polys[i])),
                          "properties": {}} for i in range(n)]
                json.dump({"type": "FeatureCollection", "features": feats}, fh, separators=(",", ":"))
    if a.mode == "buffer":
        tree = STRtree(polys)
        shapely.prepare(polys)
    else:
        tree = STRtree(np.array(boxes, dtype=object))
    t_build = time.perf_counter() - t0

    def query():
        pts = shapely.points(lon, lat)
        if a.mode == "buffer":
            pi, fi = tree.query(pts, predicate="intersects")
        else:
            pi, fi = tree.query(pts)
            x = ((lon[pi] - lon0[fi] + 540) % 360 - 180) * kx[fi]
            y = (lat[pi] - lat0[fi]) * ky
            keep = shapely.dwithin(projected[fi], shapely.points(x, y), radius[fi])
            pi, fi = pi[keep], fi[keep]
        fid = ids[fi]
        order = np.lexsort((fid, pi))
        return pi[order], fid[order]

    query()  # cold: GEOS builds the tree lazily
    times = []
    cpu = []
    result = None
    for _ in range(a.reps):
        t = time.perf_counter()
        c = time.process_time()
        result = query()
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    median = statistics.median(times)

    if a.out:
        pi, fid = result
        starts = np.searchsorted(pi, np.arange(len(lat) + 1))
        fl = fid.tolist()
        with open(a.out, "w") as fh:
            for k in range(len(lat)):
                fh.write("[" + ",".join(map(str, fl[starts[k]:starts[k + 1]])) + "]\n")
    summary = {"mode": a.mode, "corridors": n, "points": len(lat), "load_s": t_load, "build_s": t_build,
               "query_median_s": median, "query_min_s": min(times),
               "query_cpu_median_s": statistics.median(cpu), "points_per_s": len(lat) / median,
               "pairs": int(len(result[0])), "shapely": shapely.__version__}
    print(json.dumps(summary))
    if a.json_summary:
        with open(a.json_summary, "w") as fh:
            json.dump(summary, fh)


if __name__ == "__main__":
    sys.exit(main())
