#!/usr/bin/env python3
"""Drives along real OpenStreetMap roads, written as NMEA, and the judge of what gpsfence says of
them (docs/fences.md, "The road being driven"; the figures are in docs/performance.md).

    # the drives and their truth, from the roads `gpsfence fences import --speed-limits
    # --clearances` wrote:
    python3 scripts/osm_drives.py generate --fences roads.geojson --seed 1 --routes 12 --out DIR
    # import the shipped extract, generate, replay each drive through the binary, print the counts:
    python3 scripts/osm_drives.py judge --binary .build/release/gpsfence --seed 1 --routes 200 --out DIR
    # another binary on the very same drives (its own import of the extract):
    python3 scripts/osm_drives.py judge --binary OTHER/gpsfence --drives DIR

A route follows real ways: it starts at the end of a road with a speed limit and goes on, at each
end, along a road joined there (a shared OSM node), mostly the straightest one, as a street is
driven, sometimes turning into another; one-way roads only their way. The vehicle keeps to its lane
(half a lane right of the centreline of a two-way road or a one-way road of two lanes or more) at
90 % or 130 % of each way's own limit (the limit of the way it is driven along it, where the two
differ), braking before a slower road so as to reach its speed where
it begins and speeding up after a faster one begins (1.5 m/s^2), at 1 or 10 fixes a second. Fixes
carry a city street's error: a random walk per axis (Gauss-Markov, 3 m, 20 s) plus white noise of
1.5 m, with HDOP 1.3; speed and course come from the true velocity plus 0.05 m/s of noise a
component. Trucks (4.2 m, taller than every clearance of the extract) drive the streets that pass
over low tunnels, and through those tunnels.

The truth of a drive is the route itself, written beside the NMEA in drives.json: its legs (way,
limit, metres along the route where each begins and ends) and the metres along the route of each
fix. Nothing in it comes from gpsfence. Only the Python standard library is used.

The judge counts drives at 90 % told `speeding`, drives at 130 % told none, `speeding` whose limit
is of no way driven near the fix, and, since a drive at 130 % told once somewhere may still miss a
way, the ways of 100 m or more driven at 130 % on which it was told none (those in a tunnel, where
a real receiver has no fix, counted apart too); for trucks, `too_low` over and through tunnels.
"""
import argparse
import concurrent.futures
import datetime
import json
import math
import os
import random
import subprocess
import sys
import tempfile

R = 6371008.8
HERE = os.path.dirname(os.path.abspath(__file__))
EXTRACT = os.path.join(HERE, '..', 'Tests', 'Support', 'osm', 'helsinki-roads.osm.pbf')
START = 1780300800  # 2026-06-01T08:00:00Z, a Monday morning
KNOT = 1852.0 / 3600.0
LANE_HALF = 1.75
ACCELERATION = 1.5
HDOP = 1.3
TRUCK_HEIGHT = 4.2
#: Metres along the route either side of a `speeding` within which another way's limit is the
#: junction's own doubt, not a wrong limit (the strict count takes none).
JUNCTION_SLACK = 15.0
#: A way driven this far at 130 % is long enough to be told `speeding` on (in the judge's count of
#: the ways of such drives not told).
LONG_WAY = 100.0


# ---------------------------------------------------------------- geometry (local plane per drive)

class Plane:
    """Metres east and north of a point: a flat map is exact to millimetres over a few km."""

    def __init__(self, lat, lon):
        self.lat0, self.lon0 = lat, lon
        self.ky = R * math.pi / 180
        self.kx = self.ky * math.cos(math.radians(lat))

    def xy(self, lon, lat):
        return ((lon - self.lon0) * self.kx, (lat - self.lat0) * self.ky)

    def lonlat(self, x, y):
        return (self.lon0 + x / self.kx, self.lat0 + y / self.ky)


def bearing(a, b):
    return (math.degrees(math.atan2(b[0] - a[0], b[1] - a[1])) + 360) % 360


def turn(b1, b2):
    d = abs(b1 - b2) % 360
    return 360 - d if d > 180 else d


# ---------------------------------------------------------------- the roads

class Roads:
    """The road corridors of an imported fence file and where they join (shared vertices)."""

    def __init__(self, path):
        with open(path, encoding='utf-8') as f:
            collection = json.load(f)
        self.ways = []
        self.at = {}
        lats = []
        lons = []
        for feature in collection['features']:
            p = feature.get('properties') or {}
            g = feature['geometry']
            # A node's piece of a way (`at_node`: a height barrier on it) is that way, not another.
            if 'highway' not in p or g['type'] != 'LineString' or 'at_node' in p:
                continue
            coords = [tuple(c[:2]) for c in g['coordinates']]
            way = {
                'id': feature['id'], 'coords': coords, 'props': p,
                'limit': p.get('speed_limit_kmh'), 'limit_forward': p.get('speed_limit_forward_kmh'),
                'limit_backward': p.get('speed_limit_backward_kmh'), 'clearance': p.get('clearance'),
                'oneway': p.get('oneway'), 'radius': p.get('radius', 3.5),
                'layer': self.layer(p),
            }
            index = len(self.ways)
            self.ways.append(way)
            for v, c in enumerate(coords):
                self.at.setdefault(c, []).append((index, v))
                lons.append(c[0])
                lats.append(c[1])
        self.plane = Plane(sum(lats) / len(lats), sum(lons) / len(lons))
        for way in self.ways:
            way['xy'] = [self.plane.xy(*c) for c in way['coords']]

    @staticmethod
    def layer(p):
        if 'layer' in p:
            return float(p['layer'])
        return 1.0 if 'bridge' in p else -1.0 if 'tunnel' in p else 0.0

    def limited(self, index):
        """Whether the way has a limit, either way along it or both."""
        way = self.ways[index]
        return any(way[k] is not None for k in ('limit', 'limit_forward', 'limit_backward'))

    def leg_limit(self, leg):
        """The limit of the way of `leg` (index, vertices) the way it is driven: its vertices
        ascending are `speed_limit_forward_kmh`'s way, descending `speed_limit_backward_kmh`'s; else
        `speed_limit_kmh`."""
        index, vs = leg
        way = self.ways[index]
        own = way['limit_forward'] if vs[-1] > vs[0] else way['limit_backward']
        return own if own is not None else way['limit']

    def steps(self, index):
        """The directions (+1 along the vertices, -1 against) a way may be driven."""
        oneway = self.ways[index]['oneway']
        return [1] if oneway == 'yes' else [-1] if oneway == '-1' else [1, -1]

    def lane_offset(self, index):
        way = self.ways[index]
        return LANE_HALF if way['oneway'] is None or way['radius'] >= 2 * LANE_HALF else 0.0


def leg_length(roads, leg):
    xy = roads.ways[leg[0]]['xy']
    return sum(math.dist(xy[a], xy[b]) for a, b in zip(leg[1], leg[1][1:]))


def continuations(roads, leg, usable, reverse=False):
    """Legs that go on from the end of `leg` (its start when `reverse`) along a way joined there:
    (turn in degrees, leg)."""
    index, vs = leg
    end = vs[0] if reverse else vs[-1]
    xy = roads.ways[index]['xy']
    here = roads.ways[index]['coords'][end]
    heading = bearing(xy[vs[1]], xy[vs[0]]) if reverse else bearing(xy[vs[-2]], xy[vs[-1]])
    out = []
    for other, v in roads.at[here]:
        if other == index or not usable(other):
            continue
        n = len(roads.ways[other]['coords'])
        for step in roads.steps(other):
            # Driving on means leaving the node along `step`; backwards, arriving at it along it.
            move = -step if reverse else step
            nxt = v + move
            if not 0 <= nxt < n:
                continue
            path = list(range(v, n if move > 0 else -1, move))
            if len(path) < 2:
                continue
            oxy = roads.ways[other]['xy']
            out_heading = bearing(oxy[path[0]], oxy[path[1]])
            out.append((turn(heading, out_heading), (other, path[::-1] if reverse else path)))
    return out


def extend(roads, legs, rng, usable, length, reverse=False, straight=0.75):
    """Adds legs at the end of the route (its start when `reverse`) until it is `length` metres."""
    seen = {leg[0] for leg in legs}
    total = sum(leg_length(roads, leg) for leg in legs)
    while total < length and len(legs) < 12:
        options = [(t, leg) for t, leg in continuations(roads, legs[0] if reverse else legs[-1], usable, reverse)
                   if leg[0] not in seen and t < 110]
        if not options:
            break
        options.sort(key=lambda o: o[0])
        chosen = options[0][1] if rng.random() < straight else rng.choice(options)[1]
        seen.add(chosen[0])
        if reverse:
            legs.insert(0, chosen)
        else:
            legs.append(chosen)
        total += leg_length(roads, chosen)
    return legs


def whole_leg(roads, index, step):
    n = len(roads.ways[index]['coords'])
    return (index, list(range(n)) if step > 0 else list(range(n - 1, -1, -1)))


# ---------------------------------------------------------------- a drive

def drive(roads, legs, factor, rate, default_kmh=20.0):
    """Fixes along the legs: [(t, x, y, vx, vy, s, leg)] of the true motion, and the legs' spans
    (a way without a limit is driven at `default_kmh`)."""
    points = []  # (x, y, s, leg, offset)
    spans = []
    s = 0.0
    for k, (index, vs) in enumerate(legs):
        xy = roads.ways[index]['xy']
        start = s
        for a, b in zip(vs, vs[1:]):
            if not points or points[-1][1] != s or points[-1][2] != k:
                points.append((xy[a], s, k))
            s += math.dist(xy[a], xy[b])
            points.append((xy[b], s, k))
        spans.append((start, s))
    targets = []
    for leg in legs:
        limit = roads.leg_limit(leg)
        targets.append(factor * (limit if limit else default_kmh) / 3.6)
    total = s

    def target(s_at):
        k = leg_at(spans, s_at)
        v = targets[k]
        for j in range(k + 1, len(spans)):
            if targets[j] < v:
                v = min(v, math.sqrt(targets[j] ** 2 + 2 * ACCELERATION * max(0.0, spans[j][0] - s_at)))
        return v

    def position(s_at):
        lo, hi = 0, len(points) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if points[mid + 1][1] <= s_at:
                lo = mid + 1
            else:
                hi = mid
        i = min(lo, len(points) - 2)
        (p, s1, k), (q, s2, _) = points[i], points[i + 1]
        if s2 - s1 < 1e-9:
            return p, 0.0, k
        f = (s_at - s1) / (s2 - s1)
        b = bearing(p, q)
        x = p[0] + (q[0] - p[0]) * f
        y = p[1] + (q[1] - p[1]) * f
        offset = roads.lane_offset(legs[k][0])
        # Right of the direction of travel.
        rad = math.radians(b)
        return (x + offset * math.cos(rad), y - offset * math.sin(rad)), b, k

    dt = 1.0 / rate
    v = targets[0]
    fixes = []
    t = 0.0
    s = 0.0
    while s <= total:
        (x, y), b, k = position(s)
        rad = math.radians(b)
        fixes.append((t, x, y, v * math.sin(rad), v * math.cos(rad), s, k))
        v = min(target(s), v + ACCELERATION * dt)
        s += v * dt
        t += dt
    return fixes, spans


def leg_at(spans, s):
    for k, (a, b) in enumerate(spans):
        if s < b:
            return k
    return len(spans) - 1


def nmea_lines(roads, fixes, rate, rng, start):
    """RMC and GGA of each fix, with a city street's error added to its position and velocity."""
    tau, walk, white = 20.0, 3.0, 1.5
    dt = 1.0 / rate
    rho = math.exp(-dt / tau)
    ex = rng.gauss(0, walk)
    ey = rng.gauss(0, walk)
    out = []
    for t, x, y, vx, vy, _, _ in fixes:
        ex = ex * rho + walk * math.sqrt(1 - rho * rho) * rng.gauss(0, 1)
        ey = ey * rho + walk * math.sqrt(1 - rho * rho) * rng.gauss(0, 1)
        lon, lat = roads.plane.lonlat(x + ex + rng.gauss(0, white), y + ey + rng.gauss(0, white))
        nvx = vx + rng.gauss(0, 0.05)
        nvy = vy + rng.gauss(0, 0.05)
        speed = math.hypot(nvx, nvy)
        course = (math.degrees(math.atan2(nvx, nvy)) + 360) % 360
        out += sentences(start + t, lat, lon, speed, course, rate)
    return out


def sentences(when, lat, lon, speed, course, rate):
    hundredths = int(round(when * 100))
    seconds, fraction = divmod(hundredths, 100)
    day = seconds // 86400
    sod = seconds % 86400
    stamp = '%02d%02d%02d.%02d' % (sod // 3600, sod // 60 % 60, sod % 60, fraction)
    y, m, d = civil(day)
    date = '%02d%02d%02d' % (d, m, y % 100)
    la = '%02d%09.6f,%s' % (int(abs(lat)), (abs(lat) % 1) * 60, 'N' if lat >= 0 else 'S')
    lo = '%03d%09.6f,%s' % (int(abs(lon)), (abs(lon) % 1) * 60, 'E' if lon >= 0 else 'W')
    gga = 'GPGGA,%s,%s,%s,1,09,%.1f,12.0,M,17.0,M,,' % (stamp, la, lo, HDOP)
    rmc = 'GPRMC,%s,A,%s,%s,%.3f,%.1f,%s,,,A' % (stamp, la, lo, speed / KNOT, course, date)
    return [checksummed(gga), checksummed(rmc)]


def checksummed(body):
    x = 0
    for ch in body.encode('ascii'):
        x ^= ch
    return '$%s*%02X\r\n' % (body, x)


def civil(days):
    """(year, month, day) of a day count since 1970-01-01 (Howard Hinnant's algorithm)."""
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    return (y + (m <= 2), m, d)


# ---------------------------------------------------------------- routes

def car_routes(roads, rng, count):
    """Routes over roads with a limit, each from the start of a random one, 400-900 m."""
    limited = [i for i in range(len(roads.ways)) if roads.limited(i)]

    def usable(i):
        return roads.limited(i)

    routes = []
    tries = 0
    while len(routes) < count and tries < count * 50:
        tries += 1
        index = rng.choice(limited)
        legs = extend(roads, [whole_leg(roads, index, rng.choice(roads.steps(index)))], rng, usable,
                      rng.uniform(400, 900))
        if sum(leg_length(roads, leg) for leg in legs) >= 250:
            routes.append(legs)
    return routes


def crossings(roads):
    """(street, tunnel): a road with a limit, not in the tunnel, whose line crosses the line of a road
    with a clearance in a tunnel at another layer, with no node shared."""
    def cross(a, b, c, d):
        def side(o, p, q):
            return (p[0] - o[0]) * (q[1] - o[1]) - (p[1] - o[1]) * (q[0] - o[0])
        return side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0

    out = []
    tunnels = [i for i, w in enumerate(roads.ways) if w['clearance'] and 'tunnel' in w['props']]
    streets = [i for i, w in enumerate(roads.ways) if roads.limited(i) and 'tunnel' not in w['props']]
    for t in tunnels:
        txy = roads.ways[t]['xy']
        for s in streets:
            if roads.ways[s]['layer'] == roads.ways[t]['layer']:
                continue
            if set(roads.ways[s]['coords']) & set(roads.ways[t]['coords']):
                continue
            sxy = roads.ways[s]['xy']
            if any(cross(a, b, c, d) for a, b in zip(txy, txy[1:]) for c, d in zip(sxy, sxy[1:])):
                out.append((s, t))
    return out


def truck_routes(roads, rng, count):
    """Routes along streets over low tunnels (150 m before, 150 m after) and through the tunnels."""
    def street(i):
        return roads.limited(i) and 'tunnel' not in roads.ways[i]['props']

    def anything(i):
        return True

    pairs = crossings(roads)
    over = []
    through = []
    for n in range(count):
        s, t = pairs[n % len(pairs)]
        legs = [whole_leg(roads, s, rng.choice(roads.steps(s)))]
        extend(roads, legs, rng, street, 150, reverse=True, straight=1.0)
        extend(roads, legs, rng, street, 300, straight=1.0)
        over.append((legs, t))
    for t in sorted({t for _, t in pairs}):
        legs = [whole_leg(roads, t, rng.choice(roads.steps(t)))]
        extend(roads, legs, rng, anything, 100, reverse=True, straight=1.0)
        extend(roads, legs, rng, anything, 200, straight=1.0)
        through.append((legs, t))
    return over, through


# ---------------------------------------------------------------- generate

def generate(fences, seed, routes, out, rates=(1, 10), factors=(0.9, 1.3), trucks=None, extract=None):
    """Writes the drives and drives.json (with `extract`, the OSM file `fences` was imported from,
    for a later `judge --drives`)."""
    roads = Roads(fences)
    rng = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    drives = []
    start = START

    def write(legs, kind, factor, rate, extra):
        nonlocal start
        name = 'drive-%04d-%s-%d%%-%dhz.nmea' % (len(drives), kind, round(factor * 100), rate)
        fixes, spans = drive(roads, legs, factor, rate)
        lines = nmea_lines(roads, fixes, rate, rng, start)
        with open(os.path.join(out, name), 'w', newline='') as f:
            f.writelines(lines)
        drives.append(dict(
            extra, file=name, kind=kind, factor=factor, rate=rate, start=start,
            legs=[dict(id=roads.ways[leg[0]]['id'], limit_kmh=roads.leg_limit(leg),
                       clearance=roads.ways[leg[0]]['clearance'], start=a, end=b)
                  for leg, (a, b) in zip(legs, spans)],
            fixes=[[round(f[0], 2), round(f[5], 2)] for f in fixes]))
        start += int(fixes[-1][0]) + 60

    for legs in car_routes(roads, rng, routes):
        for factor in factors:
            for rate in rates:
                write(legs, 'car', factor, rate, {})
    over, through = truck_routes(roads, rng, routes // 4 if trucks is None else trucks)
    for legs, t in over:
        write(legs, 'truck-over', 0.9, rng.choice(rates), {'tunnel': roads.ways[t]['id'],
                                                           'height': TRUCK_HEIGHT})
    for legs, t in through:
        write(legs, 'truck-through', 0.9, rng.choice(rates), {'tunnel': roads.ways[t]['id'],
                                                              'height': TRUCK_HEIGHT})
    with open(os.path.join(out, 'drives.json'), 'w') as f:
        json.dump({'drives': drives, 'junction_slack_m': JUNCTION_SLACK, 'extract': extract}, f)
    return drives


# ---------------------------------------------------------------- judge

def along(drive_truth, seconds):
    """Metres along the route at `seconds` after the drive's start."""
    fixes = drive_truth['fixes']
    best = min(fixes, key=lambda f: abs(f[0] - seconds))
    return best[1]


def limits_near(drive_truth, s, slack):
    return {leg['limit_kmh'] for leg in drive_truth['legs'] if leg['start'] - slack <= s <= leg['end'] + slack}


def judge_drive(truth, events, tunnels=frozenset(), slack=JUNCTION_SLACK):
    """What one drive's events say against its truth (`tunnels`: the ids of the ways in a tunnel)."""
    speeding = [e for e in events if e.get('type') == 'speeding']
    told_ways = {(e.get('fence') or {}).get('id') for e in speeding}
    long_ways = [leg['id'] for leg in truth['legs']
                 if leg['limit_kmh'] is not None and leg['end'] - leg['start'] >= LONG_WAY]
    untold = [w for w in long_ways if w not in told_ways]
    wrong = 0
    wrong_strict = 0
    for e in speeding:
        seconds = iso_seconds(e['time']) - truth['start']
        s = along(truth, seconds)
        limit = round(e['limit'] * 3.6, 3)
        if not any(l is not None and abs(l - limit) < 0.01 for l in limits_near(truth, s, slack)):
            wrong += 1
        if not any(l is not None and abs(l - limit) < 0.01 for l in limits_near(truth, s, 0)):
            wrong_strict += 1
    too_low = [e for e in events if e.get('too_low') is True and e.get('type') in ('approach', 'enter')]
    return {
        'speeding': len(speeding), 'wrong_limit': wrong, 'wrong_limit_strict': wrong_strict,
        'too_low': len(too_low), 'long_ways': len(long_ways), 'long_ways_untold': len(untold),
        'long_ways_untold_in_tunnel': sum(1 for w in untold if w in tunnels), 'untold': untold,
        'too_low_tunnel': sum(1 for e in too_low if (e.get('fence') or {}).get('id') == truth.get('tunnel')),
    }


def iso_seconds(text):
    text = text.replace('Z', '+00:00')
    return datetime.datetime.fromisoformat(text).timestamp()


def tally(truths, verdicts):
    counts = {
        'car_drives_90': 0, 'car_drives_90_with_speeding': 0,
        'car_drives_130': 0, 'car_drives_130_without_speeding': 0,
        'car_130_long_ways': 0, 'car_130_long_ways_not_told': 0, 'car_130_long_ways_not_told_in_tunnel': 0,
        'speeding_events': 0, 'speeding_wrong_limit': 0, 'speeding_wrong_limit_strict': 0,
        'truck_drives_with_speeding': 0,
        'truck_over_drives': 0, 'truck_over_told_too_low': 0,
        'truck_through_drives': 0, 'truck_through_not_told_too_low': 0,
        'truck_through_not_told_too_low_at_all': 0,
    }
    failures = []
    untold = []
    for truth, v in zip(truths, verdicts):
        counts['speeding_events'] += v['speeding']
        counts['speeding_wrong_limit'] += v['wrong_limit']
        counts['speeding_wrong_limit_strict'] += v['wrong_limit_strict']
        bad = v['wrong_limit'] > 0
        if truth['kind'] == 'car' and truth['factor'] < 1:
            counts['car_drives_90'] += 1
            if v['speeding']:
                counts['car_drives_90_with_speeding'] += 1
                bad = True
        elif truth['kind'] == 'car':
            counts['car_drives_130'] += 1
            counts['car_130_long_ways'] += v['long_ways']
            counts['car_130_long_ways_not_told'] += v['long_ways_untold']
            counts['car_130_long_ways_not_told_in_tunnel'] += v['long_ways_untold_in_tunnel']
            untold += ['%s:%s' % (truth['file'], way) for way in v['untold']]
            if not v['speeding']:
                counts['car_drives_130_without_speeding'] += 1
                bad = True
        elif truth['kind'] == 'truck-over':
            counts['truck_over_drives'] += 1
            if v['too_low']:
                counts['truck_over_told_too_low'] += 1
                bad = True
        else:
            counts['truck_through_drives'] += 1
            if not v['too_low_tunnel']:
                counts['truck_through_not_told_too_low'] += 1
                bad = True
            if not v['too_low']:
                counts['truck_through_not_told_too_low_at_all'] += 1
        if truth['kind'] != 'car' and v['speeding']:
            counts['truck_drives_with_speeding'] += 1
            bad = True
        if bad:
            failures.append(truth['file'])
    return counts, failures, untold


def replay(binary, folder, truth, fences):
    """The events of one drive, replayed in a process of its own (a truck with its height)."""
    command = [binary, 'replay', os.path.join(folder, truth['file']), '--fences', fences, '--json']
    if 'height' in truth:
        command += ['--vehicle-height', str(truth['height'])]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit('replay of %s failed (%d): %s' % (' '.join(command), done.returncode, done.stderr))
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def replay_all(binary, folder, truths, fences):
    """Each drive replayed in a process of its own, as many at once as there are processors: the
    four drives of one route (two rates, two speeds) follow one another along the same roads, and
    where the route is one long way, a process given all four (one vehicle, a minute between its
    drives) told the first one's `speeding` only."""
    with open(fences, encoding='utf-8') as f:
        tunnels = frozenset(feature['id'] for feature in json.load(f)['features']
                            if (feature.get('properties') or {}).get('tunnel', 'building_passage') != 'building_passage')

    def one(truth):
        return judge_drive(truth, replay(binary, folder, truth, fences), tunnels)
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        return list(pool.map(one, truths))


def judge(args):
    extract = args.extract
    if args.drives:
        # The drives of an earlier run, replayed over this binary's own import of the extract they
        # were driven on: two binaries judged on the same fixes (drives generated from each one's
        # import differ in their random draws as soon as the imports differ).
        folder = args.drives
        fences = os.path.join(tempfile.mkdtemp(prefix='osm-drives-fences-'), 'roads.geojson')
        with open(os.path.join(folder, 'drives.json')) as f:
            recorded = json.load(f)
        truths = recorded['drives']
        extract = extract or recorded.get('extract') or EXTRACT
    else:
        folder = args.out or tempfile.mkdtemp(prefix='osm-drives-')
        os.makedirs(folder, exist_ok=True)
        fences = os.path.join(folder, 'roads.geojson')
        extract = os.path.abspath(extract or EXTRACT)
    done = subprocess.run([args.binary, 'fences', 'import', extract, '--speed-limits', '--clearances',
                           '--output', fences], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit('import failed: ' + done.stderr)
    if not args.drives:
        truths = generate(fences, args.seed, args.routes, folder, trucks=args.trucks, extract=extract)
    verdicts = replay_all(args.binary, folder, truths, fences)
    counts, failures, untold = tally(truths, verdicts)
    print(json.dumps(counts, indent=1))
    if failures:
        print('drives judged wrong (in %s): %s' % (folder, ' '.join(failures[:40])))
    if untold:
        print('long ways at 130 %% told no speeding: %s' % ' '.join(untold[:40]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = parser.add_subparsers(dest='command', required=True)
    g = sub.add_parser('generate')
    g.add_argument('--fences', required=True)
    g.add_argument('--seed', type=int, default=1)
    g.add_argument('--routes', type=int, default=12)
    g.add_argument('--trucks', type=int)
    g.add_argument('--out', required=True)
    j = sub.add_parser('judge')
    j.add_argument('--binary', required=True)
    j.add_argument('--extract', help='the OSM extract (default: the shipped Helsinki one; with --drives, '
                   'the one the drives were generated on)')
    j.add_argument('--seed', type=int, default=1)
    j.add_argument('--routes', type=int, default=100)
    j.add_argument('--trucks', type=int)
    j.add_argument('--out')
    j.add_argument('--drives', help='the folder of an earlier run: judge its drives, generate none')
    args = parser.parse_args()
    if args.command == 'generate':
        drives = generate(args.fences, args.seed, args.routes, args.out, trucks=args.trucks)
        print('%d drives in %s' % (len(drives), args.out))
    else:
        judge(args)


if __name__ == '__main__':
    main()
