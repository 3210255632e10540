#!/usr/bin/env python3
"""How soon the integrity monitor tells a jammer's onset and a spoofer's takeover, and whether it
ever says `jammed` or `spoofed` where nothing of the kind happened.

    python3 scripts/bench_integrity.py [--binary .build/release/gpsfence] [--runs 100]
                                       [--urban-days 1] [--keep DIR]

- Detection delay: `--runs` jammers and `--runs` spoofers from scripts/integrity_captures.py (seeds
  1, 2, ...; each draws its start time, the satellites in view, their C/N0 level, the jammer's
  fall or the spoofer's drift speed and level, and whether the vehicle is parked under an open sky
  or driving the urban day's streets). Each capture is replayed through the real binary,
  `gpsfence replay CAPTURE --fences EMPTY --json`, and the delay is the time of the first `integrity` event with
  state `jammed` (`spoofed`) minus the onset (takeover), both on the receiver's clock (the
  spoofer's clock step is taken off, so the delay is the true one). A run never told counts as
  missed.
- False states: the 70 real logs of ../shared/captures/gpsd (nothing was jammed or spoofed in
  them), each `gpsfence replay LOG --fences EMPTY --json`, and `--urban-days` urban days of 24 h at 1 Hz (seeds 1,
  2, ...): every `integrity` event with state `jammed` or `spoofed` is a false one. The `degraded`
  stretches are counted beside them (they only annotate).

Prints a Markdown table; `--json` prints the raw figures too.
"""
import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
GENERATOR = os.path.join(HERE, 'integrity_captures.py')
CAPTURES = os.path.normpath(os.path.join(HERE, '..', '..', 'shared', 'captures', 'gpsd'))
START = datetime.datetime(2026, 3, 2, 0, 0, 0, tzinfo=datetime.timezone.utc)
TARGET = 10.0
NO_FENCES = ''  # set in main: an empty fence file (the monitor judges without fences)


def generate(path, arguments):
    described = json.loads(subprocess.run(
        [sys.executable, GENERATOR] + arguments + ['--describe'], check=True, capture_output=True,
        text=True).stdout)
    if not os.path.exists(path):
        with open(path + '.part', 'w') as out:
            subprocess.run([sys.executable, GENERATOR] + arguments, check=True, stdout=out)
        os.rename(path + '.part', path)
    return described


def replay(binary, capture):
    result = subprocess.run([binary, 'replay', capture, '--fences', NO_FENCES, '--json'], capture_output=True,
                            text=True)
    if result.returncode != 0:
        sys.exit(f'gpsfence replay {capture}: exit {result.returncode}\n{result.stderr}')
    return [json.loads(line) for line in result.stdout.splitlines() if line.startswith('{')]


def seconds(iso):
    return (datetime.datetime.fromisoformat(iso.replace('Z', '+00:00')) - START).total_seconds()


def integrity(events):
    return [e for e in events if e.get('type') == 'integrity']


def detection(binary, folder, kind, seed):
    capture = os.path.join(folder, f'{kind}-{seed}.nmea')
    truth = generate(capture, [kind, '--seed', str(seed)])
    start = truth['onset'] if kind == 'jam' else truth['takeover']
    state = 'jammed' if kind == 'jam' else 'spoofed'
    if kind == 'jam':
        truth['tracked_at_onset'] = tracked_at(capture, start)
    told = next((e for e in integrity(replay(binary, capture)) if e['state'] == state), None)
    delay = None
    if told is not None:
        # The receiver's clock runs `clock_step` s ahead from 2 s after a takeover.
        at = seconds(told['time'])
        if kind == 'spoof' and at - start >= 2 + truth['clock_step'] - 0.01:
            at -= truth['clock_step']
        delay = at - start
    return truth, delay, told


def tracked_at(capture, epoch):
    """Satellites with a C/N0 in the GSV listing of the capture's `epoch`-th cycle (from 0)."""
    cycle, tracked = -1, 0
    with open(capture, newline='') as lines:
        for line in lines:
            if line.startswith('$GPGGA'):
                cycle += 1
                if cycle > epoch:
                    break
            elif cycle == epoch and line.startswith('$GPGSV'):
                fields = line.split('*')[0].split(',')
                tracked += sum(1 for i in range(7, len(fields), 4) if fields[i])
    return tracked


def quantile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def delays_row(name, runs):
    found = [d for _, d, _ in runs if d is not None]
    if not found:
        return f'| {name} | 0/{len(runs)} told | - | - | - | - |'
    within = sum(1 for d in found if d <= TARGET)
    return (f'| {name} | {len(found)}/{len(runs)} | {statistics.median(found):.0f} s | {quantile(found, 0.95):.0f} s '
            f'| {max(found):.0f} s | {within}/{len(runs)} |')


def false_states(binary, path):
    events = integrity(replay(binary, path))
    false = [e for e in events if e['state'] in ('jammed', 'spoofed')]
    degraded = [e for e in events if e['state'] == 'degraded']
    return false, degraded


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--binary', default='.build/release/gpsfence')
    parser.add_argument('--runs', type=int, default=100)
    parser.add_argument('--urban-days', type=int, default=1)
    parser.add_argument('--keep', help='folder for the captures (kept, and reused when there)')
    parser.add_argument('--json', action='store_true', help='print every run as JSON lines too')
    args = parser.parse_args()
    if not os.access(args.binary, os.X_OK):
        sys.exit(f'no gpsfence binary at {args.binary}: swift build -c release --product gpsfence')
    folder = args.keep or tempfile.mkdtemp(prefix='bench-integrity-')
    os.makedirs(folder, exist_ok=True)
    global NO_FENCES
    NO_FENCES = os.path.join(folder, 'no-fences.geojson')
    with open(NO_FENCES, 'w') as out:
        json.dump({'type': 'FeatureCollection', 'features': []}, out)

    runs = {'jam': [], 'spoof': []}
    for kind in runs:
        for seed in range(1, args.runs + 1):
            truth, delay, told = detection(args.binary, folder, kind, seed)
            runs[kind].append((truth, delay, told))
            if args.json:
                print(json.dumps({'kind': kind, 'truth': truth, 'delay': delay,
                                  'reasons': told and told.get('reasons')}))
        print(f'{kind}: {args.runs} runs done', file=sys.stderr)

    logs = sorted(f for f in os.listdir(CAPTURES) if f.endswith('.log'))
    log_false, log_degraded = [], 0
    for log in logs:
        false, degraded = false_states(args.binary, os.path.join(CAPTURES, log))
        log_false += [(log, e) for e in false]
        log_degraded += 1 if degraded else 0
    print(f'{len(logs)} real logs done', file=sys.stderr)

    urban_false, urban_degraded = [], 0
    for day in range(1, args.urban_days + 1):
        capture = os.path.join(folder, f'urban-{day}.nmea')
        generate(capture, ['urban', '--hours', '24', '--seed', str(day)])
        false, degraded = false_states(args.binary, capture)
        urban_false += [(day, e) for e in false]
        urban_degraded += len(degraded)
        print(f'urban day {day} done', file=sys.stderr)

    print(f'{args.runs} jammers and {args.runs} spoofers (scripts/integrity_captures.py, seeds 1-{args.runs}); '
          f'delays from the onset to the first `jammed` or `spoofed`, target {TARGET:.0f} s\n')
    print('| runs | told | median | p95 | longest | within 10 s |')
    print('|---|---|---|---|---|---|')
    print(delays_row('jammers, all', runs['jam']))
    for low, high in ((1, 2), (2, 4), (4, 6.01)):
        band = [r for r in runs['jam'] if low <= r[0]['fall'] < high and not r[0]['step']]
        if band:
            print(delays_row(f'jammers ramping {low:g}-{min(high, 6):g} dB-Hz/s from nothing', band))
    stepped = [r for r in runs['jam'] if r[0]['step'] and r[0]['tracked_at_onset'] >= 4]
    if stepped:
        print(delays_row('jammers switched on (a step, then the ramp), 4 or more satellites left', stepped))
    sudden = [r for r in runs['jam'] if r[0]['tracked_at_onset'] < 4]
    if sudden:
        print(delays_row('jammers leaving 3 satellites or fewer after their first second', sudden))
    for scene in ('parked', 'urban'):
        print(delays_row(f'jammers, {scene}', [r for r in runs['jam'] if r[0]['scene'] == scene]))
    print(delays_row('spoofers, all', runs['spoof']))
    for scene in ('parked', 'urban'):
        print(delays_row(f'spoofers, {scene}', [r for r in runs['spoof'] if r[0]['scene'] == scene]))
    print()
    print('| ordinary data | `jammed` or `spoofed` | with a `degraded` stretch |')
    print('|---|---|---|')
    print(f'| {len(logs)} real gpsd logs | **{len(log_false)}** | {log_degraded} logs |')
    print(f'| {args.urban_days} urban day(s), 24 h at 1 Hz | **{len(urban_false)}** | {urban_degraded} stretches |')
    for where, event in log_false + urban_false:
        print(f'false: {where}: {json.dumps(event)}')
    missed = [(kind, truth) for kind in runs for truth, delay, _ in runs[kind] if delay is None or delay > TARGET]
    for kind, truth in missed:
        print(f'late or missed: {kind} {json.dumps(truth, sort_keys=True)}')


if __name__ == '__main__':
    main()
