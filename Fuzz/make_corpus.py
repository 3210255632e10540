#!/usr/bin/env python3
"""Writes the committed seed corpus (Fuzz/corpus/): short windows cut from the gpsd captures,
three per sentence type, plus hand-made damage cases (junk, binary, ANSI, glued, over-long).
Deterministic; rerun only to change the seeds:  python3 Fuzz/make_corpus.py [CAPTURES_DIR]"""
import glob, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
CAPS = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, '..', '..', 'shared', 'captures', 'gpsd')
OUT = os.path.join(HERE, 'corpus')
TYPES = ['GGA', 'RMC', 'GLL', 'GNS', 'GSA', 'GSV', 'GST', 'VTG', 'ZDA', 'TXT', 'PROP', 'AIS']
WINDOW = 12   # lines: about one receiver cycle, so fix assembly runs on every seed

def kind(line):
    if line.startswith(b'!'): return 'AIS'
    if line.startswith(b'$P'): return 'PROP'
    m = re.match(rb'\$[A-Z0-9]{2}([A-Z]{3})', line)
    return m.group(1).decode() if m else None

def main():
    os.makedirs(OUT, exist_ok=True)
    for old in glob.glob(os.path.join(OUT, '*')): os.remove(old)
    logs = sorted(glob.glob(os.path.join(CAPS, '*.log')))
    for t in TYPES:
        taken = 0
        for log in logs:
            lines = [l for l in open(log, 'rb').read().splitlines(keepends=True)]
            hits = [i for i, l in enumerate(lines) if kind(l) == t]
            if not hits: continue
            i = hits[len(hits) // 2]
            window = b''.join(lines[max(0, i - WINDOW // 2): i + WINDOW // 2])
            with open(os.path.join(OUT, '%s-%s' % (t.lower(), os.path.basename(log)[:-4])), 'wb') as f:
                f.write(window)
            taken += 1
            if taken == 3: break
    gga = b'$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47'
    rmc = b'$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A'
    cases = {
        'glued-r-dollar': b'r' + rmc + b'\r\n$$GNGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1*39\r\n',
        'cut-by-dollar': gga[:30] + rmc + b'\r\n',
        'nul-inside': gga[:20] + b'\x00' + gga[20:] + b'\r\n' + rmc + b'\r\n',
        'ansi-escapes': b'\x1b[2J\x1b[1;32m' + gga + b'\x1b[0m\r\n' + rmc + b'\r\n',
        'binary-noise': bytes(range(256)) + b'\r\n' + gga + b'\r\n' + bytes((i * 37) & 255 for i in range(200)),
        'overlong': b'$GPGSV,' + b'1,' * 70 + b'*00\r\n' + gga + b'\r\n',
        'no-checksum': gga[:-3] + b'\r\n' + rmc[:-3] + b'\n',
        'lowercase-checksum': b'$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K*48\r\n$GPZDA,201530.00,04,07,2002,00,00*60\r\n',
        'bad-checksum': gga[:-2] + b'00\r\n' + rmc + b'\r\n',
        'comment-lines': b'# a comment $GPGGA,not,a,sentence\r\n' + gga + b'\r\n#\r\n' + rmc + b'\r\n',
        'cr-only-lf-only': gga + b'\r' + rmc + b'\n' + gga + b'\n\r',
        'star-garbage': b'$GPGGA,1*2*3\r\n$*\r\n$\r\n!\r\n$GP*ZZ\r\n$,,,,\r\n',
        'no-fix-epoch': b'$GPRMC,000001,V,,,,,,,010100,,,N*4B\r\n$GPGGA,000001,,,,,0,00,99.99,,,,,,*4B\r\n',
        'midnight-wrap': b'$GPRMC,235959,A,4807.038,N,01131.000,E,0,0,311299,,*0B\r\n'
                         b'$GPGGA,000000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*4F\r\n',
        'zero-zero': b'$GPGGA,123519,0000.000,N,00000.000,E,1,08,0.9,545.4,M,46.9,M,,*46\r\n',
        'empty': b'',
    }
    for name, data in cases.items():
        with open(os.path.join(OUT, 'case-' + name), 'wb') as f: f.write(data)

main()
