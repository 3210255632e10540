#!/usr/bin/env python3
"""Fence reload under load (docs/performance.md, "Fence reload"): the longest engine pause while
`run` swaps a million-fence file for another one, with fixes flowing.

A simulated receiver (gpsfence simulate, 10 Hz, on a pseudo-terminal) feeds `gpsfence run --json
--heartbeat 0.1`, so the engine prints one heartbeat line per fix. The fence file (1,000,000
circles) is replaced by rename with a second version (1,000 fences gone, 1,000 moved, one new
around the receiver). The figure is the longest wall-clock gap between two heartbeat lines from
the moment of the rename until the new set's `enter` line, against the longest gap in the same
time before it.

    python3 scripts/bench_fence_reload.py [--binary .build/release/gpsfence] [--fences 1000000]
"""
import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time

PARKED = (47.0, 8.0)


def write_fences(path, count, variant):
    rng = random.Random(1)
    with open(path + ".tmp", "w") as out:
        out.write('{"type":"FeatureCollection","features":[\n')
        first = True
        for index in range(count):
            lat = 46.0 + rng.random() * 2.0
            lon = 9.0 + rng.random() * 2.0  # east of the receiver: none contains it
            if variant == 1 and index % 1000 == 0:
                continue  # gone
            if variant == 1 and index % 1000 == 1:
                lat += 0.001  # moved
            if not first:
                out.write(",\n")
            first = False
            out.write('{"type":"Feature","id":"f%d","geometry":{"type":"Point","coordinates":[%.6f,%.6f]},'
                      '"properties":{"radius":100}}' % (index, lon, lat))
        if variant == 1:
            out.write(',\n{"type":"Feature","id":"here","geometry":{"type":"Point","coordinates":[%f,%f]},'
                      '"properties":{"radius":100}}' % (PARKED[1], PARKED[0]))
        out.write("\n]}\n")
    os.rename(path + ".tmp", path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/gpsfence")
    parser.add_argument("--fences", type=int, default=1_000_000)
    args = parser.parse_args()
    os.makedirs("bench-data", exist_ok=True)
    first = "bench-data/reload_%d_a.geojson" % args.fences
    second = "bench-data/reload_%d_b.geojson" % args.fences
    if not os.path.exists(first):
        write_fences(first, args.fences, 0)
    if not os.path.exists(second):
        write_fences(second, args.fences, 1)

    folder = tempfile.mkdtemp(prefix="gpsfence-reload-")
    live = os.path.join(folder, "fences.geojson")
    subprocess.run(["cp", first, live], check=True)
    route = os.path.join(folder, "parked.geojson")
    with open(route, "w") as out:
        out.write('{"type":"Feature","geometry":{"type":"LineString","coordinates":[[8.0,47.0],[8.00001,47.0]]},'
                  '"properties":{}}')
    link = os.path.join(folder, "gps0")
    simulator = subprocess.Popen([args.binary, "simulate", route, "--baud", "115200", "--rate", "10",
                                  "--speed", "0.5", "--loop", "--link", link],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    simulator.stdout.readline()
    run = subprocess.Popen([args.binary, "run", "--device", link, "--baud", "115200", "--fences", live,
                            "--state", os.path.join(folder, "state.sqlite"), "--json", "--heartbeat", "0.1"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    beats = []
    marks = {}

    def read():
        for line in run.stdout:
            now = time.monotonic()
            try:
                event = json.loads(line)
            except ValueError:
                continue
            kind = event.get("type")
            if kind == "heartbeat":
                beats.append(now)
            elif kind == "enter" and "entered" not in marks:
                marks["entered"] = now
            elif kind == "registered":
                marks.setdefault("registered", []).append(now)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    deadline = time.monotonic() + 300
    while len(beats) < 50 and time.monotonic() < deadline:
        time.sleep(0.1)
    if len(beats) < 50:
        sys.exit("no heartbeats: is the binary built, the simulator running?")
    time.sleep(5)
    swapped = time.monotonic()
    subprocess.run(["cp", second, live + ".new"], check=True)
    os.rename(live + ".new", live)
    while "entered" not in marks and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(2)
    run.send_signal(signal.SIGTERM)
    run.wait(timeout=60)
    simulator.send_signal(signal.SIGINT)
    simulator.wait(timeout=10)

    if "entered" not in marks:
        sys.exit("the new set never came in")
    window = marks["entered"] - swapped

    def longest_gap(start, end):
        inside = [t for t in beats if start <= t <= end]
        return max((b - a for a, b in zip(inside, inside[1:])), default=0.0)

    before = longest_gap(swapped - window - 1, swapped)
    during = longest_gap(swapped, marks["entered"] + 0.5)
    print("fences: %d; load and swap took %.2f s after the rename (debounce 0.5 s included)" % (args.fences, window))
    print("longest gap between fixes: %.0f ms during the reload, %.0f ms in as long before it" %
          (during * 1000, before * 1000))


if __name__ == "__main__":
    main()
