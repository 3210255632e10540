#!/usr/bin/env python3
"""Write NMEA captures of a boat's receiver at anchor in a marina: at rest, or dragging.

    python3 scripts/anchor_captures.py rest --hours 24 --seed 1 > rest.nmea
    python3 scripts/anchor_captures.py drag --seed 3 --radius 30 > drag.nmea

One epoch a second of RMC, GGA, GSA and GST (talker GP), from 2026-06-20 22:00:00 UTC. The same
seed gives the same bytes. The anchor (the true position at rest, and where a drag starts) is
54.3233 N, 10.1394 E; `--anchor-at` with `anchor` printed by `--describe` lays the circle there.

The position error is what a receiver among masts and pontoons shows (docs/performance.md,
"Anchor watch at rest"):
- a wander: an error of 5 to 15 m whose size drifts back and forth over minutes (mean-reverting
  to 10 m with a time constant of 3 minutes, reflected at 5 and 15 m) and whose direction turns
  slowly (a random walk of 0.075 rad per square-root second: about a radian in three minutes);
- spikes: every 75 minutes on average (exponential gaps, never within 30 s of the last one) the
  position is thrown 30 to 50 m in a random direction for 5 to 20 s (uniform), then comes back;
- a jitter of 0.5 m (per axis, one sigma) on every fix.
GST reports what a receiver's own estimate says of such errors: a 1-sigma horizontal error of
1 m plus 30 % of the true error (multipath is underestimated), with 10 % noise; GGA and GSA say
9 satellites and an HDOP of 0.9 to 1.3.

A drag capture rests `--rest` seconds at the anchor (default 600), then drags at `--speed` m/s
(default 0.3) on a bearing drawn from the seed until the boat is `--radius` + 60 m from the
anchor. `--describe` prints, instead of NMEA, one JSON line: the anchor, and for a drag the
second (from the first epoch) at which the true position passes radius + 10 m, so that a
benchmark can measure a detection delay against the truth, not against the fixes.
"""
import argparse
import json
import math
import random
import sys

R = 6371008.8
ANCHOR = (54.3233, 10.1394)
START = 22 * 3600  # 22:00:00 UTC
DATE = (20, 6, 26)  # ddmmyy: 2026-06-20


def offset(lat, lon, north, east):
    """The position `north` and `east` metres from (lat, lon) (small distances)."""
    return (lat + math.degrees(north / R), lon + math.degrees(east / (R * math.cos(math.radians(lat)))))


def checksum(body):
    value = 0
    for byte in body.encode('ascii'):
        value ^= byte
    return '$%s*%02X' % (body, value)


def clock(second):
    t = START + second
    day, t = divmod(t, 86400)
    return '%02d%02d%02d.00' % (t // 3600, t // 60 % 60, t % 60), day


def date_field(day):
    d, m, y = DATE
    # Captures of up to a few days: June has 30 days.
    d += day
    if d > 30:
        d, m = d - 30, m + 1
    return '%02d%02d%02d' % (d, m, y)


def angle(value, degrees_width, hemispheres):
    hemisphere = hemispheres[0] if value >= 0 else hemispheres[1]
    value = abs(value)
    whole = int(value)
    minutes = (value - whole) * 60
    return ('%0' + str(degrees_width) + 'd%07.4f') % (whole, minutes), hemisphere


class Multipath:
    """The error of one receiver at rest: wander, spikes and jitter (metres north, east), and the
    1-sigma horizontal error its GST gives."""

    def __init__(self, rng):
        self.rng = rng
        self.size = rng.uniform(5, 15)
        self.direction = rng.uniform(0, 2 * math.pi)
        self.next_spike = self.gap()
        self.spike_left = 0
        self.spike = (0.0, 0.0)
        self.spikes = []

    def gap(self):
        return 30 + self.rng.expovariate(1 / (75 * 60))

    def step(self, second):
        rng = self.rng
        # Mean-reverting size (time constant 180 s, stationary sigma 3 m), reflected into 5..15 m.
        tau, sigma = 180.0, 3.0
        self.size += (10 - self.size) / tau + sigma * math.sqrt(2 / tau) * rng.gauss(0, 1)
        if self.size < 5:
            self.size = 10 - self.size
        if self.size > 15:
            self.size = 30 - self.size
        self.direction += 0.075 * rng.gauss(0, 1)
        north = self.size * math.cos(self.direction)
        east = self.size * math.sin(self.direction)
        if self.spike_left == 0 and second >= self.next_spike:
            length = rng.randint(5, 20)
            size = rng.uniform(30, 50)
            bearing = rng.uniform(0, 2 * math.pi)
            self.spike = (size * math.cos(bearing), size * math.sin(bearing))
            self.spike_left = length
            self.spikes.append({'start': second, 'seconds': length, 'metres': round(size, 1)})
        if self.spike_left > 0:
            north, east = self.spike
            self.spike_left -= 1
            if self.spike_left == 0:
                self.next_spike = second + self.gap()
        north += rng.gauss(0, 0.5)
        east += rng.gauss(0, 0.5)
        error = math.hypot(north, east)
        reported = (1 + 0.3 * error) * (1 + 0.1 * rng.gauss(0, 1))
        return north, east, max(0.5, reported)


def epoch(second, lat, lon, speed, course, sigma, hdop):
    time, day = clock(second)
    la, ns = angle(lat, 2, 'NS')
    lo, ew = angle(lon, 3, 'EW')
    knots = speed * 3600 / 1852
    per_axis = sigma / math.sqrt(2)
    return [
        checksum('GPRMC,%s,A,%s,%s,%s,%s,%.2f,%.1f,%s,,,A' % (time, la, ns, lo, ew, knots, course, date_field(day))),
        checksum('GPGGA,%s,%s,%s,%s,%s,1,09,%.1f,3.0,M,41.0,M,,' % (time, la, ns, lo, ew, hdop)),
        checksum('GPGSA,A,3,02,05,07,09,13,16,20,27,30,,,,%.1f,%.1f,%.1f' % (hdop * 1.6, hdop, hdop * 1.3)),
        checksum('GPGST,%s,%.1f,%.1f,%.1f,0.0,%.1f,%.1f,%.1f' % (
            time, sigma, per_axis * 1.2, per_axis * 0.8, per_axis, per_axis, sigma * 1.5)),
    ]


def capture(args, out):
    rng = random.Random(args.seed)
    errors = Multipath(random.Random(rng.random()))
    bearing = rng.uniform(0, 360)
    seconds = int(args.hours * 3600) if args.mode == 'rest' else None
    crossing = None
    second = 0
    hdop = 1.0
    while True:
        dragged = 0.0
        if args.mode == 'drag':
            dragged = max(0.0, (second - args.rest) * args.speed)
            if crossing is None and dragged > args.radius + 10:
                crossing = (args.radius + 10) / args.speed + args.rest
            if dragged > args.radius + 60:
                break
        elif second >= seconds:
            break
        north = dragged * math.cos(math.radians(bearing))
        east = dragged * math.sin(math.radians(bearing))
        error_north, error_east, sigma = errors.step(second)
        lat, lon = offset(ANCHOR[0], ANCHOR[1], north + error_north, east + error_east)
        hdop = min(1.3, max(0.9, hdop + rng.gauss(0, 0.02)))
        moving = dragged > 0
        speed = abs((args.speed if moving else 0) + rng.gauss(0, 0.1))
        course = bearing if moving else rng.uniform(0, 360)
        if out is not None:
            out.write('\r\n'.join(epoch(second, lat, lon, speed, course, sigma, hdop)) + '\r\n')
        second += 1
    return {
        'anchor': '%.6f,%.6f' % ANCHOR,
        'seconds': second,
        'drag_bearing': round(bearing, 1) if args.mode == 'drag' else None,
        'passes_radius_plus_10_at': crossing,
        'start_utc': '2026-06-20T22:00:00Z',
        'spikes': errors.spikes,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('mode', choices=['rest', 'drag'])
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--hours', type=float, default=24, help='rest: hours of capture')
    parser.add_argument('--radius', type=float, default=30, help='drag: the anchor circle (m)')
    parser.add_argument('--rest', type=int, default=600, help='drag: seconds at rest first')
    parser.add_argument('--speed', type=float, default=0.3, help='drag: m/s')
    parser.add_argument('--describe', action='store_true', help='print the truth as JSON, not NMEA')
    args = parser.parse_args()
    if args.describe:
        print(json.dumps(capture(args, None)))
    else:
        capture(args, sys.stdout)


if __name__ == '__main__':
    main()
