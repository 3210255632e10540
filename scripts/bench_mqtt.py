#!/usr/bin/env python3
"""MQTT delivery benchmark (docs/performance.md, "MQTT"): a real mosquitto on 127.0.0.1, the real
binary, QoS 1.

1. Throughput from the outbox: a replay at --speed max of a synthetic drive through FENCES small
   circle fences (an enter and an exit each) fills the outbox much faster than it drains; events/s
   is the number of events over the span of their `delivered_at` stamps in the state file (each
   stamped on its PUBACK).
2. Added latency per event: a live `run` fed by `gpsfence simulate` on a pseudo-terminal (one
   event every ~0.25 s); for each event, the time `mosquitto_sub` receives it minus the time
   gpsfence printed it (`--json`, flushed per event in a live run): commit, outbox read, publish,
   broker, subscriber.

    scripts/bench_mqtt.py [BINARY] [--fences N] [--live-fences N]
"""
import argparse
import math
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

parser = argparse.ArgumentParser()
parser.add_argument("binary", nargs="?", default=".build/release/gpsfence")
parser.add_argument("--fences", type=int, default=2000)
parser.add_argument("--live-fences", type=int, default=100)
args = parser.parse_args()
binary = os.path.abspath(args.binary)
work = tempfile.mkdtemp(prefix="gpsfence-mqtt-bench-")

LAT, LON0 = 47.0, 8.0
METRES_PER_DEGREE_LON = 6_371_008.8 * math.pi / 180 * math.cos(math.radians(LAT))


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def fences_file(path, count, spacing, radius):
    features = []
    for i in range(count):
        lon = LON0 + (i + 1) * spacing / METRES_PER_DEGREE_LON
        features.append('{"type":"Feature","id":"f%d","geometry":{"type":"Point","coordinates":[%.7f,%.7f]},'
                        '"properties":{"radius":%d}}' % (i, lon, LAT, radius))
    with open(path, "w") as f:
        f.write('{"type":"FeatureCollection","features":[%s]}' % ",".join(features))


def checksum(body):
    value = 0
    for c in body.encode():
        value ^= c
    return "%02X" % value


def nmea_capture(path, metres, speed):
    """GGA + RMC at 1 Hz due east along LAT from LON0."""
    lines = []
    seconds = int(metres / speed) + 5
    for t in range(seconds):
        lon = LON0 + t * speed / METRES_PER_DEGREE_LON
        hh, mm, ss = 10 + t // 3600, (t // 60) % 60, t % 60
        stamp = "%02d%02d%02d.00" % (hh, mm, ss)
        lat_text = "%02d%07.4f,N" % (int(LAT), (LAT - int(LAT)) * 60)
        lon_text = "%03d%07.4f,E" % (int(lon), (lon - int(lon)) * 60)
        for body in ("GPGGA,%s,%s,%s,1,08,0.9,250.0,M,0.0,M,," % (stamp, lat_text, lon_text),
                     "GPRMC,%s,A,%s,%s,%.1f,90.0,030226,,,A" % (stamp, lat_text, lon_text, speed * 1.943844)):
            lines.append("$%s*%s\r\n" % (body, checksum(body)))
    with open(path, "w") as f:
        f.writelines(lines)


def start_broker():
    port = free_port()
    config = os.path.join(work, "mosquitto.conf")
    with open(config, "w") as f:
        f.write("listener %d 127.0.0.1\nallow_anonymous true\nuser root\nlog_dest none\n" % port)
    broker = subprocess.Popen(["/usr/sbin/mosquitto", "-c", config], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return broker, port
        except OSError:
            time.sleep(0.05)
    sys.exit("mosquitto did not start")


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


broker, port = start_broker()
try:
    # 1. Throughput.
    fences = os.path.join(work, "fences.geojson")
    capture = os.path.join(work, "drive.nmea")
    state = os.path.join(work, "state.sqlite")
    fences_file(fences, args.fences, spacing=250, radius=60)
    nmea_capture(capture, metres=(args.fences + 1) * 250, speed=50)
    started = time.monotonic()
    subprocess.run([binary, "replay", capture, "--fences", fences, "--json", "--state", state,
                    "--mqtt", "mqtt://127.0.0.1:%d/bench" % port], stdout=subprocess.DEVNULL, check=True)
    wall = time.monotonic() - started
    db = sqlite3.connect(state)
    count, first, last, pending = db.execute(
        "SELECT COUNT(delivered_at), MIN(delivered_at), MAX(delivered_at), SUM(delivered_at IS NULL) FROM outbox").fetchone()
    rate = (count - 1) / ((last - first) / 1000) if last > first else float("inf")
    print("throughput: %d events delivered at QoS 1 in %.2f s of PUBACKs: %.0f events/s (replay wall %.2f s, %d left)"
          % (count, (last - first) / 1000, rate, wall, pending or 0))

    # 2. Latency in a live run.
    live_fences = os.path.join(work, "live.geojson")
    fences_file(live_fences, args.live_fences, spacing=250, radius=60)
    route = os.path.join(work, "route.geojson")
    end = LON0 + (args.live_fences + 1) * 250 / METRES_PER_DEGREE_LON
    with open(route, "w") as f:
        f.write('{"type":"Feature","geometry":{"type":"LineString","coordinates":[[%.7f,%.7f],[%.7f,%.7f]]},"properties":{}}'
                % (LON0, LAT, end, LAT))
    received = {}
    sub = subprocess.Popen(["mosquitto_sub", "-p", str(port), "-q", "1", "-t", "live/event", "-F", "%U %p"],
                           stdout=subprocess.PIPE, text=True)

    def collect():
        for line in sub.stdout:
            stamp, _, payload = line.partition(" ")
            key = payload.split('"id":"', 1)[1][:16] if '"id":"' in payload else None
            if key and key not in received:
                received[key] = float(stamp)

    threading.Thread(target=collect, daemon=True).start()
    time.sleep(0.5)
    link = os.path.join(work, "gps0")
    simulator = subprocess.Popen([binary, "simulate", route, "--baud", "115200", "--rate", "10", "--speed", "1000",
                                  "--link", link, "--start", "2026-02-03T10:15:00Z"], stdout=subprocess.PIPE, text=True)
    simulator.stdout.readline()
    run = subprocess.Popen([binary, "run", "--device", link, "--baud", "115200", "--fences", live_fences, "--json",
                            "--state", os.path.join(work, "live.sqlite"), "--mqtt", "mqtt://127.0.0.1:%d/live" % port],
                           stdout=subprocess.PIPE, text=True)
    printed = {}

    def read_run():
        for line in run.stdout:
            if '"id":"' in line:
                printed[line.split('"id":"', 1)[1][:16]] = time.time()

    threading.Thread(target=read_run, daemon=True).start()
    simulator.wait()
    time.sleep(3)
    run.send_signal(signal.SIGINT)
    run.wait(timeout=30)
    sub.kill()
    latencies = [(received[k] - printed[k]) * 1000 for k in printed if k in received]
    if latencies:
        print("latency: %d events, print -> subscriber p50 %.2f ms, p99 %.2f ms, max %.2f ms"
              % (len(latencies), percentile(latencies, 50), percentile(latencies, 99), max(latencies)))
    missing = [k for k in printed if k not in received]
    if missing:
        print("not received: %d" % len(missing))
finally:
    broker.terminate()
    broker.wait()
