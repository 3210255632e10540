#!/usr/bin/env python3
"""Live latency of `gpsfence run` (docs/performance.md): from the last byte of a sentence written to a
pseudo-terminal to the event line `run` writes, over N events (default 10,000).

    swift build -c release && python3 scripts/bench_latency.py [--events 10000]

The script plays the receiver on the master side of a real pseudo-terminal; `run` reads the slave
like a USB GPS (pinned at 115200 baud). Each epoch is GGA + RMC, RMC last, so once `run` has learned
that RMC ends the cycle it emits the fix on RMC's last byte. Fixes alternate between the centre
of a 30 m fence and a point 200 m away, with `--exit-confirm 1`, so every fix raises one event
(enter, exit, enter, ...). One epoch is written at a time and the next only after its event has
been read, so latencies never queue. The clock is time.perf_counter_ns(), taken right after the
os.write() of RMC's last byte and right after the os.read() that returned the event line.
Nothing else may have the pseudo-terminal open (a stray reader steals bytes).
"""
import argparse
import json
import math
import os
import pty
import select
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def sentence(body):
    c = 0
    for ch in body.encode():
        c ^= ch
    return ('$%s*%02X\r\n' % (body, c)).encode()


def angle(value, width, pos, neg):
    h = pos if value >= 0 else neg
    value = abs(value)
    d = int(value)
    return '%0*d%010.7f' % (width, d, (value - d) * 60), h


def epoch(t, lat, lon):
    """GGA and RMC for second t after 2026-02-03 00:00:00 UTC."""
    day, second = divmod(t, 86400)
    hms = '%02d%02d%02d.000' % (second // 3600, second // 60 % 60, second % 60)
    la, ns = angle(lat, 2, 'N', 'S')
    lo, ew = angle(lon, 3, 'E', 'W')
    gga = sentence('GPGGA,%s,%s,%s,%s,%s,1,09,0.8,100.0,M,0.0,M,,' % (hms, la, ns, lo, ew))
    rmc = sentence('GPRMC,%s,A,%s,%s,%s,%s,0.0,0.0,%02d0226,,,A' % (hms, la, ns, lo, ew, 3 + day))
    return gga, rmc


class LineReader:
    """The lines `run` writes on a pipe, each with the time.perf_counter_ns() taken right after the
    os.read() that returned its end."""

    def __init__(self, descriptor):
        self.descriptor = descriptor
        self.buffered = b''

    def read_line(self, timeout):
        """The next line and its stamp; (None, None) after `timeout` seconds or at end of file."""
        stamp = time.perf_counter_ns()
        deadline = time.monotonic() + timeout
        while b'\n' not in self.buffered:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.descriptor], [], [], left)[0]:
                return None, None
            chunk = os.read(self.descriptor, 65536)
            stamp = time.perf_counter_ns()
            if not chunk:
                return None, None
            self.buffered += chunk
        line, self.buffered = self.buffered.split(b'\n', 1)
        return line, stamp


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--events', type=int, default=10000)
    ap.add_argument('--bin', default=os.path.join(HERE, '..', '.build', 'release', 'gpsfence'))
    a = ap.parse_args()
    folder = tempfile.mkdtemp(prefix='gpsfence-latency-')
    fences = os.path.join(folder, 'fences.geojson')
    lat0, lon0 = 47.0, 8.0
    far = lon0 + 200.0 / (6371008.8 * math.pi / 180 * math.cos(math.radians(lat0)))
    with open(fences, 'w') as fh:
        json.dump({'type': 'FeatureCollection', 'features': [{'type': 'Feature', 'id': 'f', 'geometry': {
            'type': 'Point', 'coordinates': [lon0, lat0]}, 'properties': {'radius': 30}}]}, fh)
    master, slave = pty.openpty()
    slave_path = os.ttyname(slave)
    os.close(slave)
    run = subprocess.Popen(
        [a.bin, 'run', '--device', slave_path, '--baud', '115200', '--fences', fences, '--json',
         '--state', os.path.join(folder, 'state.sqlite'), '--exit-confirm', '1', '--hysteresis', '0',
         # 200 m a second: past the default limit of a believed move (docs/running.md, "Receiver glitches")
         '--max-speed', '1000'],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=dict(os.environ, XDG_STATE_HOME=folder))
    read_line = LineReader(run.stdout.fileno()).read_line

    try:
        line, _ = read_line(10)
        if line is None or json.loads(line)['type'] != 'registered':
            sys.exit('run did not start: is it built (swift build -c release)?')
        time.sleep(0.3)  # let it open the device
        # Warm-up: until `run` has seen RMC end the cycle twice it emits a fix when the next epoch
        # begins, so these go out back to back and their events are read afterwards.
        t = 0
        for i in range(4):
            gga, rmc = epoch(t, lat0, lon0 if i % 2 == 0 else far)
            t += 1
            os.write(master, gga + rmc)
            time.sleep(0.05)
        while read_line(1.0)[0] is not None:
            pass
        latencies = []
        for i in range(a.events):
            gga, rmc = epoch(t, lat0, lon0 if i % 2 == 0 else far)
            t += 1
            os.write(master, gga + rmc[:-1])
            os.write(master, rmc[-1:])
            sent = time.perf_counter_ns()
            while True:
                line, stamp = read_line(5.0)
                if line is None:
                    sys.exit('no event for epoch %d (%d measured)' % (i, len(latencies)))
                if json.loads(line)['type'] in ('enter', 'exit'):
                    break
            latencies.append((stamp - sent) / 1e3)
    finally:
        run.send_signal(2)
        try:
            run.wait(timeout=10)
        except subprocess.TimeoutExpired:
            run.kill()
        os.close(master)
    latencies.sort()
    n = len(latencies)

    def pct(p):
        return latencies[min(n - 1, int(p / 100 * n))]

    print(json.dumps({'events': n, 'p50_us': round(pct(50), 1), 'p90_us': round(pct(90), 1),
                      'p99_us': round(pct(99), 1), 'max_us': round(latencies[-1], 1),
                      'mean_us': round(sum(latencies) / n, 1)}))


if __name__ == '__main__':
    main()
