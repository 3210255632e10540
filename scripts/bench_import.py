#!/usr/bin/env python3
"""`gpsfence fences import` against osmium on the same OSM file in the same run (docs/performance.md,
"Importing fences"): wall time and peak resident memory of each, and whether they kept the same
ways with the same coordinates.

    swift build -c release --product gpsfence
    python3 scripts/bench_import.py [--ways 145000] [--dir /tmp/gpsfence-bench-import]

The file is generated: a road network of `--ways` ways of 15 nodes each (wiggly steps of 50-70 m
over southern Germany), half of them with a `maxspeed` (numbers, mph, a country code), half
without; as many untagged nodes again that no way uses (buildings' and trees' nodes, which a
country's extract is mostly made of), and a tagged node per 50 ways. Written as OSM XML, then
converted to PBF with `osmium cat`. The default makes an XML file of 516 MB (a PBF of 23 MB).

gpsfence: `fences import FILE --speed-limits --output OUT.geojson`.
Peer: `osmium tags-filter FILE w/maxspeed -o FILTERED.osm.pbf` then `osmium export FILTERED.osm.pbf
-f geojsonseq --geometry-types=linestring --add-unique-id=type_id` (Debian's osmium-tool): the same
selection made into the same LineStrings. Each command runs under `/usr/bin/time -v`: elapsed
wall time and maximum resident set size; the peer's time is the sum of its two commands, its
memory the larger. Both read the PBF, then both read the XML.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SPEEDS = ['30', '50', '70', '100', '30 mph', 'DE:urban', 'DE:rural', '50 km/h']


def generate(path, ways, seed=1):
    rng = random.Random(seed)
    per_way = 15
    node_id = 1
    refs = []
    with open(path, 'w', buffering=1 << 22) as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6" generator="bench_import.py">\n')
        for way in range(ways):
            # A road starting anywhere in a 900 x 700 km box, each step 50-70 m in a slowly turning direction.
            lat = 47.3 + rng.random() * 6.3
            lon = 5.9 + rng.random() * 9.0
            heading = rng.random() * 6.283
            ids = []
            for _ in range(per_way):
                tags = ''
                if node_id % (per_way * 50) == 7:
                    tags = '<tag k="highway" v="traffic_signals"/>'
                line = (f'  <node id="{node_id}" version="1" timestamp="2026-01-01T00:00:00Z" '
                        f'lat="{lat:.7f}" lon="{lon:.7f}"')
                out.write(line + ('>' + tags + '</node>\n' if tags else '/>\n'))
                ids.append(node_id)
                node_id += 1
                step = 50 + rng.random() * 20
                heading += rng.uniform(-0.3, 0.3)
                lat += step * __import__('math').cos(heading) / 111195.0
                lon += step * __import__('math').sin(heading) / (111195.0 * 0.66)
            refs.append(ids)
            for _ in range(per_way):
                out.write(f'  <node id="{node_id}" version="1" timestamp="2026-01-01T00:00:00Z" '
                          f'lat="{lat + rng.random() * 0.01:.7f}" lon="{lon + rng.random() * 0.01:.7f}"/>\n')
                node_id += 1
        kept = 0
        for index, ids in enumerate(refs):
            out.write(f'  <way id="{index + 1}" version="1" timestamp="2026-01-01T00:00:00Z">\n')
            for ref in ids:
                out.write(f'    <nd ref="{ref}"/>\n')
            out.write('    <tag k="highway" v="residential"/>\n')
            if index % 2 == 0:
                out.write(f'    <tag k="maxspeed" v="{SPEEDS[index // 2 % len(SPEEDS)]}"/>\n')
                kept += 1
            out.write(f'    <tag k="name" v="Straße {index}"/>\n  </way>\n')
        out.write('</osm>\n')
    return kept


def timed(command):
    """(seconds, peak resident KB) of `command` run under /usr/bin/time -v."""
    start = time.monotonic()
    result = subprocess.run(['/usr/bin/time', '-v'] + command, capture_output=True, text=True)
    elapsed = time.monotonic() - start
    if result.returncode != 0:
        sys.exit(f'{command[0]} failed: {result.stderr[-2000:]}')
    peak = int(re.search(r'Maximum resident set size \(kbytes\): (\d+)', result.stderr).group(1))
    return elapsed, peak


def ours(path):
    with open(path) as f:
        data = json.load(f)
    return {f['id'].split('/')[-1]: [tuple(p) for p in f['geometry']['coordinates']] for f in data['features']}


def theirs(path):
    found = {}
    with open(path) as f:
        for line in f:
            line = line.strip().lstrip('\x1e')
            if not line:
                continue
            feature = json.loads(line)
            found[feature['properties']['@id'] if '@id' in feature['properties'] else feature['id'][1:]] = [
                (round(p[0], 7), round(p[1], 7)) for p in feature['geometry']['coordinates']]
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--ways', type=int, default=145000)
    parser.add_argument('--dir', default='/tmp/gpsfence-bench-import')
    parser.add_argument('--binary', default=os.path.join(ROOT, '.build', 'release', 'gpsfence'))
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    xml = os.path.join(args.dir, f'roads-{args.ways}.osm')
    pbf = xml + '.pbf'
    if not os.path.exists(xml):
        kept = generate(xml, args.ways)
    else:
        kept = (args.ways + 1) // 2
    if not os.path.exists(pbf):
        subprocess.run(['osmium', 'cat', xml, '-o', pbf, '--overwrite'], check=True)
    print(f'file: {args.ways} ways of 15 nodes, {kept} with maxspeed; XML {os.path.getsize(xml) / 1e6:.0f} MB, '
          f'PBF {os.path.getsize(pbf) / 1e6:.0f} MB')
    for source in [pbf, xml]:
        kind = 'PBF' if source.endswith('.pbf') else 'XML'
        out = os.path.join(args.dir, 'gpsfence.geojson')
        g_time, g_peak = timed([args.binary, 'fences', 'import', source, '--speed-limits', '--output', out])
        filtered = os.path.join(args.dir, 'filtered.osm.pbf')
        exported = os.path.join(args.dir, 'osmium.geojsonseq')
        f_time, f_peak = timed(['osmium', 'tags-filter', source, 'w/maxspeed', '-o', filtered, '--overwrite'])
        e_time, e_peak = timed(['osmium', 'export', filtered, '-f', 'geojsonseq', '--geometry-types=linestring',
                                '--add-unique-id=type_id', '-o', exported, '--overwrite'])
        mine, peer = ours(out), theirs(exported)
        same = mine.keys() == peer.keys() and all(mine[k] == peer[k] for k in mine)
        print(f'{kind}: gpsfence {g_time:.2f} s, peak {g_peak / 1024:.0f} MB; osmium tags-filter + export '
              f'{f_time + e_time:.2f} s ({f_time:.2f} + {e_time:.2f}), peak {max(f_peak, e_peak) / 1024:.0f} MB; '
              f'{(f_time + e_time) / g_time:.2f}x; {len(mine)} corridors, osmium {len(peer)}, '
              f'{"same ways and coordinates" if same else "DIFFERENT"}')
        if not same:
            sys.exit(1)


if __name__ == '__main__':
    main()
