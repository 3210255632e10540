#!/usr/bin/env python3
"""Live latency of `gpsfence run` (docs/performance.md): from the last byte of a sentence written to a
pseudo-terminal to the event line `run` writes, over N events (default 10,000).

    swift build -c release && python3 scripts/bench_latency.py [--events 10000] [--rate HZ] [--trickle]

The script plays the receiver on the master side of a real pseudo-terminal; `run` reads the slave
like a USB GPS (pinned at 115200 baud). Each epoch is GGA + RMC, RMC last, so once `run` has learned
that RMC ends the cycle it emits the fix on RMC's last byte. Fixes alternate between the centre
of a 30 m fence and a point 200 m away, with `--exit-confirm 1`, so every fix raises one event
(enter, exit, enter, ...). One epoch is written at a time and the next only after its event has
been read, so latencies never queue. The clock is time.perf_counter_ns(), taken right after the
os.write() of RMC's last byte and right after the os.read() that returned the event line.
Nothing else may have the pseudo-terminal open (a stray reader steals bytes).

`--rate HZ` paces the epochs at HZ (the next one HZ-th of a second after the last began, if its event
has come by then), as a receiver sends them: `run` learns the period and sleeps from one cycle's end to
the foretold end of the next instead of waiting on the descriptor (the wake-ups of its reader thread, and
of all its threads, per epoch are printed beside the latencies). `--trickle` writes each epoch as a
UART at 115200 baud hands it over, a chunk every 2 ms (the last byte alone, as before), instead of at
once; the latency is still timed from the last byte.
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
sys.path.insert(0, HERE)
from bench_live_cost import threads  # noqa: E402


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


def write_epoch(master, data, trickle):
    """All but the last byte, at once or as a UART at 115200 baud hands them over (23 bytes every 2 ms),
    then the last byte alone."""
    if not trickle:
        os.write(master, data[:-1])
    else:
        start = time.monotonic()
        for offset in range(0, len(data) - 1, 23):
            time.sleep(max(0.0, start + offset / 11520 - time.monotonic()))
            os.write(master, data[offset:min(offset + 23, len(data) - 1)])
        time.sleep(max(0.0, start + (len(data) - 1) / 11520 - time.monotonic()))
    os.write(master, data[-1:])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--events', type=int, default=10000)
    ap.add_argument('--rate', type=float, default=0, help='epochs a second (0: each as soon as the last event came)')
    ap.add_argument('--trickle', action='store_true', help='each epoch at 115200 baud in 2 ms chunks')
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
        switches_before = {name: switches for name, (_, switches) in threads(run.pid).items()}
        next_at = time.monotonic()
        for i in range(a.events):
            if a.rate:
                next_at += 1 / a.rate
                time.sleep(max(0.0, next_at - time.monotonic()))
            gga, rmc = epoch(t, lat0, lon0 if i % 2 == 0 else far)
            t += 1
            write_epoch(master, gga + rmc, a.trickle)
            sent = time.perf_counter_ns()
            while True:
                line, stamp = read_line(5.0)
                if line is None:
                    sys.exit('no event for epoch %d (%d measured)' % (i, len(latencies)))
                if json.loads(line)['type'] in ('enter', 'exit'):
                    break
            latencies.append((stamp - sent) / 1e3)
        switches_after = {name: switches for name, (_, switches) in threads(run.pid).items()}
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

    # Wake-ups (voluntary context switches) of the reader thread and of the whole run, per epoch.
    woke = {name: count - switches_before.get(name, 0) for name, count in switches_after.items()}
    print(json.dumps({'events': n, 'p50_us': round(pct(50), 1), 'p90_us': round(pct(90), 1),
                      'p99_us': round(pct(99), 1), 'max_us': round(latencies[-1], 1),
                      'mean_us': round(sum(latencies) / n, 1),
                      'reader_wakeups_per_epoch': round(woke.get('gf-reader', 0) / n, 2),
                      'wakeups_per_epoch': round(sum(woke.values()) / n, 2)}))


if __name__ == '__main__':
    main()
