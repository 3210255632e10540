#!/usr/bin/env python3
"""Why the KML reader is written here (docs/fences.md, "Why the KML reader and the KMZ reading are
written here"): `gpsfence fences import` of a large KML against the reading half of the same import
on Debian's two XML libraries, libxml2 (its streaming xmlTextReader) and expat, in the same run; and
the same document as a KMZ, for what the zip reading costs.

    swift build -c release --product gpsfence
    python3 scripts/bench_kml_reader.py [--placemarks 200000] [--reps 5] [--dir /tmp/gpsfence-bench-kml]

The file is generated (fixed seed): `--placemarks` placemarks in Folders, a third each of points,
polygons of 40 vertices with a hole in every fifth, and lines of 15 vertices, each with a name, a
description and ExtendedData (a `radius`, a `clearance` in feet and inches on every tenth, a text).
The default makes a KML of about 120 MB.

gpsfence: `fences import FILE.kml --output OUT.geojson`: reads, checks, builds every fence and
writes the GeoJSON. Peers (scripts/peers/kml_libxml2.c, kml_expat.c, built here with gcc -O2): read
every element and text of the file, each placemark's name and each `coordinates` text parsed to
doubles, and write nothing, so their time is a lower bound for an import built on them. Each command
runs under `/usr/bin/time -v`; the median wall time and CPU time (user + system) of `--reps`
alternated runs and the largest resident set are printed. The KMZ (the KML deflated in a zip, as Google Earth writes it) is imported
the same way; its extra time over the KML's is what its zip reading costs.
"""
import argparse
import math
import os
import random
import re
import statistics
import subprocess
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def ring(rng, lat, lon, count, size):
    points = []
    for i in range(count):
        angle = 6.283185307179586 * i / count
        r = size * (0.8 + 0.4 * rng.random())
        points.append((lon + r * 1.4 * math.cos(angle), lat + r * math.sin(angle)))
    points.append(points[0])
    return ' '.join(f'{x:.7f},{y:.7f},0' for x, y in points)


def generate(path, placemarks, seed=7):
    rng = random.Random(seed)
    with open(path, 'w') as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                  '<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>bench</name>\n')
        for i in range(placemarks):
            if i % 1000 == 0:
                if i:
                    out.write('</Folder>\n')
                out.write(f'<Folder><name>Region {i // 1000}</name>\n')
            lat = 47.0 + rng.random() * 3
            lon = 7.0 + rng.random() * 6
            data = f'<Data name="radius"><value>{rng.randint(5, 80)}</value></Data>'
            if i % 10 == 0:
                data += f'<Data name="clearance"><value>{rng.randint(9, 13)}\' {rng.randint(0, 11)}"</value></Data>'
            data += f'<Data name="note"><value>note &amp; text {i}</value></Data>'
            out.write(f'<Placemark id="p{i}"><name>Place {i} &lt;{i % 97}&gt;</name>'
                      f'<description><![CDATA[<b>Site</b> {i}]]></description>'
                      f'<ExtendedData>{data}</ExtendedData>')
            kind = i % 3
            if kind == 0:
                out.write(f'<Point><coordinates>{lon:.7f},{lat:.7f},0</coordinates></Point>')
            elif kind == 1:
                out.write('<Polygon><outerBoundaryIs><LinearRing><coordinates>'
                          + ring(rng, lat, lon, 40, 0.002)
                          + '</coordinates></LinearRing></outerBoundaryIs>')
                if i % 5 == 1:
                    out.write('<innerBoundaryIs><LinearRing><coordinates>'
                              + ring(rng, lat, lon, 12, 0.0005)
                              + '</coordinates></LinearRing></innerBoundaryIs>')
                out.write('</Polygon>')
            else:
                steps = []
                x, y = lon, lat
                for _ in range(15):
                    x += (rng.random() - 0.3) * 0.0008
                    y += (rng.random() - 0.3) * 0.0006
                    steps.append(f'{x:.7f},{y:.7f},0')
                out.write('<LineString><coordinates>' + ' '.join(steps) + '</coordinates></LineString>')
            out.write('</Placemark>\n')
        out.write('</Folder>\n</Document></kml>\n')


def timed(command):
    result = subprocess.run(['/usr/bin/time', '-v'] + command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f'{command[0]} failed ({result.returncode}): {result.stderr[-2000:]}')
    wall = re.search(r'Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)', result.stderr).group(1)
    seconds = sum(float(part) * 60 ** index for index, part in enumerate(reversed(wall.split(':'))))
    rss = int(re.search(r'Maximum resident set size \(kbytes\): (\d+)', result.stderr).group(1))
    cpu = sum(float(re.search(rf'{kind} time \(seconds\): (\S+)', result.stderr).group(1)) for kind in ('User', 'System'))
    return seconds, cpu, rss / 1024, result.stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--placemarks', type=int, default=200_000)
    parser.add_argument('--reps', type=int, default=5)
    parser.add_argument('--dir', default='/tmp/gpsfence-bench-kml')
    parser.add_argument('--binary', default=os.path.join(ROOT, '.build/release/gpsfence'))
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    kml = os.path.join(args.dir, f'bench-{args.placemarks}.kml')
    kmz = os.path.join(args.dir, f'bench-{args.placemarks}.kmz')
    if not os.path.exists(kml):
        generate(kml, args.placemarks)
    if not os.path.exists(kmz):
        with zipfile.ZipFile(kmz, 'w', zipfile.ZIP_DEFLATED) as archive:
            archive.write(kml, 'doc.kml')
    peers = {}
    for name, library in (('libxml2', ['-I/usr/include/libxml2', '-lxml2']), ('expat', ['-lexpat'])):
        binary = os.path.join(args.dir, f'kml_{name}')
        source = os.path.join(HERE, 'peers', f'kml_{name}.c')
        subprocess.run(['gcc', '-O2', '-o', binary, source] + library, check=True)
        peers[name] = [binary, kml]
    commands = {
        'gpsfence KML': [args.binary, 'fences', 'import', kml, '--output', os.path.join(args.dir, 'out-kml.geojson')],
        'gpsfence KMZ': [args.binary, 'fences', 'import', kmz, '--output', os.path.join(args.dir, 'out-kmz.geojson')],
        'libxml2 reading': peers['libxml2'],
        'expat reading': peers['expat'],
    }
    results = {name: [] for name in commands}
    cpus = {name: [] for name in commands}
    memory = {name: 0.0 for name in commands}
    outputs = {}
    for _ in range(args.reps):
        for name, command in commands.items():
            seconds, cpu, rss, stdout = timed(command)
            results[name].append(seconds)
            cpus[name].append(cpu)
            memory[name] = max(memory[name], rss)
            outputs[name] = stdout.strip()
    size = os.path.getsize(kml) / 1e6
    print(f'{args.placemarks} placemarks, KML {size:.0f} MB, KMZ {os.path.getsize(kmz) / 1e6:.0f} MB, '
          f'{args.reps} alternated runs each')
    for name in commands:
        times = results[name]
        print(f'{name:18} median {statistics.median(times):6.2f} s  (min {min(times):.2f}, max {max(times):.2f})'
              f'  CPU {statistics.median(cpus[name]):5.2f} s  peak {memory[name]:6.0f} MB')
    for name in ('libxml2 reading', 'expat reading'):
        print(f'{name}: {outputs[name]}')
    with open(os.path.join(args.dir, 'out-kml.geojson'), 'rb') as a, open(os.path.join(args.dir, 'out-kmz.geojson'), 'rb') as b:
        same = a.read() == b.read()
    print('KML and KMZ imports byte-identical:', same)


if __name__ == '__main__':
    main()
