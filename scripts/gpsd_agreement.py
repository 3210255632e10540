#!/usr/bin/env python3
"""Compare `gpsfence decode` with gpsd's decoding of its regression captures (development aid;
the authoritative check is Tests/NMEATests/GpsdAgreementTests.swift, which applies the same rules).

    python3 scripts/gpsd_agreement.py [--bin .build/debug/gpsfence] [--verbose LOG]
"""
import argparse, json, os, subprocess, sys
HERE = os.path.dirname(os.path.abspath(__file__))
CAPS = os.path.join(HERE, '..', '..', 'shared', 'captures', 'gpsd')

def gpsd_epochs(chk):
    epochs = {}
    for line in open(chk, encoding='utf-8', errors='replace'):
        line = line.strip()
        if not line.startswith('{'): continue
        try: r = json.loads(line)
        except ValueError: continue
        if r.get('class') != 'TPV' or r.get('mode', 0) < 2 or 'lat' not in r or 'time' not in r: continue
        epochs[r['time']] = r   # the last report of an epoch is gpsd's completed fix
    return epochs

def compare(ours, g):
    problems = []
    if abs(ours['lat'] - g['lat']) > 1e-6 or abs(ours['lon'] - g['lon']) > 1e-6: problems.append('pos')
    if ours['mode'] != g['mode']: problems.append('mode %s/%s' % (ours['mode'], g['mode']))
    galt = g.get('altMSL', g.get('alt'))
    if (galt is None) != (ours['alt'] is None) or (galt is not None and abs(galt - ours['alt']) > 1e-3):
        problems.append('alt %s/%s' % (ours['alt'], galt))
    for k, tol in (('speed', 1e-3), ('track', 1e-3)):
        a, b = ours[k], g.get(k)
        if (a is None) != (b is None) or (a is not None and abs(a - b) > tol):
            problems.append('%s %s/%s' % (k, a, b))
    return problems

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', default=os.path.join(HERE, '..', '.build', 'debug', 'gpsfence'))
    ap.add_argument('--verbose', default=None)
    a = ap.parse_args()
    te = tm = tx = 0
    for log in sorted(os.listdir(CAPS)):
        if not log.endswith('.log'): continue
        out = subprocess.run([a.bin, 'decode', os.path.join(CAPS, log)], capture_output=True, text=True).stdout
        ours = {}
        for l in out.splitlines():
            f = json.loads(l)
            if f['time']: ours[f['time']] = f
        g = gpsd_epochs(os.path.join(CAPS, log + '.chk'))
        matched = 0; bad = []
        for t, r in g.items():
            if t not in ours: bad.append((t, 'missing')); continue
            p = compare(ours[t], r)
            if p: bad.append((t, ','.join(p)))
            else: matched += 1
        extra = [t for t in ours if t not in g]
        te += len(g); tm += matched; tx += len(extra)
        if bad or extra or log == a.verbose:
            print('%-28s expected %4d matched %4d missing/diff %3d extra %3d  %s' % (log, len(g), matched, len(bad), len(extra), bad[:3]))
            if log == a.verbose:
                for b in bad: print('   ', b)
                for e in extra: print('    extra', e)
    print('TOTAL expected %d matched %d (%.2f%%) extra %d' % (te, tm, 100.0 * tm / max(te, 1), tx))
main()
