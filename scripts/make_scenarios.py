#!/usr/bin/env python3
"""Generate the field-test scenarios in captures/: an NMEA capture, its fences and the events a
correct engine must print, for each scenario.

    python3 scripts/make_scenarios.py            # rewrites captures/<scenario>/...

The expected events are NOT recorded from gpsfence. Each scenario places fixes on a straight line
(a great circle) through a fence at known distances, so every event time follows from arithmetic
written out below, next to the geometry that causes it. The script also checks its own arithmetic
against an independent haversine / point-in-polygon evaluation of every fix (`check_inside`), so a
typo in a hand-derived time fails here, not in the engine's tests.

Semantics (docs/events.md, defaults of `gpsfence replay`): enter on the first usable fix inside; exit when
two consecutive usable fixes are outside by more than max(hysteresis 10 m, min(accuracy, 50 m));
the exit event carries the time of the confirming fix; dwell once the stay reaches 60 s; visit at
exit for stays that reached the dwell time; cross when the segment between two consecutive usable
fixes passes through a fence neither fix is inside; approach when the path ahead along the track,
over the fence's `approach` distance, reaches the fence (carries distance along track and eta);
fix_lost after 10 s without a usable fix (receiver time), fix_acquired on the next usable fix;
`registered` first, at the time of the first epoch. Accuracy: HDOP 0.9 x UERE 5 m = 4.5 m.
Only the fields listed in expected.jsonl are compared (ids are checked for uniqueness instead).
"""
import json
import math
import os
import random

R = 6371008.8
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', 'captures')
DATE = (2026, 2, 3)
START = 10 * 3600 + 15 * 60  # 10:15:00 UTC
KNOT = 1852.0 / 3600.0


# ---------------------------------------------------------------- geometry (sphere, R above)

def destination(lat, lon, bearing, distance):
    """Point `distance` metres from (lat, lon) along the great circle with initial `bearing`."""
    if distance < 0:
        bearing, distance = bearing + 180.0, -distance
    p1, l1, b, d = math.radians(lat), math.radians(lon), math.radians(bearing), distance / R
    p2 = math.asin(math.sin(p1) * math.cos(d) + math.cos(p1) * math.sin(d) * math.cos(b))
    l2 = l1 + math.atan2(math.sin(b) * math.sin(d) * math.cos(p1), math.cos(d) - math.sin(p1) * math.sin(p2))
    lon2 = (math.degrees(l2) + 540.0) % 360.0 - 180.0
    return math.degrees(p2), lon2


def haversine(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    a = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * R * math.asin(min(1.0, math.sqrt(a)))


def ring_contains(ring, x, y):
    """Even-odd test on (lon, lat), boundary excluded (the scenarios keep fixes off boundaries)."""
    inside = False
    for (x1, y1), (x2, y2) in zip(ring, ring[1:]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def polygon_contains(polygon, lon, lat):
    return ring_contains(polygon[0], lon, lat) and not any(ring_contains(h, lon, lat) for h in polygon[1:])


def check_inside(feature, lat, lon):
    g = feature['geometry']
    if g['type'] == 'Point':
        clon, clat = g['coordinates']
        return haversine(lat, lon, clat, clon) <= feature['properties']['radius']
    polys = [g['coordinates']] if g['type'] == 'Polygon' else g['coordinates']
    return any(polygon_contains(p, lon, lat) for p in polys)


def box(lat0, lon0, half_ns, half_ew):
    """A closed CCW ring (lon, lat) of a box centred on (lat0, lon0), half sizes in metres."""
    n = destination(lat0, lon0, 0, half_ns)[0]
    s = destination(lat0, lon0, 180, half_ns)[0]
    e = destination(lat0, lon0, 90, half_ew)[1]
    w = destination(lat0, lon0, 270, half_ew)[1]
    return [[w, s], [e, s], [e, n], [w, n], [w, s]]


def circle(fid, name, lat, lon, radius, **props):
    return {'type': 'Feature', 'id': fid, 'geometry': {'type': 'Point', 'coordinates': [lon, lat]},
            'properties': dict(name=name, radius=radius, **props)}


# ---------------------------------------------------------------- NMEA

def checksum(body):
    c = 0
    for ch in body.encode():
        c ^= ch
    return '$%s*%02X' % (body, c)


def hhmmss(t):
    t = START + t
    return '%02d%02d%06.3f' % (t // 3600 % 24, t // 60 % 60, t % 60)


def iso(t):
    t = START + t
    ms = int(round((t - math.floor(t)) * 1000))
    t = int(math.floor(t))
    return '%04d-%02d-%02dT%02d:%02d:%02d.%03dZ' % (DATE + (t // 3600 % 24, t // 60 % 60, t % 60, ms))


def nmea_angle(value, width, pos, neg):
    hemi = pos if value >= 0 else neg
    value = abs(value)
    deg = int(value)
    minutes = (value - deg) * 60
    return '%0*d%010.7f' % (width, deg, minutes), hemi


def epoch(sample):
    """GGA, RMC and GSA for one sample, as a u-blox at 1 Hz would send them."""
    t, lat, lon, speed, track, valid = sample
    time = hhmmss(t)
    date = '%02d%02d%02d' % (DATE[2], DATE[1], DATE[0] % 100)
    if not valid:
        return [checksum('GPGGA,%s,,,,,0,00,99.99,,M,,M,,' % time),
                checksum('GPRMC,%s,V,,,,,,,%s,,,N' % (time, date)),
                checksum('GPGSA,A,1,,,,,,,,,,,,,99.99,99.99,99.99')]
    la, ns = nmea_angle(lat, 2, 'N', 'S')
    lo, ew = nmea_angle(lon, 3, 'E', 'W')
    return [checksum('GPGGA,%s,%s,%s,%s,%s,1,08,0.9,250.0,M,-34.0,M,,' % (time, la, ns, lo, ew)),
            checksum('GPRMC,%s,A,%s,%s,%s,%s,%.3f,%.2f,%s,,,A' % (time, la, ns, lo, ew, speed / KNOT, track, date)),
            checksum('GPGSA,A,3,02,05,07,13,15,18,20,30,,,,,1.6,0.9,1.3')]


# ---------------------------------------------------------------- scenarios

def line_samples(lat0, lon0, bearing, offsets, speed, times=None):
    """Fixes on the great circle through (lat0, lon0) with `bearing`, at signed along-track offsets."""
    times = times if times is not None else list(range(len(offsets)))
    return [(t, *destination(lat0, lon0, bearing, x), speed, bearing % 360, True) for t, x in zip(times, offsets)]


def bridge():
    """A truck at 25 m/s eastbound is warned a mile before a low bridge, then passes under it.

    Fence: circle r = 12 m on the road, `approach` 1609.344 m (one mile). Fix t (s) is at
    x = -2500 + 25 t metres from the centre along the road.
    - approach: the path ahead reaches the fence when 2500 - 25 t - 12 <= 1609.344, i.e.
      t >= 35.146: first at t = 36, distance 2500 - 900 - 12 = 1588 m, eta 1588 / 25 = 63.52 s.
    - enter: |x| <= 12 first at t = 100 (x = 0; t = 99 is x = -25).
    - exit: t = 101 is 25 - 12 = 13 m out (> 10 m), t = 102 is 38 m out: confirmed at t = 102.
    - no dwell (1 s inside), no visit, no cross (t = 100 is inside).
    The second fence, 200 m north of the road, is never approached: the ray passes it by.
    The bridge's `clearance` is 3.2 m (10'6"): with `--vehicle-height 3.5` (make demo) the
    approach and the enter carry `too_low: true`; with 3.0, or no height, nothing is flagged.
    """
    lat0, lon0 = 42.280597, -83.751891
    fences = [circle('bridge-1', 'Low bridge 10\'6"', lat0, lon0, 12.0, approach=1609.344, clearance=3.2),
              circle('diner', 'Roadside diner', *destination(lat0, lon0, 0, 200), 30.0, approach=500)]
    samples = line_samples(lat0, lon0, 90, [-2500 + 25 * t for t in range(121)], 25.0)
    events = [
        ev(0, 'registered', fences=['bridge-1', 'diner']),
        ev(36, 'approach', 'bridge-1', distance=1588.0, eta=63.52),
        ev(100, 'enter', 'bridge-1'),
        ev(102, 'exit', 'bridge-1'),
    ]
    return fences, samples, events


def cross():
    """A car at 30 m/s passes a 10 m fence (r = 5 m) between two 1 Hz fixes.

    Fix t is at x = -100 + 30 t: t = 3 is x = -10 (5 m outside), t = 4 is x = +20 (15 m outside).
    The segment between them passes through the centre: `cross` at t = 4, and no enter or exit.
    A second fence 40 m to the side of the road (r = 5 m) is not crossed.
    """
    lat0, lon0 = 51.5007, -0.1246
    fences = [circle(7, 'Speed camera', lat0, lon0, 5.0),
              circle(8, 'Bus stop', *destination(lat0, lon0, 0, 40), 5.0)]
    samples = line_samples(lat0, lon0, 90, [-100 + 30 * t for t in range(9)], 30.0)
    events = [ev(0, 'registered', fences=[7, 8]), ev(4, 'cross', 7)]
    return fences, samples, events


def gym():
    """A gym member walks in, stays about 20 minutes, walks out: enter, dwell, exit, visit.

    Fence: circle r = 40 m. Walk in at 1.5 m/s from x = -100: fix t at x = -100 + 1.5 t.
    - enter: x >= -40 first at t = 40 (x = -40.0 is on the boundary: inside, as distance <= r;
      the scenario keeps a margin instead: walking starts at x = -100.75, so t = 40 is x = -40.75,
      outside, and t = 41 is x = -39.25, inside): enter at t = 41.
    - walking stops at x = -10 (t = 61), then 1200 fixes jitter within 3 m of that spot.
    - dwell: 60 s after the enter: t = 101.
    - walk out westward from t = 1262 at 1.5 m/s: x = -10 - 1.5 (t - 1261); the boundary is passed
      at x = -40 (t = 1281); exit threshold 10 m: x < -50 first at t = 1288 (x = -50.5), and
      t = 1289 (x = -52) confirms: exit at t = 1289; visit: enter 41, exit 1289, duration 1248 s.
    - stationary (derive_motion): the first fix slower than 0.5 m/s is t = 61 (0.1 m/s; the walk
      is 1.5 m/s), every later jitter fix is within 3 + 0.75 m of it: stationary at t = 181.
    - moving: walking out, the distance from the t = 61 fix grows 1.5 m a second; it first exceeds
      25 m + 4.5 m accuracy at t = 1281 or 1282 depending on where t = 61 jittered to (the script
      computes it: 1281), confirmed on the next fix: moving at t = 1282, before the exit. The
      1200 jittering fixes (up to 6 m apart) never make `moving`.
    """
    lat0, lon0 = 40.741895, -73.989308
    fences = [circle('gym', 'Iron Temple gym', lat0, lon0, 40.0, dwell=60, tags=['fitness'])]
    rnd = random.Random(7)
    samples = line_samples(lat0, lon0, 90, [-100.75 + 1.5 * t for t in range(61)], 1.5)
    spot_lat, spot_lon = destination(lat0, lon0, 90, -10)
    for t in range(61, 1262):
        jitter = destination(spot_lat, spot_lon, rnd.uniform(0, 360), rnd.uniform(0, 3))
        samples.append((t, *jitter, 0.1, 0.0, True))
    for t in range(1262, 1300):
        x = -10 - 1.5 * (t - 1261)
        samples.append((t, *destination(lat0, lon0, 90, x), 1.5, 270.0, True))
    events = [
        ev(0, 'registered', fences=['gym']),
        ev(41, 'enter', 'gym'),
        ev(101, 'dwell', 'gym'),
        ev(1289, 'exit', 'gym'),
        ev(1289, 'visit', 'gym', enter_time=iso(41), exit_time=iso(1289), duration=1248.0),
    ]
    return fences, samples, events


def jitter():
    """A parked receiver jitters across a fence boundary: one enter, no flapping, one exit.

    Fence: circle r = 50 m. Drive in from x = -120 at 5 m/s (fix t at x = -120 + 5 t) and stop
    near the boundary: from t = 14 the distance from the centre alternates 47 m (inside) and
    53 m (3 m outside, within the 10 m hysteresis) for 40 s; then drive away eastward from 53 m
    at 5 m/s.
    - enter: t = 14 (47 m).  t = 13 is x = -55: outside.
    - no exit while jittering: 53 m is only 3 m out.
    - leave: fix t >= 54 at 53 + 5 (t - 53) m; 60 m (the threshold) is passed between t = 54
      (58 m) and t = 55 (63 m, 1st), t = 56 (68 m, 2nd): exit at t = 56. Stay 42 s: no dwell.
    """
    lat0, lon0 = 48.858370, 2.294481
    fences = [circle('parking-3', 'Parking bay 3', lat0, lon0, 50.0)]
    samples = line_samples(lat0, lon0, 90, [-120 + 5 * t for t in range(14)], 5.0)
    for t in range(14, 54):
        samples.append((t, *destination(lat0, lon0, 90, 47 if t % 2 == 0 else 53), 0.0, 90.0, True))
    for t in range(54, 60):
        samples.append((t, *destination(lat0, lon0, 90, 53 + 5 * (t - 53)), 5.0, 90.0, True))
    events = [ev(0, 'registered', fences=['parking-3']), ev(14, 'enter', 'parking-3'), ev(56, 'exit', 'parking-3')]
    return fences, samples, events


def start_inside():
    """The first usable fix is already inside a fence: `enter` with "initial": true.

    Fence: circle r = 100 m (a depot). The receiver starts 35 m from the centre and drives out
    east at 10 m/s: fix t at x = 35 + 10 t. The exit distance is 110 m from the centre: t = 7
    (105 m) is within it, t = 8 (115 m) is the 1st beyond, t = 9 (125 m) the 2nd: exit at t = 9.
    Stay 9 s: no dwell, no visit.
    """
    lat0, lon0 = 35.681236, 139.767125
    fences = [circle('depot', 'Depot', lat0, lon0, 100.0)]
    samples = line_samples(lat0, lon0, 90, [35 + 10 * t for t in range(14)], 10.0)
    events = [ev(0, 'registered', fences=['depot']), ev(0, 'enter', 'depot', initial=True), ev(9, 'exit', 'depot')]
    return fences, samples, events


def fix_lost():
    """The receiver loses its fix inside a fence: fix_lost, no exit; fix_acquired, no second enter.

    Fence: circle r = 60 m (a tunnel portal). Drive in from x = -100 at 10 m/s: enter at t = 5
    (x = -50; t = 4 is x = -60 exactly: 60 m <= r would be inside, so the walk starts 0.5 m
    further back: t = 4 is x = -60.5, outside, t = 5 is x = -50.5). Parked at x = -20.5 from t = 8.
    No usable fix (GGA quality 0, RMC V) for t = 21 ... 50, receiver time still running:
    fix_lost when 10 s have passed since the last usable fix (t = 20): at t = 30. Fixes come back at
    t = 51, still inside: fix_acquired at t = 51, no exit, no enter. Then drive out east at 10 m/s
    from t = 53: x = -20.5 + 10 (t - 52); t = 60 is x = 59.5 (inside), t = 61 x = 69.5 (9.5 m out,
    within the hysteresis), t = 62 x = 79.5 (1st beyond 10 m), t = 63 the 2nd: exit at t = 63.
    Stay 58 s < 60 s: no dwell, no visit.
    """
    lat0, lon0 = 46.948090, 7.447440
    fences = [circle('portal', 'Tunnel portal', lat0, lon0, 60.0)]
    samples = line_samples(lat0, lon0, 90, [-100.5 + 10 * t for t in range(8)], 10.0)
    for t in range(8, 21):
        samples.append((t, *destination(lat0, lon0, 90, -20.5), 0.0, 90.0, True))
    for t in range(21, 51):
        samples.append((t, 0.0, 0.0, 0.0, 0.0, False))
    for t in range(51, 53):
        samples.append((t, *destination(lat0, lon0, 90, -20.5), 0.0, 90.0, True))
    for t in range(53, 66):
        samples.append((t, *destination(lat0, lon0, 90, -20.5 + 10 * (t - 52)), 10.0, 90.0, True))
    events = [
        ev(0, 'registered', fences=['portal']),
        ev(5, 'enter', 'portal'),
        ev(30, 'fix_lost'),
        ev(51, 'fix_acquired'),
        ev(63, 'exit', 'portal'),
    ]
    return fences, samples, events


def hole():
    """A path through a polygon with a hole: the hole is outside.

    Fence: a 400 m x 400 m box with a 160 m x 160 m hole in the middle (a courtyard). Walk east at
    10 m/s along the middle: fix t at x = -260 + 10 t (x from the centre).
    - enter the box: x >= -200: t = 6 is x = -200 exactly (on the edge, inside by the inclusive
      rule, but the scenario avoids boundaries): shift by 5 m, x = -255 + 10 t: t = 5 is -205
      (outside), t = 6 is -195: enter at t = 6.
    - into the hole (|x| < 80): t = 18 is x = -75, 5 m in the hole (not beyond 10 m);
      t = 19 x = -65 (15 m, 1st), t = 20 (25 m, 2nd): exit at t = 20.
    - out of the hole: x > 80 at t = 34 (x = 85): enter at t = 34.
    - out of the box: x > 200: t = 46 is 205 (5 m out), t = 47 215 (1st), t = 48 (2nd): exit at 48.
    Planar degrees: the box and the hole edges are meridians and parallels through the offsets,
    so along this east-west line inside/outside follows the offsets exactly.
    """
    lat0, lon0 = 52.520008, 13.404954
    outer = box(lat0, lon0, 200, 200)
    inner = list(reversed(box(lat0, lon0, 80, 80)))
    fences = [{'type': 'Feature', 'id': 'campus', 'geometry': {'type': 'Polygon', 'coordinates': [outer, inner]},
               'properties': {'name': 'Campus with courtyard'}}]
    samples = []
    for t in range(52):
        x = -255 + 10 * t
        samples.append((t, lat0, destination(lat0, lon0, 90, x)[1], 10.0, 90.0, True))
    events = [
        ev(0, 'registered', fences=['campus']),
        ev(6, 'enter', 'campus'),
        ev(20, 'exit', 'campus'),
        ev(34, 'enter', 'campus'),
        ev(48, 'exit', 'campus'),
    ]
    return fences, samples, events


def antimeridian():
    """A ship sails east across 180° through a fence split at the antimeridian (RFC 7946).

    Fence `dateline`: a MultiPolygon of two boxes, lon 179.99..180 and -180..-179.99, lat
    -16.51..-16.49. Fence `buoy`: a circle r = 300 m at lon 179.999, which contains points at
    -179.999 (213 m away). The ship holds lat -16.5 and moves 0.0009° of longitude (95.9 m) per
    fix, from lon 179.9852 (t = 0): lon(t) = 179.9852 + 0.0009 t, wrapped to -180..180.
    - enter dateline: lon >= 179.99 first at t = 6 (179.9906; t = 5 is 179.9897, 32 m short).
    - enter buoy at t = 13 (179.9969, 224 m from the centre; t = 12 is 320 m away).
    - crossing 180 between t = 16 (179.9996) and t = 17 (-179.9995): inside both, no exit.
    - exit buoy at t = 20 (t = 19 is 352 m away, the 1st fix beyond 310 m; t = 20 448 m, the 2nd).
    - exit dateline at t = 29 (t = 28, lon -179.9896, is 41 m east of the -179.99 edge: the 1st
      fix beyond 10 m; t = 29 the 2nd).
    - the buoy's enter and exit and the box's exit follow from the fix-by-fix walk in
      `derive_antimeridian` (enter on the first fix inside, exit on the second consecutive fix more
      than 10 m out), with distances by haversine and along the parallel; every inside/outside it
      uses is asserted equal to the plain point-in-polygon / haversine test of `check_inside`.
    """
    lat0 = -16.5
    west = [[179.99, -16.51], [180.0, -16.51], [180.0, -16.49], [179.99, -16.49], [179.99, -16.51]]
    east = [[-180.0, -16.51], [-179.99, -16.51], [-179.99, -16.49], [-180.0, -16.49], [-180.0, -16.51]]
    fences = [{'type': 'Feature', 'id': 'dateline', 'geometry': {'type': 'MultiPolygon', 'coordinates': [[west], [east]]},
               'properties': {'name': 'Dateline box'}},
              circle('buoy', 'Buoy at 179.999', lat0, 179.999, 300.0)]
    speed = 0.0009 * math.pi / 180 * R * math.cos(math.radians(lat0))
    samples = []
    for t in range(40):
        lon = (179.9852 + 0.0009 * t + 540) % 360 - 180
        samples.append((t, lat0, lon, speed, 90.0, True))
    return fences, samples, None  # events derived in derive_antimeridian()


def derive_antimeridian(fences, samples):
    """Events for the antimeridian scenario from an explicit walk of the fixes: enter on the first
    fix inside, exit on the second consecutive fix more than 10 m outside. Distances outside the
    dateline box are along the parallel to its nearer meridian edge, which here is the shortest way."""
    events = [ev(0, 'registered', fences=['dateline', 'buoy'])]
    # dateline box: inside iff lon in [179.99, 180] or [-180, -179.99]; outside distance to -179.99 edge
    per_degree = math.pi / 180 * R * math.cos(math.radians(-16.5))
    state = {'dateline': False, 'buoy': False}
    pending = {'dateline': 0, 'buoy': 0}
    for t, lat, lon, *_ in samples:
        in_box = lon >= 179.99 or lon <= -179.99
        out_box = 0.0 if in_box else min(abs(lon - 179.99), abs(lon + 179.99)) * per_degree
        d_buoy = haversine(lat, lon, -16.5, 179.999) - 300.0
        for name, inside, outside in (('dateline', in_box, out_box), ('buoy', d_buoy <= 0, max(d_buoy, 0))):
            assert inside == check_inside(next(f for f in fences if f['id'] == name), lat, lon), (name, t)
            if not state[name] and inside:
                state[name] = True
                pending[name] = 0
                events.append(ev(t, 'enter', name, initial=(t == 0)))
            elif state[name] and not inside and outside > 10.0:
                pending[name] += 1
                if pending[name] == 2:
                    state[name] = False
                    events.append(ev(t, 'exit', name))
            elif state[name]:
                pending[name] = 0
    order = {'exit': 0, 'visit': 1, 'cross': 2, 'enter': 3, 'dwell': 4, 'approach': 5}
    ids = {'dateline': 0, 'buoy': 1}
    events[1:] = sorted(events[1:], key=lambda e: (e['time'], order[e['type']], ids[e['fence']['id']]))
    return events


def derive_motion(samples, events, seconds=120, slow=0.5, radius=25.0, accuracy=4.5):
    """stationary / moving (docs/report.md, docs/events.md), by a walk of the fixes: stationary once the
    fixes have stayed slower than 0.5 m/s and within 25 m of the first slow fix for 120 s; moving
    once a fix is more than 25 m + its accuracy (HDOP 0.9 x 5 m = 4.5 m for every fix here) from
    that first slow fix, on two consecutive fixes. Motion events follow the fence events of their
    fix and precede fix_acquired / heartbeat."""
    anchor, still, outside, found = None, False, 0, []
    for t, lat, lon, speed, _, valid in samples:
        if not valid:
            continue
        if still:
            if haversine(anchor[1], anchor[2], lat, lon) > radius + accuracy:
                outside += 1
                if outside == 2:
                    found.append(ev(t, 'moving'))
                    still, outside, anchor = False, 0, None
            else:
                outside = 0
        elif speed >= slow:
            anchor = None
        elif anchor is None or haversine(anchor[1], anchor[2], lat, lon) > radius:
            anchor = (t, lat, lon)
        elif t - anchor[0] >= seconds:
            found.append(ev(t, 'stationary'))
            still = True
    group = {'stationary': 1, 'moving': 1, 'fix_acquired': 2, 'heartbeat': 2}
    return sorted(events + found, key=lambda e: (e['time'], group.get(e['type'], 0)))


def ev(t, kind, fence=None, **extra):
    e = {'type': kind, 'time': iso(t)}
    if fence is not None:
        e['fence'] = {'id': fence}
    if kind in ('enter',):
        e['initial'] = extra.pop('initial', False)
    e.update(extra)
    return e


def damage(lines, seed):
    """The same sentences with real-world damage around them, none of which may change a fix:
    junk text lines, NUL and binary noise between sentences, ANSI escapes, a stray byte glued
    before a `$` (`r$GPRMC`), a doubled `$`, partial copies cut short by the next sentence, and
    copies with a wrong checksum and a wrong position (dropped by the checksum)."""
    rnd = random.Random(seed)
    out = []
    for i, line in enumerate(lines):
        k = i % 9
        if k == 0:
            out.append(b'+ 6: 28 (.....) debug\r\n')
        elif k == 1:
            out.append(b'\x00\x00\xff\xfe\x07')
        elif k == 2:
            out.append(b'\x1b[H\x1b[J')
        elif k == 3:
            out.append(b'r')
        elif k == 4:
            out.append(b'$')
        elif k == 5:
            out.append(line[:rnd.randint(8, len(line) - 5)].encode())  # cut short by the next `$`
        elif k == 6:
            # A different position under the original checksum, XORed so it can never match.
            body = line[1:-3].replace(',40', ',41').replace(',1,08,', ',1,09,')
            out.append(('$%s*%02X' % (body, int(line[-2:], 16) ^ 0x5A)).encode() + b'\r\n')
        out.append(line.encode() + b'\r\n')
    return b''.join(out)


SCENARIOS = [
    ('bridge', bridge, 'Truck warned a mile before a low bridge, then passing under it'),
    ('cross', cross, 'A 10 m fence passed at highway speed between two 1 Hz fixes'),
    ('gym', gym, 'Gym visit: enter, dwell, exit, visit with its duration'),
    ('jitter', jitter, 'Jitter around a boundary: no flapping'),
    ('start-inside', start_inside, 'The first fix is inside a fence: initial enter'),
    ('fix-lost', fix_lost, 'Fix lost inside a fence: no exit, no second enter'),
    ('hole', hole, 'A polygon with a hole: the hole is outside'),
    ('antimeridian', antimeridian, 'A fence across the antimeridian'),
]


def write(name, title, fences, samples, events, capture_bytes, doc):
    folder = os.path.join(OUT, name)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, 'fences.geojson'), 'w') as fh:
        json.dump({'type': 'FeatureCollection', 'features': fences}, fh, indent=1)
        fh.write('\n')
    with open(os.path.join(folder, 'capture.nmea'), 'wb') as fh:
        fh.write(('# Scenario: %s\n# Generated by scripts/make_scenarios.py (synthetic u-blox-like '
                  'receiver, 1 Hz GGA+RMC+GSA)\n' % title).encode())
        fh.write(capture_bytes)
    with open(os.path.join(folder, 'expected.jsonl'), 'w') as fh:
        for e in events:
            fh.write(json.dumps(e, separators=(',', ':')) + '\n')
    with open(os.path.join(folder, 'README.md'), 'w') as fh:
        fh.write('# %s\n\n%s\n\nFiles: `capture.nmea` (%d fixes), `fences.geojson`, `expected.jsonl` (the events '
                 '`gpsfence replay capture.nmea --fences fences.geojson --json` must print, compared on the fields '
                 'listed).\n\n```\n%s\n```\n' % (title, 'Generated by `scripts/make_scenarios.py`; the reasoning:',
                                                 len(samples), doc.strip('\n')))


def verify(fences, samples, events):
    """Independent check of the hand-derived enter times: every `enter` must be the first fix
    inside after a fix outside (or the first fix), by haversine / point-in-polygon."""
    by_id = {f['id']: f for f in fences}
    for e in events:
        if e['type'] != 'enter':
            continue
        f = by_id[e['fence']['id']]
        t = next(s for s in samples if iso(s[0]) == e['time'])
        assert check_inside(f, t[1], t[2]), ('enter fix not inside', e)
        before = [s for s in samples if s[0] < t[0] and s[5]]
        if before and not e['initial']:
            assert not check_inside(f, before[-1][1], before[-1][2]), ('fix before enter is inside', e)


def main():
    for name, make, title in SCENARIOS:
        fences, samples, events = make()
        if events is None:
            events = derive_antimeridian(fences, samples)
        events = derive_motion(samples, events)
        verify(fences, samples, events)
        lines = [line for s in samples for line in epoch(s)]
        clean = b''.join(line.encode() + b'\r\n' for line in lines)
        write(name, title, fences, samples, events, clean, make.__doc__)
        if name == 'gym':
            write('damaged', 'The gym visit with real-world line damage: the same events as the clean capture',
                  fences, samples, events, damage(lines, 11), damage.__doc__ + '\n' + make.__doc__)
        print('%-13s %5d fixes %2d events' % (name, len(samples), len(events)))


if __name__ == '__main__':
    main()
