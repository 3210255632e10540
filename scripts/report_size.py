#!/usr/bin/env python3
"""Field report size on a large input (docs/report.md: a 10-hour 10 Hz capture gives a report under 5 MB).

Writes a synthetic 10-hour drive at 10 Hz (360,000 epochs of GGA + RMC: a vehicle wandering at
15 m/s with slowly varying HDOP, a 60 s loss of fix every hour) and a fence file with a fence on
the route every 10 minutes, runs `gpsfence report` on them, and prints the sizes and the time.

    python3 scripts/report_size.py [.build/release/gpsfence] [hours]
"""
import math, os, random, subprocess, sys, tempfile, time

binary = sys.argv[1] if len(sys.argv) > 1 else '.build/debug/gpsfence'
hours = float(sys.argv[2]) if len(sys.argv) > 2 else 10.0
rate = 10
R = 6371008.8
folder = tempfile.mkdtemp(prefix='gpsfence-report-size-')
capture = os.path.join(folder, 'drive.nmea')
fences_path = os.path.join(folder, 'fences.geojson')


def cs(body):
    x = 0
    for ch in body.encode():
        x ^= ch
    return '$%s*%02X\r\n' % (body, x)


def angle(value, width, pos, neg):
    hemi = pos if value >= 0 else neg
    value = abs(value)
    deg = int(value)
    return '%0*d%09.6f' % (width, deg, (value - deg) * 60), hemi


rnd = random.Random(5)
lat, lon, heading = 48.0, 11.0, 90.0
fences = []
epochs = int(hours * 3600 * rate)
with open(capture, 'w') as out:
    for n in range(epochs):
        t = n / rate
        heading = (heading + rnd.gauss(0, 0.8)) % 360
        step = 15.0 / rate
        lat += step * math.cos(math.radians(heading)) / R * 180 / math.pi
        lon += step * math.sin(math.radians(heading)) / R * 180 / math.pi / math.cos(math.radians(lat))
        secs = 36000 + t
        hh, mm, ss = int(secs // 3600) % 24, int(secs // 60) % 60, secs % 60
        day = 3 + int(secs // 86400)
        clock = '%02d%02d%06.3f' % (hh, mm, ss)
        if t % 3600 >= 1800 and t % 3600 < 1860:
            out.write(cs('GPGGA,%s,,,,,0,00,99.99,,M,,M,,' % clock))
            out.write(cs('GPRMC,%s,V,,,,,,,%02d0226,,,N' % (clock, day)))
            continue
        hdop = 0.8 + 0.6 * (1 + math.sin(t / 700)) + (3 if (t % 1200) < 30 else 0)
        la, ns = angle(lat, 2, 'N', 'S')
        lo, ew = angle(lon, 3, 'E', 'W')
        out.write(cs('GPGGA,%s,%s,%s,%s,%s,1,%02d,%.1f,520.0,M,47.0,M,,' % (clock, la, ns, lo, ew, 7 + n % 5, hdop)))
        out.write(cs('GPRMC,%s,A,%s,%s,%s,%s,%.2f,%.1f,%02d0226,,,A' % (clock, la, ns, lo, ew, 15 / 0.514444, heading, day)))
        if n % (600 * rate) == 300 * rate:
            fences.append('{"type":"Feature","id":"f%d","geometry":{"type":"Point","coordinates":[%.6f,%.6f]},'
                          '"properties":{"name":"Fence %d","radius":80}}' % (len(fences), lon, lat, len(fences)))
with open(fences_path, 'w') as fh:
    fh.write('{"type":"FeatureCollection","features":[%s]}\n' % ','.join(fences))

html = os.path.join(folder, 'report.html')
started = time.time()
result = subprocess.run(['/usr/bin/time', '-f', '%M', binary, 'report', capture, '--fences', fences_path, '--output', html,
                         '--geojson', os.path.join(folder, 'drive.geojson'), '--gpx', os.path.join(folder, 'drive.gpx')],
                        capture_output=True, text=True)
elapsed = time.time() - started
if result.returncode != 0:
    sys.exit(result.stderr)
events = open(html).read().count('data-event-type="')
print('capture   %7.1f MB  (%d epochs, %.1f h at %d Hz)' % (os.path.getsize(capture) / 1e6, epochs, hours, rate))
print('report    %7.2f MB  (%d event markers, %d fences)' % (os.path.getsize(html) / 1e6, events, len(fences)))
print('geojson   %7.1f MB' % (os.path.getsize(os.path.join(folder, 'drive.geojson')) / 1e6))
print('gpx       %7.1f MB' % (os.path.getsize(os.path.join(folder, 'drive.gpx')) / 1e6))
print('time      %7.1f s, peak memory %.0f MB' % (elapsed, int(result.stderr.strip().split('\n')[-1]) / 1024))
print(result.stderr.strip().split('\n')[0])
for name in ['drive.nmea', 'drive.geojson', 'drive.gpx']:
    os.unlink(os.path.join(folder, name))
print('report kept at', html)
