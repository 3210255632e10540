#!/usr/bin/env python3
"""False anchor alarms at rest and the delay of a drag's alarm: gpsfence's anchor watch beside
Signal K's rule, on the same fixes.

    python3 scripts/bench_anchor.py [--binary .build/release/gpsfence] [--days 2] [--drags 20]
                                    [--radii 20,30,50] [--keep DIR]

The captures come from scripts/anchor_captures.py (marina multipath: errors wandering 5-15 m for
minutes, spikes of 30-50 m for 5-20 s, GST present; one fix a second): `--days` captures of 24 h
at rest (seeds 1, 2, ...) and `--drags` drags at 0.3 m/s for each radius (seeds 1, 2, ...). Each is
replayed through the real binary:

    gpsfence replay CAPTURE --anchor R --anchor-at LAT,LON --alarm --json

- gpsfence: a false alarm is an `exit` of the anchor in a capture at rest (each would ring once the
  one before was answered; nobody answers in a replay, so the `alarm` events alone would stop at the
  first). A drag's detection is the first `alarm` at or after the drag began.
- a plain fence circle (`--fences` with a circle of R around the anchor, the engine's defaults for a
  fence file: hysteresis 10 m, no delay): its `exit`s, to show what the anchor watch's own settings
  change.
- Signal K's rule (the signalk-anchoralarm-plugin: an alarm when the distance from the anchor is
  above the radius plus a fudge of 10 m), computed here on the capture's GGA positions: a false
  alarm is each fix above it after one that was not; a drag's detection is the first fix above it
  after the drag began.

A drag's delay is counted from the second the true position passed R + 10 m (the capture's
truth, from `anchor_captures.py --describe`), so a negative delay is an alarm before the boat was
there (its fixes' error pointed outwards). Prints a Markdown table.
"""
import argparse
import datetime
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
GENERATOR = os.path.join(HERE, 'anchor_captures.py')
R = 6371008.8
START = datetime.datetime(2026, 6, 20, 22, 0, 0, tzinfo=datetime.timezone.utc)
SIGNALK_FUDGE = 10.0


def generate(path, mode, seed, extra):
    describe = subprocess.run(
        [sys.executable, GENERATOR, mode, '--seed', str(seed), '--describe'] + extra,
        check=True, capture_output=True, text=True).stdout
    if not os.path.exists(path):
        with open(path + '.part', 'w') as out:
            subprocess.run([sys.executable, GENERATOR, mode, '--seed', str(seed)] + extra, check=True, stdout=out)
        os.rename(path + '.part', path)
    return json.loads(describe)


def seconds(iso):
    return (datetime.datetime.fromisoformat(iso.replace('Z', '+00:00')) - START).total_seconds()


def replay(binary, capture, args):
    result = subprocess.run([binary, 'replay', capture, '--json'] + args, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f'gpsfence replay {capture} {" ".join(args)}: exit {result.returncode}\n{result.stderr}')
    return [json.loads(line) for line in result.stdout.splitlines() if line.startswith('{')]


def fence_id(event):
    fence = event.get('fence')
    return fence.get('id') if isinstance(fence, dict) else fence


def gpsfence_watch(binary, capture, radius, anchor):
    events = replay(binary, capture, ['--anchor', str(radius), '--anchor-at', anchor, '--alarm'])
    exits = [seconds(e['time']) for e in events if e['type'] == 'exit' and fence_id(e) == 'anchor']
    alarms = [seconds(e['time']) for e in events if e['type'] == 'alarm']
    return exits, alarms


def plain_circle(binary, capture, radius, anchor, folder):
    lat, lon = (float(x) for x in anchor.split(','))
    path = os.path.join(folder, f'circle-{radius}.geojson')
    with open(path, 'w') as out:
        json.dump({'type': 'FeatureCollection', 'features': [{
            'type': 'Feature', 'id': 'circle', 'geometry': {'type': 'Point', 'coordinates': [lon, lat]},
            'properties': {'radius': radius}}]}, out)
    events = replay(binary, capture, ['--fences', path])
    return [seconds(e['time']) for e in events if e['type'] == 'exit']


def positions(capture):
    """(second, lat, lon) of each GGA with a fix."""
    out = []
    with open(capture) as lines:
        for line in lines:
            if not line.startswith('$GPGGA'):
                continue
            f = line.split('*')[0].split(',')
            if f[6] == '0' or not f[2]:
                continue
            lat = int(f[2][:2]) + float(f[2][2:]) / 60
            lon = int(f[4][:3]) + float(f[4][3:]) / 60
            lat = -lat if f[3] == 'S' else lat
            lon = -lon if f[5] == 'W' else lon
            t = f[1]
            second = int(t[:2]) * 3600 + int(t[2:4]) * 60 + float(t[4:]) - 22 * 3600
            out.append((second + 86400 if second < 0 else second, lat, lon))
    # Past midnight the time of day starts again: count on from the last fix.
    fixed, day = [], 0.0
    for second, lat, lon in out:
        if fixed and second + day < fixed[-1][0] - 43200:
            day += 86400
        fixed.append((second + day, lat, lon))
    return fixed


def haversine(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    a = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * R * math.asin(math.sqrt(a))


def signalk(fixes, radius, anchor):
    lat0, lon0 = (float(x) for x in anchor.split(','))
    alarms, above = [], False
    for second, lat, lon in fixes:
        now = haversine(lat0, lon0, lat, lon) > radius + SIGNALK_FUDGE
        if now and not above:
            alarms.append(second)
        above = now
    return alarms


def summary(delays):
    found = [d for d in delays if d is not None]
    if not found:
        return 'none', '-', '-', '-'
    within = sum(1 for d in found if d <= 40)
    return (f'{len(found)}/{len(delays)}', f'{statistics.median(found):.0f}', f'{max(found):.0f}',
            f'{within}/{len(delays)}')


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--binary', default='.build/release/gpsfence')
    parser.add_argument('--days', type=int, default=2)
    parser.add_argument('--drags', type=int, default=20)
    parser.add_argument('--radii', default='20,30,50')
    parser.add_argument('--keep', help='folder for the captures (kept, and reused when there)')
    args = parser.parse_args()
    if not os.access(args.binary, os.X_OK):
        sys.exit(f'no gpsfence binary at {args.binary}: swift build -c release --product gpsfence')
    radii = [int(r) for r in args.radii.split(',')]
    folder = args.keep or tempfile.mkdtemp(prefix='bench-anchor-')
    os.makedirs(folder, exist_ok=True)

    rows = {r: {'gpsfence': {'false': 0, 'delays': []}, 'circle': {'false': 0, 'delays': []},
                'signalk': {'false': 0, 'delays': []}} for r in radii}
    for day in range(1, args.days + 1):
        capture = os.path.join(folder, f'rest-{day}.nmea')
        truth = generate(capture, 'rest', day, ['--hours', '24'])
        fixes = positions(capture)
        for radius in radii:
            exits, _ = gpsfence_watch(args.binary, capture, radius, truth['anchor'])
            rows[radius]['gpsfence']['false'] += len(exits)
            rows[radius]['circle']['false'] += len(plain_circle(args.binary, capture, radius, truth['anchor'], folder))
            rows[radius]['signalk']['false'] += len(signalk(fixes, radius, truth['anchor']))
        print(f'rest day {day}: {len(fixes)} fixes, {len(truth["spikes"])} spikes', file=sys.stderr)
    for radius in radii:
        for seed in range(1, args.drags + 1):
            capture = os.path.join(folder, f'drag-{radius}-{seed}.nmea')
            truth = generate(capture, 'drag', seed, ['--radius', str(radius)])
            dragStart = 600
            passed = truth['passes_radius_plus_10_at']
            _, alarms = gpsfence_watch(args.binary, capture, radius, truth['anchor'])
            first = next((t for t in alarms if t >= dragStart), None)
            rows[radius]['gpsfence']['delays'].append(None if first is None else first - passed)
            exits = plain_circle(args.binary, capture, radius, truth['anchor'], folder)
            first = next((t for t in exits if t >= dragStart), None)
            rows[radius]['circle']['delays'].append(None if first is None else first - passed)
            first = next((t for t in signalk(positions(capture), radius, truth['anchor']) if t >= dragStart), None)
            rows[radius]['signalk']['delays'].append(None if first is None else first - passed)
        print(f'drags at {radius} m: done', file=sys.stderr)

    names = {'gpsfence': 'gpsfence `--anchor R --alarm`', 'circle': 'gpsfence, a fence file circle of R',
             'signalk': 'Signal K (distance > R + 10 m)'}
    print(f'{args.days} days at rest, {args.drags} drags at 0.3 m/s per radius; delays in seconds after the '
          'boat passed R + 10 m\n')
    print('| R | rule | false alarms per day | drags told | median delay | longest delay | told within 40 s |')
    print('|---|---|---|---|---|---|---|')
    for radius in radii:
        for key in ('gpsfence', 'circle', 'signalk'):
            row = rows[radius][key]
            told, median, longest, within = summary(row['delays'])
            print(f'| {radius} m | {names[key]} | {row["false"] / args.days:.1f} | {told} | {median} | {longest} '
                  f'| {within} |')


if __name__ == '__main__':
    main()
