#!/usr/bin/env python3
"""What a live `gpsfence run` costs a Raspberry Pi per hour (docs/performance.md, "Live cost"):
bytes written to storage, CPU time, wake-ups and resident memory, next to the peer a Pi owner would
otherwise use, measured in the same run.

    swift build -c release --product gpsfence
    python3 scripts/bench_live_cost.py [--seconds 90] [--fences 10000]

gpsfence: `simulate` plays a route at 10 Hz (RMC, VTG, GGA, GSA and two GSV) into a pseudo-terminal; `gpsfence run
--device PTY --fences F --state S --json --webhook URL` (a webhook receiver on 127.0.0.1) reads it.
Peer: a second `simulate` feeds Debian's gpsd on its own pseudo-terminal, and a Python client (the
`gps` module of python3-gps) checks each fix against the same fences with shapely (prepared
circles in an STRtree) and appends enter/exit lines to a file. Both run side by side for the same
`--seconds`, after a warm-up that is not counted (loading the fences, the first writes); what the
warm-up wrote is printed apart, a cost per start rather than per hour.

Per process (the peer: gpsd and its client together), from /proc/PID: `write_bytes` of io (bytes
that reach the block layer), the CPU time of every thread from its schedstat (the scheduler's own
count, in nanoseconds; utime+stime of stat come in 10 ms ticks, 0.4 s an hour over 90 s, as large as
the differences measured), voluntary context switches of every thread (a thread wakes up for each),
VmHWM (peak resident memory). `--files` also says which files those written pages were, from the
kernel's trace of every page made dirty (root and tracefs).
"""
import argparse
import glob
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BENCH = os.path.join(ROOT, '..', 'shared', 'bench')

PEER_CLIENT = r'''
import json, math, sys
import gps
from shapely.geometry import Point, Polygon
from shapely.prepared import prep
from shapely.strtree import STRtree
import shapely

fences = json.load(open(sys.argv[1]))['features']
out = open(sys.argv[2], 'a')
R = 6371008.8
polygons, prepared = [], []
for f in fences:
    lon, lat = f['geometry']['coordinates']
    r = f['properties']['radius']
    dlat = math.degrees(r / R)
    dlon = dlat / math.cos(math.radians(lat))
    ring = [(lon + dlon * math.cos(a), lat + dlat * math.sin(a))
            for a in (2 * math.pi * k / 64 for k in range(64))]
    p = Polygon(ring)
    polygons.append(p)
    prepared.append(prep(p))
tree = STRtree(polygons)
shapely2 = shapely.__version__.startswith('2')
index = {id(p): i for i, p in enumerate(polygons)}
inside = set()
session = gps.gps(host='127.0.0.1', port=sys.argv[3], mode=gps.WATCH_ENABLE | gps.WATCH_JSON)
print('ready', flush=True)
for report in session:
    if report['class'] != 'TPV' or 'lat' not in report:
        continue
    point = Point(report['lon'], report['lat'])
    hits = tree.query(point)
    indices = [int(i) for i in hits] if shapely2 else [index[id(g)] for g in hits]
    now = {i for i in indices if prepared[i].contains(point)}
    for i in now - inside:
        out.write('enter %s %s\n' % (fences[i]['id'], report.get('time')))
    for i in inside - now:
        out.write('exit %s %s\n' % (fences[i]['id'], report.get('time')))
    out.flush()
    inside = now
'''


def task_cpu(task):
    """CPU seconds of one thread (`/proc/PID/task/TID`): the first field of its schedstat."""
    with open(task + '/schedstat') as f:
        return int(f.read().split()[0]) / 1e9


def ticks_cpu(pids):
    """CPU seconds of `pids` by utime+stime of stat: 10 ms ticks, but threads that ended count too."""
    tick = os.sysconf('SC_CLK_TCK')
    total = 0
    for pid in pids:
        with open('/proc/%d/stat' % pid) as f:
            fields = f.read().rsplit(')', 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def sample(pids):
    """Sums over `pids`: write_bytes, CPU seconds, voluntary switches; and the largest VmHWM in kB.
    The CPU is that of the threads alive now: every thread of both programs lives as long as they do."""
    written = cpu = switches = peak = 0
    for pid in pids:
        with open('/proc/%d/io' % pid) as f:
            written += int(next(l for l in f if l.startswith('write_bytes')).split()[1])
        for task in glob.glob('/proc/%d/task/*' % pid):
            try:
                cpu += task_cpu(task)
            except FileNotFoundError:
                pass
        for status in glob.glob('/proc/%d/task/*/status' % pid):
            try:
                with open(status) as f:
                    switches += int(next(l for l in f if l.startswith('voluntary_ctxt_switches')).split()[1])
            except (FileNotFoundError, StopIteration):
                pass
        with open('/proc/%d/status' % pid) as f:
            peak += int(next(l for l in f if l.startswith('VmHWM')).split()[1])
    return written, cpu, switches, peak


def threads(pid):
    """Per thread of `pid`: its name -> (CPU seconds, voluntary switches), names made unique by a count."""
    found = {}
    for task in sorted(glob.glob('/proc/%d/task/*' % pid), key=lambda t: int(t.rsplit('/', 1)[1])):
        try:
            with open(task + '/stat') as f:
                text = f.read()
            with open(task + '/status') as f:
                switches = int(next(l for l in f if l.startswith('voluntary_ctxt_switches')).split()[1])
            cpu = task_cpu(task)
        except (FileNotFoundError, StopIteration):
            continue
        name = text[text.index('(') + 1:text.rindex(')')]
        key, n = name, 1
        while key in found:
            n += 1
            key = '%s#%d' % (name, n)
        found[key] = (cpu, switches)
    return found


TRACING = '/sys/kernel/tracing'
DIRTY_EVENT = TRACING + '/events/writeback/writeback_dirty_folio/enable'


def start_dirty_trace(pid):
    """Starts recording every page of the page cache that process `pid` makes dirty
    (`writeback_dirty_folio`): what `write_bytes` counts, page by page. Only its threads are traced
    (`set_event_pid`, and `event-fork` for threads it starts later), so that a busy machine does not
    overwrite the trace buffer in a long window. Needs root and tracefs."""
    def put(name, text):
        with open(os.path.join(TRACING, name), 'w') as f:
            f.write(text)
    put('tracing_on', '0')
    put('trace', '')
    put('options/record-tgid', '1')
    put('options/event-fork', '1')
    put('set_event_pid', ' '.join(os.listdir('/proc/%d/task' % pid)))
    put('buffer_size_kb', '8192')
    put('events/writeback/writeback_dirty_folio/enable', '1')
    put('tracing_on', '1')


def stop_dirty_trace(pid, folder):
    """Pages `pid` dirtied since `start_dirty_trace`, by file: the files of `folder` by name, any
    other inode as the filesystem's own records (ext4's inode table and block bitmap: an inode
    number that is no file of the folder)."""
    with open(os.path.join(TRACING, 'tracing_on'), 'w') as f:
        f.write('0')
    with open(os.path.join(TRACING, 'trace')) as f:
        text = f.read()
    with open(DIRTY_EVENT, 'w') as f:
        f.write('0')
    with open(os.path.join(TRACING, 'set_event_pid'), 'w') as f:
        f.write('')
    # One trace line per folio made dirty: a 4 KB page for the small writes SQLite makes (a large
    # folio would count once here but by its size in write_bytes; the caller compares the sums).
    names = {}
    for name in os.listdir(folder):
        try:
            names[os.stat(os.path.join(folder, name)).st_ino] = name
        except FileNotFoundError:
            pass
    pages = {}
    pattern = re.compile(r'\(\s*%d\)\s.*writeback_dirty_folio: bdi \S+: ino=(\d+) index=\d+' % pid)
    for match in pattern.finditer(text):
        name = names.get(int(match.group(1)), 'filesystem records (inode table, block bitmap)')
        pages[name] = pages.get(name, 0) + 1
    return pages


# Debian's interpreter: python3-gps and python3-shapely are installed for it, not for another Python.
PEER_PYTHON = '/usr/bin/python3'


def missing_peer_packages():
    """The Debian packages the peer needs that this machine lacks, checked before anything starts: a
    client that fails to import would otherwise be noticed only after the warm-up, as an early exit."""
    missing = [] if shutil.which('gpsd') else ['gpsd']
    for module, package in (('gps', 'python3-gps'), ('shapely', 'python3-shapely')):
        found = os.path.exists(PEER_PYTHON) and subprocess.run(
            [PEER_PYTHON, '-c', 'import ' + module], stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL).returncode == 0
        if not found:
            missing.append(package)
    return missing


def wait_for(path, timeout=20):
    deadline = time.time() + timeout
    while not os.path.exists(path):
        if time.time() > deadline:
            sys.exit('bench_live_cost: %s did not appear' % path)
        time.sleep(0.05)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--seconds', type=float, default=90)
    # Long enough for the start to be over: the fences loaded, the `registered` event (it names every
    # fence: about 100 KB with 10,000) committed and delivered, and its delivered mark written with
    # the first track write 30 s in. What the start wrote is printed on its own line.
    ap.add_argument('--warmup', type=float, default=40)
    ap.add_argument('--fences', type=int, default=10000)
    ap.add_argument('--binary', default=os.path.join(ROOT, '.build', 'release', 'gpsfence'))
    ap.add_argument('--skip-peer', action='store_true')
    ap.add_argument('--threads', action='store_true',
                    help="also print gpsfence's CPU and wake-ups per thread (by thread name)")
    ap.add_argument('--run-option', action='append', default=[], metavar='OPTION',
                    help="one more option for gpsfence run, as '--run-option=--track-write-interval=60'")
    ap.add_argument('--stdout-file', action='store_true',
                    help="gpsfence run's console output into a file in the work folder, counted in its writes "
                         "(default: a pipe the benchmark reads, as a service manager's journal would)")
    ap.add_argument('--files', action='store_true',
                    help="also print the 4 KB pages gpsfence run dirtied in the window, by file (the kernel's "
                         "writeback_dirty_folio trace event: needs root and /sys/kernel/tracing)")
    ap.add_argument('--away', action='store_true',
                    help='drive 50 km north of the fences: no events, the cost of the track alone')
    ap.add_argument('--fence-file', metavar='PATH',
                    help='run with this fence file instead of generated circles (the peer, which reads '
                         'circles only, is skipped), driving through --center')
    ap.add_argument('--center', default='51.15,10.45', metavar='LAT,LON',
                    help='with --fence-file: the middle of the straight drive (default: the middle of '
                         'scripts/make_corridor_country.py\'s country)')
    args = ap.parse_args()
    if args.fence_file:
        args.skip_peer = True
    if not args.skip_peer:
        missing = missing_peer_packages()
        if missing:
            print('bench_live_cost: the peer (gpsd and a client in %s) needs Debian packages this machine lacks: %s.\n'
                  'Install them with `sh scripts/install-deps.sh test bench`, or measure gpsfence alone with '
                  '--skip-peer.' % (PEER_PYTHON, ' '.join(missing)), file=sys.stderr)
            sys.exit(2)
    work = tempfile.mkdtemp(prefix='gpsfence-live-cost-')
    procs = []
    try:
        if args.fence_file:
            fences = os.path.abspath(args.fence_file)
            lat, lon = (float(part) for part in args.center.split(','))
        else:
            prefix = os.path.join(work, 'w')
            subprocess.run([sys.executable, os.path.join(BENCH, 'gen_workload.py'), '--fences', str(args.fences),
                            '--kind', 'circle', '--points', '1', '--seed', '1', '--out-prefix', prefix],
                           check=True, stdout=subprocess.DEVNULL)
            fences = prefix + '.geojson'
            # A straight drive through the middle of the fences' region (the default 50 km square).
            lat, lon = (42.33 if args.away else 41.88), -87.63
        route = os.path.join(work, 'route.geojson')
        with open(route, 'w') as f:
            json.dump({'type': 'Feature', 'properties': {}, 'geometry': {
                'type': 'LineString', 'coordinates': [[lon - 0.2, lat - 0.1], [lon + 0.2, lat + 0.1]]}}, f)

        def simulate(link):
            p = subprocess.Popen([args.binary, 'simulate', route, '--rate', '10', '--speed', '15', '--loop',
                                  '--link', link], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            procs.append(p)
            p.stdout.readline()
            return p

        webhook_log = os.path.join(work, 'webhook.jsonl')
        server = subprocess.Popen([sys.executable, os.path.join(ROOT, 'Tests', 'Support', 'webhook_server.py'),
                                   webhook_log], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        procs.append(server)
        port = server.stdout.readline().decode().strip()

        link = os.path.join(work, 'gps0')
        simulate(link)
        state = os.path.join(work, 'state.sqlite')
        run = subprocess.Popen([args.binary, 'run', '--device', link, '--fences', fences, '--state', state, '--json',
                                '--webhook', 'http://127.0.0.1:%s/events' % port] + args.run_option,
                               stdout=open(os.path.join(work, 'run.jsonl'), 'w') if args.stdout_file
                               else subprocess.PIPE,
                               stderr=open(os.path.join(work, 'run.err'), 'w'))
        procs.append(run)
        printed = [0]
        if not args.stdout_file:
            def drain():
                for _ in run.stdout:
                    printed[0] += 1
            threading.Thread(target=drain, daemon=True).start()
        measured = {'gpsfence run': [run.pid]}

        if not args.skip_peer:
            peer_link = os.path.join(work, 'gps1')
            simulate(peer_link)
            gpsd_port = '29947'
            gpsd = subprocess.Popen(['gpsd', '-N', '-n', '-S', gpsd_port, '-F', os.path.join(work, 'gpsd.sock'),
                                     os.path.realpath(peer_link)], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
            procs.append(gpsd)
            client_path = os.path.join(work, 'peer_client.py')
            with open(client_path, 'w') as f:
                f.write(PEER_CLIENT)
            time.sleep(1)
            client = subprocess.Popen([PEER_PYTHON, client_path, fences, os.path.join(work, 'peer.log'),
                                       gpsd_port], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            procs.append(client)
            client.stdout.readline()
            measured['gpsd + python3-gps + shapely'] = [gpsd.pid, client.pid]

        time.sleep(args.warmup)
        for p in procs:
            if p.poll() is not None:
                sys.exit('bench_live_cost: %s exited early (status %s)' % (' '.join(p.args[:2]), p.returncode))
        start = {name: sample(pids) for name, pids in measured.items()}
        ticks_before = {name: ticks_cpu(pids) for name, pids in measured.items()}
        threads_before = threads(run.pid)
        if args.files:
            start_dirty_trace(run.pid)
        began = time.time()
        time.sleep(args.seconds)
        end = {name: sample(pids) for name, pids in measured.items()}
        dirtied = stop_dirty_trace(run.pid, work) if args.files else {}
        ticks_after = {name: ticks_cpu(pids) for name, pids in measured.items()}
        elapsed = time.time() - began
        threads_after = threads(run.pid)
        per_hour = 3600 / elapsed
        print('live cost over %.0f s (10 Hz RMC+VTG+GGA+GSA+2 GSV, %s), per hour of running:' % (elapsed, os.path.basename(args.fence_file) if args.fence_file else '%d circles' % args.fences))
        print('%-32s %14s %12s %14s %14s' % ('', 'written MB/h', 'CPU s/h', 'wake-ups/s', 'peak RSS MB'))
        for name in measured:
            w0, c0, s0, _ = start[name]
            w1, c1, s1, peak = end[name]
            print('%-32s %14.2f %12.2f %14.1f %14.1f' % (
                name, (w1 - w0) * per_hour / 1e6, (c1 - c0) * per_hour, (s1 - s0) / elapsed, peak / 1024))
        if args.threads:
            for name, (cpu, switches) in threads_after.items():
                cpu0, switches0 = threads_before.get(name, (0, 0))
                print('  thread %-28s %12.2f %14.1f' % (
                    name, (cpu - cpu0) * 3600 / elapsed, (switches - switches0) / elapsed))
        for name, count in sorted(dirtied.items(), key=lambda item: -item[1]):
            print('  4 KB pages dirtied in %-48s %5d  (%.2f MB/h)' % (name, count, count * 4096 * per_hour / 1e6))
        if args.files:
            traced = sum(dirtied.values()) * 4096
            counted = end['gpsfence run'][0] - start['gpsfence run'][0]
            if abs(traced - counted) > 0.1 * max(counted, 1):
                # The trace's buffer holds every process's pages: a busy machine can overwrite some.
                print('  (the trace saw %d bytes of the %d write_bytes counted: the by-file figures are short)' % (
                    traced, counted))
        for name in measured:
            # A thread that ended within the window is missing from the schedstat sum, not from this.
            print('%s CPU by stat ticks (ended threads included): %.2f s/h' % (
                name, (ticks_after[name] - ticks_before[name]) * per_hour))
        for name in measured:
            print('%s wrote %.2f MB before the measurement began (the start, once per start)' % (
                name, start[name][0] / 1e6))
        events = sum(1 for _ in open(os.path.join(work, 'run.jsonl'))) if args.stdout_file else printed[0]
        print('gpsfence printed %d lines; the webhook received %d' % (
            events, sum(1 for _ in open(webhook_log)) if os.path.exists(webhook_log) else 0))
        # The WAL checkpoint (hourly, or after 4 MB of WAL) falls outside a short window; `run`
        # does one when it stops, of every page changed since it started: what it wrote from the
        # end of the window to its exit (ru_oublock counts write_bytes less cancelled writes, in
        # 512-byte blocks).
        with open('/proc/%d/io' % run.pid) as f:
            io = dict(l.split(': ') for l in f.read().splitlines())
        kept_so_far = int(io['write_bytes']) - int(io['cancelled_write_bytes'])
        run.send_signal(signal.SIGTERM)
        _, status, usage = os.wait4(run.pid, 0)
        run.returncode = status
        print('gpsfence run wrote %.2f MB when it stopped (its last WAL checkpoint, of %.0f s of running)' % (
            (usage.ru_oublock * 512 - kept_so_far) / 1e6, time.time() - began + args.warmup))
    finally:
        for p in reversed(procs):
            if p.poll() is None:
                p.send_signal(signal.SIGINT)
                try:
                    p.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    p.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    main()
