#!/usr/bin/env python3
"""What the page of `run --web` costs (docs/performance.md, "The page on a phone"), in one run:

1. Console latency at 10 Hz with 0 and with 50 WebSocket clients. The script plays the receiver on
   the master side of a real pseudo-terminal (as scripts/bench_latency.py does: GGA + RMC epochs,
   alternately inside a 30 m fence and 200 m away, `--exit-confirm 1`, so each epoch raises one
   event), but paced at 10 Hz: one epoch every 100 ms, timed from the os.write() of RMC's last
   byte to the os.read() that returned the event line. `run --web PORT` serves the page meanwhile.
   Phases in this order: no client, 50 clients, no client again (the machine's drift shows as a
   difference between the two baselines). The 50 clients are one process of Debian's Python with
   `websockets` (python3-websockets) reading every frame on 50 connections to `/ws`; the frames
   they got are printed. They stand for phones, whose processors are their own: the process runs
   at nice 19 (`--clients-nice`), so that the clients' Python yields the two cores to gpsfence
   rather than being counted as the page's cost.
2. Idle cost: `run` and `run --web PORT` with no client, side by side, each fed at 10 Hz by its
   own `simulate`, after a warm-up: voluntary context switches of every thread per second
   (wake-ups), the web thread's own, and resident memory (VmRSS at the end, VmHWM).

    swift build -c release --product gpsfence
    sh scripts/install-deps.sh test          # python3-websockets
    python3 scripts/bench_web.py [--events 1500] [--clients 50] [--seconds 60] [--binary PATH]
"""
import argparse
import json
import math
import os
import pty
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# Debian's interpreter, for which python3-websockets is installed.
CLIENT_PYTHON = '/usr/bin/python3'

CLIENTS = r'''
import asyncio, sys, websockets

async def reader(url, counts, index, opened):
    async with websockets.connect(url, open_timeout=30) as socket:
        opened.append(index)
        async for _ in socket:
            counts[index] += 1

async def main():
    url, n = sys.argv[1], int(sys.argv[2])
    counts, opened = [0] * n, []
    tasks = [asyncio.ensure_future(reader(url, counts, i, opened)) for i in range(n)]
    while len(opened) < n:
        await asyncio.sleep(0.05)
        for task in tasks:
            if task.done() and task.exception():
                raise task.exception()
    print('ready', flush=True)
    loop = asyncio.get_running_loop()
    stop = loop.create_future()
    loop.add_reader(sys.stdin.fileno(), lambda: stop.done() or stop.set_result(None))
    await stop
    print(' '.join(map(str, counts)), flush=True)

asyncio.run(main())
'''


# A second of receiver time per epoch, as the latency benchmark plays them: 200 m in a tenth of a
# second would be a jump no vehicle makes.
sys.path.insert(0, HERE)
from bench_latency import LineReader, epoch  # noqa: E402
from bench_live_cost import threads as thread_costs  # noqa: E402


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def percentiles(values):
    values = sorted(values)
    n = len(values)

    def pct(p):
        return values[min(n - 1, int(p / 100 * n))]
    return {'events': n, 'p50_us': round(pct(50), 1), 'p90_us': round(pct(90), 1), 'p99_us': round(pct(99), 1),
            'max_us': round(values[-1], 1)}


def latency(args, folder):
    fences = os.path.join(folder, 'fences.geojson')
    lat0, lon0 = 47.0, 8.0
    far = lon0 + 200.0 / (6371008.8 * math.pi / 180 * math.cos(math.radians(lat0)))
    with open(fences, 'w') as fh:
        json.dump({'type': 'FeatureCollection', 'features': [{'type': 'Feature', 'id': 'f', 'geometry': {
            'type': 'Point', 'coordinates': [lon0, lat0]}, 'properties': {'radius': 30}}]}, fh)
    master, slave = pty.openpty()
    slave_path = os.ttyname(slave)
    os.close(slave)
    port = free_port()
    run = subprocess.Popen(
        [args.binary, 'run', '--device', slave_path, '--baud', '115200', '--fences', fences, '--json',
         '--state', os.path.join(folder, 'state.sqlite'), '--exit-confirm', '1', '--hysteresis', '0',
         # 200 m a second: past the default limit of a believed move (docs/running.md, "Receiver glitches")
         '--max-speed', '1000', '--web', str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=dict(os.environ, XDG_STATE_HOME=folder))
    read_line = LineReader(run.stdout.fileno()).read_line
    clients = None

    t = 0

    def phase(count):
        """`count` epochs at 10 Hz; the latency of each one's event, in µs."""
        nonlocal t
        latencies = []
        next_at = time.monotonic()
        for i in range(count):
            next_at += 0.1
            gga, rmc = epoch(t, lat0, lon0 if t % 2 == 0 else far)
            t += 1
            os.write(master, gga + rmc[:-1])
            os.write(master, rmc[-1:])
            sent = time.perf_counter_ns()
            while True:
                line, stamp = read_line(5.0)
                if line is None:
                    sys.exit('bench_web: no event for epoch %d' % i)
                if json.loads(line)['type'] in ('enter', 'exit'):
                    break
            latencies.append((stamp - sent) / 1e3)
            time.sleep(max(0.0, next_at - time.monotonic()))
        return latencies

    try:
        line, _ = read_line(10)
        if line is None or json.loads(line)['type'] != 'registered':
            sys.exit('bench_web: run did not start: is it built (swift build -c release)?')
        time.sleep(0.3)
        # Warm-up, as in bench_latency.py: until `run` has seen RMC end the cycle it emits a fix
        # when the next epoch begins.
        for i in range(4):
            gga, rmc = epoch(t, lat0, lon0 if t % 2 == 0 else far)
            t += 1
            os.write(master, gga + rmc)
            time.sleep(0.1)
        while read_line(1.0)[0] is not None:
            pass
        phase(50)
        results = {'no client': percentiles(phase(args.events))}
        # The clients stand for phones on the Wi-Fi: their Python shares this machine's cores, and
        # at --clients-nice it yields them to gpsfence, as a phone's own processor would.
        clients = subprocess.Popen([CLIENT_PYTHON, '-c', CLIENTS, 'ws://127.0.0.1:%d/ws' % port, str(args.clients)],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   preexec_fn=lambda: os.nice(args.clients_nice))
        if clients.stdout.readline().strip() != b'ready':
            sys.exit('bench_web: the WebSocket clients did not connect (python3-websockets: '
                     'sh scripts/install-deps.sh test)')
        phase(20)
        results['%d WebSocket clients' % args.clients] = percentiles(phase(args.events))
        clients.stdin.close()
        counts = [int(c) for c in clients.stdout.readline().split()]
        clients.wait(timeout=30)
        clients = None
        phase(20)
        results['no client, after'] = percentiles(phase(args.events))
        return results, counts
    finally:
        if clients is not None:
            clients.kill()
        run.send_signal(signal.SIGINT)
        try:
            run.wait(timeout=10)
        except subprocess.TimeoutExpired:
            run.kill()
        os.close(master)


def threads(pid):
    """Per thread of `pid`: name -> voluntary context switches (names made unique by a count)."""
    return {name: switches for name, (_, switches) in thread_costs(pid).items()}


def memory(pid):
    with open('/proc/%d/status' % pid) as f:
        fields = dict(l.split(':', 1) for l in f)
    return int(fields['VmRSS'].split()[0]) / 1024, int(fields['VmHWM'].split()[0]) / 1024


def idle(args, folder):
    fences = os.path.join(folder, 'idle-fences.geojson')
    with open(fences, 'w') as fh:
        json.dump({'type': 'FeatureCollection', 'features': [{'type': 'Feature', 'id': 'f', 'geometry': {
            'type': 'Point', 'coordinates': [8.0, 47.0]}, 'properties': {'radius': 300}}]}, fh)
    route = os.path.join(folder, 'route.geojson')
    with open(route, 'w') as f:
        json.dump({'type': 'Feature', 'properties': {}, 'geometry': {
            'type': 'LineString', 'coordinates': [[7.99, 46.99], [8.01, 47.01]]}}, f)
    procs = []
    try:
        runs = {}
        for name, extra in (('run', []), ('run --web, no client', ['--web', str(free_port())])):
            link = os.path.join(folder, 'gps-%d' % len(runs))
            sim = subprocess.Popen([args.binary, 'simulate', route, '--rate', '10', '--speed', '15', '--loop',
                                    '--link', link], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            procs.append(sim)
            sim.stdout.readline()
            state = os.path.join(folder, 'idle-%d.sqlite' % len(runs))
            run = subprocess.Popen([args.binary, 'run', '--device', link, '--fences', fences, '--state', state]
                                   + extra, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   env=dict(os.environ, XDG_STATE_HOME=folder))
            procs.append(run)
            runs[name] = run
        time.sleep(args.warmup)
        for p in procs:
            if p.poll() is not None:
                sys.exit('bench_web: %s exited early (status %s)' % (' '.join(p.args[:2]), p.returncode))
        before = {name: threads(run.pid) for name, run in runs.items()}
        began = time.monotonic()
        time.sleep(args.seconds)
        after = {name: threads(run.pid) for name, run in runs.items()}
        elapsed = time.monotonic() - began
        results = {}
        for name, run in runs.items():
            rss, hwm = memory(run.pid)
            per_thread = {key: round((value - before[name].get(key, 0)) / elapsed, 2)
                          for key, value in after[name].items()}
            results[name] = {'wakeups_per_s': round(sum(per_thread.values()), 2), 'rss_mb': round(rss, 1),
                             'hwm_mb': round(hwm, 1), 'threads': per_thread}
        return results, elapsed
    finally:
        for p in reversed(procs):
            if p.poll() is None:
                p.send_signal(signal.SIGINT)
                try:
                    p.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    p.kill()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--events', type=int, default=1500, help='epochs (events) per latency phase, at 10 Hz')
    ap.add_argument('--clients', type=int, default=50)
    ap.add_argument('--clients-nice', type=int, default=19,
                    help='niceness of the clients\' process (0: they compete with gpsfence for the cores)')
    ap.add_argument('--seconds', type=float, default=60, help='the idle measurement')
    ap.add_argument('--warmup', type=float, default=20, help='before the idle measurement')
    ap.add_argument('--binary', default=os.path.join(ROOT, '.build', 'release', 'gpsfence'))
    ap.add_argument('--skip-latency', action='store_true')
    ap.add_argument('--skip-idle', action='store_true')
    args = ap.parse_args()
    folder = tempfile.mkdtemp(prefix='gpsfence-bench-web-')
    if not args.skip_latency:
        results, counts = latency(args, folder)
        print('console latency at 10 Hz, last byte of the epoch to the event line (µs):')
        for name, figures in results.items():
            print('  %-24s %s' % (name, json.dumps(figures)))
        print('  the %d clients got %d to %d frames each (%d epochs while they were connected)' % (
            len(counts), min(counts), max(counts), args.events + 20))
    if not args.skip_idle:
        results, elapsed = idle(args, folder)
        print('idle cost over %.0f s, each run fed at 10 Hz by its own simulate:' % elapsed)
        for name, figures in results.items():
            print('  %-24s wake-ups/s %6.2f   VmRSS %5.1f MB   VmHWM %5.1f MB' % (
                name, figures['wakeups_per_s'], figures['rss_mb'], figures['hwm_mb']))
            print('    by thread: %s' % json.dumps({k: v for k, v in figures['threads'].items() if v}))
        base, web = results['run'], results['run --web, no client']
        print('  --web adds %.2f wake-ups/s and %.1f MB resident (%.1f MB peak)' % (
            web['wakeups_per_s'] - base['wakeups_per_s'], web['rss_mb'] - base['rss_mb'],
            web['hwm_mb'] - base['hwm_mb']))


if __name__ == '__main__':
    main()
