#!/usr/bin/env python3
"""Write NMEA captures for the integrity monitor: a day of urban driving where nothing is jammed or
spoofed, and a jammer's onset or a spoofer's takeover with their parameters drawn from a seed.

    python3 scripts/integrity_captures.py urban --hours 24 --seed 1 > day.nmea
    python3 scripts/integrity_captures.py jam --seed 7 > jam.nmea
    python3 scripts/integrity_captures.py spoof --seed 7 --drift 12 > spoof.nmea
    python3 scripts/integrity_captures.py jam --seed 7 --describe     # the truth, one JSON line

One epoch a second of GGA, GSA, GSV (every satellite in view with its C/N0; an empty C/N0 field
for one in view but not tracked), GST, GBS and RMC (talker GP), from 2026-03-02 00:00:00 UTC in a
city at 48.137 N, 11.575 E. The same arguments give the same bytes.

The sky (docs/performance.md, "Integrity: detection delay and false states"):
- satellites rise and set on passes of a half sidereal day, 9 to 13 above 5 degrees at once; a
  satellite's C/N0 is 28 dB-Hz plus 0.22 per degree of elevation, its own offset of +-2, a fading
  that wanders +-1.5 over tens of seconds and 1.5 dB-Hz of noise each epoch (one sigma, cut at 4);
  below 22 dB-Hz it is not tracked, from 25 it is used, and under 4 used there is no fix.

The urban day (`urban`): a vehicle driving a street grid at 8 to 14 m/s, stopping at lights (0 to
60 s) and for deliveries (2 to 10 minutes, every 40 minutes or so), around the clock:
- buildings block one satellite at a time (every 20 s or so, for 2 to 25 s);
- urban canyons (every 3 minutes or so while moving, 3 to 20 s): the satellites low across the
  street (below 25-50 degrees, more than 30 degrees off its axis) lose 6 to 20 dB-Hz each, or are
  lost;
- underpasses (every 30 minutes, 2 to 6 s) and tunnels (every 8 hours, 30 to 120 s): the
  satellites go one after another within two seconds, some first weakened by 5 to 20 dB-Hz, and
  come back the same way;
- the position's error wanders 2 to 8 m, and multipath throws it 20 to 120 m (heavy-tailed; the
  altitude 0.5 to 2 times that) for 2 to 15 s every 10 minutes or so, with a larger GST ellipse
  and HDOP, and a GBS naming the reflected satellite one time in three.

A jammer (`jam`): from `--onset`, every satellite loses the same decibels (a jammer raises the
noise floor), `--step` at once and then `--fall` dB-Hz a second, to 45 dB below; the capture ends
90 s after the onset. A spoofer (`spoof`): from `--takeover`, every satellite at `--level` dB-Hz
(+-1), the receiver's clock `--clock-step` s ahead 2 s later, and from 4 s the position pulled
away at `--drift` m/s on a bearing from the seed, the speed and course saying so; the capture
ends 90 s after the takeover. Either plays on `--scene` `parked` (an open sky, the vehicle at
rest) or `urban` (the day's model above). Parameters not given are drawn from the seed; the
satellites in view can be fixed with `--satellites`. `--describe` prints, instead of NMEA, the
parameters (`onset` or `takeover`: seconds from the first epoch).
"""
import argparse
import json
import math
import random
import sys

R = 6371008.8
ORIGIN = (48.137, 11.575)
DAY = (2, 3, 26)  # ddmmyy: 2026-03-02, 00:00:00 UTC
PASS = 43080.0  # a GPS satellite's orbit, half a sidereal day (s)
TRACKED = 22
USED = 25


def offset(north, east):
    lat = ORIGIN[0] + math.degrees(north / R)
    return lat, ORIGIN[1] + math.degrees(east / (R * math.cos(math.radians(ORIGIN[0]))))


def sentence(body):
    value = 0
    for byte in body.encode('ascii'):
        value ^= byte
    return '$%s*%02X\r\n' % (body, value)


def clock(seconds):
    """hhmmss.ss and ddmmyy for `seconds` after the first epoch."""
    centis = int(round(seconds * 100))
    day, centis = divmod(centis, 8640000)
    d, m, y = DAY
    return ('%02d%02d%02d.%02d' % (centis // 360000, centis // 6000 % 60, centis // 100 % 60, centis % 100),
            '%02d%02d%02d' % (d + day, m, y))


class Constellation:
    """31 satellites on passes of half a sidereal day; elevation, azimuth and base C/N0 at a time."""

    def __init__(self, rng, count=None):
        self.sats = []
        for prn in range(1, 32):
            self.sats.append({'prn': prn, 'phase': rng.uniform(0, 2 * math.pi), 'top': rng.uniform(35, 88),
                              'az0': rng.uniform(0, 360), 'turn': rng.choice((-1, 1)) * rng.uniform(60, 160),
                              'offset': rng.uniform(-2, 2), 'fade': 0.0})
        self.count = count

    def view(self, t):
        out = []
        for s in self.sats:
            a = math.sin(2 * math.pi * t / PASS + s['phase'])
            elevation = s['top'] * a
            if elevation < 5:
                continue
            azimuth = (s['az0'] + s['turn'] * (1 - a)) % 360
            out.append((s, int(elevation), int(azimuth)))
        out.sort(key=lambda v: -v[1])
        if self.count is not None:
            out = out[:self.count]
        return out[:14]


class Sky:
    """Each satellite's C/N0 with its fading and noise."""

    def __init__(self, rng):
        self.rng = rng

    def cn0(self, sat, elevation):
        s = sat
        s['fade'] += -s['fade'] / 20 + self.rng.gauss(0, 1.5 * math.sqrt(2 / 20))
        noise = max(-4, min(4, self.rng.gauss(0, 1.5)))
        return 28 + 0.22 * elevation + s['offset'] + s['fade'] + noise


class Epoch:
    def __init__(self, t):
        self.t = t
        self.north = self.east = 0.0
        self.altitude = 520.0
        self.speed = self.course = 0.0
        self.satellites = []  # (prn, elevation, azimuth, cn0 or None)
        self.hdop = 0.9
        self.sigma = 2.5
        self.raim = None
        self.clock = 0.0  # the receiver's clock ahead of the truth (s)

    def nmea(self):
        time, date = clock(self.t + self.clock)
        lat, lon = offset(self.north, self.east)
        la = '%02d%09.6f' % (int(lat), (lat - int(lat)) * 60)
        lo = '%03d%09.6f' % (int(lon), (lon - int(lon)) * 60)
        used = [s for s in self.satellites if s[3] is not None and s[3] >= USED][:12]
        fix = len(used) >= 4
        hdop = self.hdop + 4.0 / max(1, len(used))
        pdop = hdop * 1.6
        text = ''
        if fix:
            text += sentence('GPGGA,%s,%s,N,%s,E,1,%02d,%.1f,%.1f,M,47.0,M,,' % (
                time, la, lo, len(used), hdop, self.altitude))
            slots = ['%02d' % s[0] for s in used] + [''] * (12 - len(used))
            text += sentence('GPGSA,A,3,%s,%.1f,%.1f,%.1f' % (','.join(slots), pdop, hdop, pdop * 0.8))
        else:
            text += sentence('GPGGA,%s,,,,,0,00,99.9,,M,,M,,' % time)
            text += sentence('GPGSA,A,1,,,,,,,,,,,,,99.9,99.9,99.9')
        parts = max(1, (len(self.satellites) + 3) // 4)
        for part in range(parts):
            group = self.satellites[part * 4:part * 4 + 4]
            fields = ''.join(',%02d,%02d,%03d,%s' % (p, e, a, '' if c is None else '%02d' % round(c))
                             for p, e, a, c in group)
            text += sentence('GPGSV,%d,%d,%02d%s' % (parts, part + 1, len(self.satellites), fields))
        if fix:
            sigma = self.sigma
            text += sentence('GPGST,%s,%.1f,%.1f,%.1f,0.0,%.1f,%.1f,%.1f' % (
                time, sigma * 1.3, sigma * 1.5, sigma, sigma, sigma, sigma * 1.8))
            text += sentence('GPGBS,%s,%.1f,%.1f,%.1f,%s,,,' % (
                time, sigma, sigma, sigma * 1.8, '' if self.raim is None else '%02d' % self.raim))
            text += sentence('GPRMC,%s,A,%s,N,%s,E,%.2f,%.1f,%s,,,A' % (
                time, la, lo, self.speed * 3600 / 1852, self.course, date))
        else:
            text += sentence('GPRMC,%s,V,,,,,,,%s,,,N' % (time, date))
        return text


class Drive:
    """A vehicle on a street grid: true position, speed and heading each second."""

    def __init__(self, rng, parked=False):
        self.rng = rng
        self.parked = parked
        self.north = self.east = 0.0
        self.speed = 0.0
        self.grid = rng.uniform(0, 90)
        self.heading = self.grid
        self.left = rng.uniform(80, 400)  # metres to the next corner
        self.cruise = rng.uniform(8, 14)
        self.stop = 0  # seconds still standing
        self.next_delivery = rng.expovariate(1 / 2400)

    def step(self):
        rng = self.rng
        if self.parked:
            return
        if self.stop > 0:
            self.stop -= 1
            return
        self.next_delivery -= 1
        braking = self.speed * self.speed / 3.0  # metres to stop at 1.5 m/s2
        if self.left <= braking + self.speed:
            self.speed = max(0.0, self.speed - 1.5)
        else:
            self.speed = min(self.cruise, self.speed + 1.5)
        self.north += self.speed * math.cos(math.radians(self.heading))
        self.east += self.speed * math.sin(math.radians(self.heading))
        self.left -= self.speed
        if self.left <= 0 or (self.speed == 0 and self.left < 5):
            self.speed = 0.0
            self.heading = (self.heading + rng.choice((0, 0, 90, -90, 180 if rng.random() < 0.05 else 0))) % 360
            self.left = rng.uniform(80, 400)
            self.cruise = rng.uniform(8, 14)
            if self.next_delivery <= 0:
                self.stop = rng.randint(120, 600)
                self.next_delivery = rng.expovariate(1 / 2400)
            elif rng.random() < 0.5:
                self.stop = rng.randint(0, 60)


class Urban:
    """What the city does to the sky and to the position error."""

    def __init__(self, rng):
        self.rng = rng
        self.blocked = None  # (prn, until)
        self.canyon = None  # (until, axis, below)
        self.loss = {}  # prn: dB for the canyon's satellites (None: lost)
        self.under = None  # (start, until, order: prn -> (delay, weakened))
        self.jump = None  # (until, north, east, up, raim)
        self.wander = [0.0, 0.0]
        self.next_under = rng.expovariate(1 / 1800)
        self.next_tunnel = rng.expovariate(1 / 28800)

    def step(self, t, moving, heading, view):
        rng = self.rng
        if self.blocked and t >= self.blocked[1]:
            self.blocked = None
        if self.blocked is None and view and rng.random() < 1 / 20:
            self.blocked = (rng.choice(view)[0]['prn'], t + rng.randint(2, 25))
        if self.canyon and t >= self.canyon[0]:
            self.canyon = None
        if self.canyon is None and moving and rng.random() < 1 / 180:
            self.canyon = (t + rng.randint(3, 20), heading, rng.uniform(25, 50))
            self.loss = {}
        if self.under and t >= self.under[1] + 2:
            self.under = None
        self.next_under -= 1
        self.next_tunnel -= 1
        if self.under is None and moving and (self.next_under <= 0 or self.next_tunnel <= 0):
            length = rng.randint(30, 120) if self.next_tunnel <= 0 else rng.randint(2, 6)
            if self.next_tunnel <= 0:
                self.next_tunnel = rng.expovariate(1 / 28800)
            else:
                self.next_under = rng.expovariate(1 / 1800)
            order = {s['prn']: (rng.uniform(0, 2), rng.uniform(5, 20) if rng.random() < 0.5 else None)
                     for s, _, _ in view}
            self.under = (t, t + length, order)
        if self.jump and t >= self.jump[0]:
            self.jump = None
        if self.jump is None and rng.random() < 1 / 600:
            size = min(120, 20 + rng.paretovariate(1.5) * 10 - 10)
            bearing = rng.uniform(0, 2 * math.pi)
            raim = rng.choice(view)[0]['prn'] if view and rng.random() < 1 / 3 else None
            self.jump = (t + rng.randint(2, 15), size * math.cos(bearing), size * math.sin(bearing),
                         size * rng.uniform(0.5, 2) * rng.choice((-1, 1)), raim)
        # The ordinary error: a mean-reverting wander of a few metres.
        for axis in (0, 1):
            self.wander[axis] += -self.wander[axis] / 60 + rng.gauss(0, 5 * math.sqrt(2 / 60))

    def cn0(self, t, sat, elevation, azimuth, value):
        rng = self.rng
        if self.blocked and sat['prn'] == self.blocked[0]:
            return None
        if self.canyon:
            until, axis, below = self.canyon
            across = abs((azimuth - axis + 90) % 180 - 90)
            if elevation < below and across > 30:
                if sat['prn'] not in self.loss:
                    self.loss[sat['prn']] = rng.uniform(6, 20) if rng.random() < 0.7 else None
                loss = self.loss[sat['prn']]
                if loss is None:
                    return None
                value -= loss
        if self.under:
            start, until, order = self.under
            delay, weakened = order.get(sat['prn'], (0, None))
            inside = start + delay <= t < until + delay
            edge = start + delay - 1 <= t < start + delay or until + delay <= t < until + delay + 1
            if inside:
                return None
            if edge and weakened is not None:
                value -= weakened
        return value

    def error(self):
        north, east, up = self.wander[0], self.wander[1], 0.0
        sigma, raim, hdop = 2.5 + 0.3 * math.hypot(*self.wander), None, 0.9
        if self.jump:
            _, jn, je, ju, raim = self.jump
            north, east, up = north + jn, east + je, ju
            sigma += 0.3 * math.hypot(jn, je)
            hdop += 1.5
        return north, east, up, sigma, raim, hdop


def play(args, seconds, rng):
    """Yields each epoch of the scene, with the jammer or spoofer of `args` if any."""
    constellation = Constellation(rng, args.satellites)
    sky = Sky(rng)
    scene = getattr(args, 'scene', 'urban')
    drive = Drive(rng, parked=scene == 'parked')
    city = Urban(rng) if scene == 'urban' else None
    cn0_offset = getattr(args, 'cn0_offset', 0.0) or 0.0
    for t in range(seconds):
        view = constellation.view(t)
        drive.step()
        moving = drive.speed > 0.5
        if city:
            city.step(t, moving, drive.heading, view)
        epoch = Epoch(t)
        jam = 0.0
        spoofed = None
        if args.mode == 'jam' and t >= args.onset:
            jam = min(45.0, args.step + args.fall * (t - args.onset + 1))
        if args.mode == 'spoof' and t >= args.takeover:
            spoofed = t - args.takeover
        for sat, elevation, azimuth in view:
            value = sky.cn0(sat, elevation) + cn0_offset
            if spoofed is not None:
                value = args.level + rng.uniform(-1, 1)
            else:
                if city:
                    value = city.cn0(t, sat, elevation, azimuth, value)
                if value is not None:
                    value -= jam
            tracked = value is not None and value >= TRACKED
            epoch.satellites.append((sat['prn'], elevation, azimuth, round(value) if tracked else None))
        error = city.error() if city and spoofed is None else (rng.gauss(0, 1), rng.gauss(0, 1), 0.0, 2.5, None, 0.9)
        north, east, up, epoch.sigma, epoch.raim, epoch.hdop = error
        epoch.north = drive.north + north
        epoch.east = drive.east + east
        epoch.altitude = 520 + up + rng.gauss(0, 1.5)
        epoch.speed = max(0.0, drive.speed + (rng.gauss(0, 0.15) if drive.speed > 0 else 0))
        epoch.course = drive.heading % 360
        if spoofed is not None:
            if spoofed >= 2:
                epoch.clock = args.clock_step
            if spoofed >= 4:
                pulled = (spoofed - 3) * args.drift
                epoch.north += pulled * math.cos(math.radians(args.bearing))
                epoch.east += pulled * math.sin(math.radians(args.bearing))
                vn = drive.speed * math.cos(math.radians(drive.heading)) + args.drift * math.cos(
                    math.radians(args.bearing))
                ve = drive.speed * math.sin(math.radians(drive.heading)) + args.drift * math.sin(
                    math.radians(args.bearing))
                epoch.speed = math.hypot(vn, ve)
                epoch.course = math.degrees(math.atan2(ve, vn)) % 360
        yield epoch


def draw(args):
    """The seed's parameters, where not given."""
    rng = random.Random(f'{args.mode}-{args.seed}')
    if args.scene is None:
        args.scene = rng.choice(('parked', 'urban'))
    if args.satellites is None and args.scene == 'parked':
        args.satellites = rng.randint(6, 14)
    if args.cn0_offset is None:
        args.cn0_offset = round(rng.uniform(-6, 4), 1)
    if args.mode == 'jam':
        args.onset = rng.randint(30, 600) if args.onset is None else args.onset
        args.fall = round(rng.uniform(1, 6), 1) if args.fall is None else args.fall
        args.step = round(rng.choice((0, 0, rng.uniform(0, 20))), 1) if args.step is None else args.step
        return args.onset + 90
    args.takeover = rng.randint(30, 600) if args.takeover is None else args.takeover
    args.drift = round(rng.uniform(0.5, 30), 1) if args.drift is None else args.drift
    args.level = round(rng.uniform(44, 54), 1) if args.level is None else args.level
    args.bearing = round(rng.uniform(0, 360))
    return args.takeover + 90


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('mode', choices=('urban', 'jam', 'spoof'))
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--hours', type=float, default=24, help='urban: hours of driving')
    parser.add_argument('--scene', choices=('parked', 'urban'))
    parser.add_argument('--satellites', type=int, help='satellites in view at most')
    parser.add_argument('--cn0-offset', type=float, help='dB-Hz added to every satellite (antenna, cable)')
    parser.add_argument('--onset', type=int)
    parser.add_argument('--fall', type=float, help='jam: dB-Hz lost a second')
    parser.add_argument('--step', type=float, help='jam: dB-Hz lost at once at the onset')
    parser.add_argument('--takeover', type=int)
    parser.add_argument('--drift', type=float, help='spoof: m/s the position is pulled away at')
    parser.add_argument('--level', type=float, help="spoof: the spoofer's C/N0, dB-Hz")
    parser.add_argument('--clock-step', type=float, default=1.8, help="spoof: s the receiver's clock steps ahead")
    parser.add_argument('--describe', action='store_true', help='print the parameters as JSON instead')
    args = parser.parse_args()
    if args.mode == 'urban':
        args.scene = 'urban'
        args.cn0_offset = 0.0
        seconds = int(args.hours * 3600)
    else:
        seconds = draw(args)
    if args.describe:
        unsaid = {'describe', 'hours'} if args.mode != 'urban' else {'describe'}
        if args.mode != 'spoof':
            unsaid.add('clock_step')
        described = {k: v for k, v in vars(args).items() if v is not None and k not in unsaid}
        described['seconds'] = seconds
        print(json.dumps(described, sort_keys=True))
        return
    rng = random.Random(f'{args.mode}-{args.seed}-play')
    out = sys.stdout
    for epoch in play(args, seconds, rng):
        out.write(epoch.nmea())


if __name__ == '__main__':
    main()
