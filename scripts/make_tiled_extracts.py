#!/usr/bin/env python3
"""A country's roads made of real ones: the roads that `gpsfence fences import --speed-limits
--clearances` wrote from real OpenStreetMap extracts, copied side by side over a box (Germany's by
default: the options the country generators share) until the file holds `--ways` roads, for the
country load (docs/performance.md, "A country's roads").
The generators draw roads of shapes someone chose; these are the shapes, vertex counts, names and
property texts mappers drew, the copies in turn (one extract, then the next).

    fences import Tests/Support/osm/helsinki-roads.osm.pbf --speed-limits --clearances --output h.geojson
    python3 scripts/make_tiled_extracts.py --fences h.geojson b.geojson --ways 1000000 --out-prefix bench-data/tx

Each copy is moved to a place of its own, the copies laid in rows across the box (no copy overlaps
another);
its ids become `osm:way/C0N` (the copy's number C before the way's id N, padded: ids of up to 14
digits) and its shared node ids likewise, so junctions join only within a copy. Writes
PREFIX.geojson and PREFIX.points.csv (`--points` 'lat,lon' lines, half on a road vertex of a copy,
half anywhere in the box) and prints the counts. Only the Python standard library is used;
deterministic for a seed.
"""
import argparse
import json
import random

from country_arguments import add_country_arguments

GAP = 0.002


def load(path):
    with open(path, encoding='utf-8') as f:
        features = [feature for feature in json.load(f)['features']
                    if feature['geometry']['type'] == 'LineString']
    lons = [c[0] for feature in features for c in feature['geometry']['coordinates']]
    lats = [c[1] for feature in features for c in feature['geometry']['coordinates']]
    return features, (min(lons), min(lats), max(lons), max(lats))


def moved(feature, copy, dlon, dlat):
    kind, number = feature['id'].split('/', 1)
    properties = dict(feature['properties'])
    if 'shared_nodes' in properties:
        properties['shared_nodes'] = [[v, int('%d0%d' % (copy, node))] for v, node in properties['shared_nodes']]
    coordinates = [[round(lon + dlon, 7), round(lat + dlat, 7)] for lon, lat in feature['geometry']['coordinates']]
    return {'type': 'Feature', 'id': '%s/%d0%s' % (kind, copy, number),
            'geometry': {'type': 'LineString', 'coordinates': coordinates}, 'properties': properties}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--fences', nargs='+', required=True, help='imported road files (GeoJSON)')
    parser.add_argument('--ways', type=int, default=1_000_000)
    add_country_arguments(parser)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    extracts = [load(path) for path in args.fences]
    ways = vertices = copies = 0
    x, y, row_height = args.west, args.south, 0.0
    on_road = []
    with open(args.out_prefix + '.geojson', 'w', encoding='utf-8') as out:
        out.write('{"type":"FeatureCollection","features":[\n')
        while ways < args.ways:
            features, (west, south, east, north) = extracts[copies % len(extracts)]
            if x + east - west > args.east:
                x, y, row_height = args.west, y + row_height + GAP, 0.0
            if y + north - south > args.north:
                raise SystemExit('the box holds %d copies: fewer --ways, or smaller extracts' % copies)
            dlon = x - west
            dlat = y - south
            x += east - west + GAP
            row_height = max(row_height, north - south)
            copies += 1
            for feature in features:
                if ways == args.ways:
                    break
                feature = moved(feature, copies, dlon, dlat)
                out.write((',\n' if ways else '') + json.dumps(feature, ensure_ascii=False, separators=(',', ':')))
                ways += 1
                vertices += len(feature['geometry']['coordinates'])
                if len(on_road) < args.points // 2 or rng.random() < 0.001:
                    point = rng.choice(feature['geometry']['coordinates'])
                    if len(on_road) < args.points // 2:
                        on_road.append(point)
                    else:
                        on_road[rng.randrange(len(on_road))] = point
        out.write('\n]}\n')
    anywhere = [[rng.uniform(args.west, args.east), rng.uniform(args.south, args.north)]
                for _ in range(args.points - len(on_road))]
    with open(args.out_prefix + '.points.csv', 'w', encoding='utf-8') as out:
        for lon, lat in on_road + anywhere:
            out.write('%.7f,%.7f\n' % (lat, lon))
    print('%d ways (%d vertices, %.1f a way) in %d copies of %d extracts; %d points' % (
        ways, vertices, vertices / ways, copies, len(extracts), len(on_road) + len(anywhere)))


if __name__ == '__main__':
    main()
