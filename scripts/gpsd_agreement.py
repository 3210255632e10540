#!/usr/bin/env python3
"""Compare `gpsfence decode` with gpsd's decoding of its regression captures (development aid;
the authoritative check is Tests/NMEATests/GpsdAgreementTests.swift, which applies the same rules).

    python3 scripts/gpsd_agreement.py [--bin .build/debug/gpsfence] [--verbose LOG]
"""
import argparse, datetime, json, os, subprocess, sys
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

def compare(ours, g, derived):
    problems = []
    if abs(ours['lat'] - g['lat']) > 1e-6 or abs(ours['lon'] - g['lon']) > 1e-6: problems.append('pos')
    if ours['mode'] != g['mode']: problems.append('mode %s/%s' % (ours['mode'], g['mode']))
    galt = g.get('altMSL', g.get('alt'))
    if (galt is None) != (ours['alt'] is None) or (galt is not None and abs(galt - ours['alt']) > 1e-3):
        problems.append('alt %s/%s' % (ours['alt'], galt))
    for k, tol in (('speed', 1e-3), ('track', 1e-3)):
        a, b = ours[k], g.get(k)
        if a is None and b is not None:
            derived.append(k)   # the receiver sent none: gpsd's own estimate
        elif (a is None) != (b is None) or (a is not None and abs(a - b) > tol):
            problems.append('%s %s/%s' % (k, a, b))
    return problems

WEEKS_1024 = datetime.timedelta(weeks=1024)

def shifted(t, delta):
    d = datetime.datetime.strptime(t, '%Y-%m-%dT%H:%M:%S.%fZ') + delta
    return d.strftime('%Y-%m-%dT%H:%M:%S.') + '%03dZ' % (d.microsecond // 1000)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', default=os.path.join(HERE, '..', '.build', 'debug', 'gpsfence'))
    ap.add_argument('--verbose', default=None)
    a = ap.parse_args()
    tot = dict(expected=0, matched=0, rollover=0, derived=0, extra=0)
    for log in sorted(os.listdir(CAPS)):
        if not log.endswith('.log'): continue
        out = subprocess.run([a.bin, 'decode', os.path.join(CAPS, log)], capture_output=True, text=True).stdout
        ours = {}
        for l in out.splitlines():
            f = json.loads(l)
            if f['time']: ours[f['time']] = f
        g = gpsd_epochs(os.path.join(CAPS, log + '.chk'))
        matched = rollover = derived_n = 0; bad = []; used = set()
        for t, r in g.items():
            key = t
            if t not in ours:
                # gpsd and we disagree on the GPS week era: same fix, dates 1024 weeks apart.
                key = next((k for k in (shifted(t, WEEKS_1024), shifted(t, -WEEKS_1024)) if k in ours), None)
                if key is None: bad.append((t, 'missing')); continue
            used.add(key)
            derived = []
            p = compare(ours[key], r, derived)
            if p: bad.append((t, ','.join(p))); continue
            matched += 1
            if key != t: rollover += 1
            if derived: derived_n += 1
        extra = [t for t in ours if t not in g and t not in used]
        for k, v in (('expected', len(g)), ('matched', matched), ('rollover', rollover), ('derived', derived_n), ('extra', len(extra))):
            tot[k] += v
        if bad or extra or rollover or log == a.verbose:
            print('%-26s expected %4d matched %4d (rollover %2d, gpsd-derived %2d) missing/diff %3d extra %3d  %s' % (
                log, len(g), matched, rollover, derived_n, len(bad), len(extra), bad[:2]))
            if log == a.verbose:
                for b in bad: print('   ', b)
                for e in extra: print('    extra', e)
    print('TOTAL expected %(expected)d matched %(matched)d' % tot,
          '(%.2f%%; of which dates 1024 weeks apart %d, speed/track only gpsd-derived %d) extra %d' % (
          100.0 * tot['matched'] / max(tot['expected'], 1), tot['rollover'], tot['derived'], tot['extra']))
main()
