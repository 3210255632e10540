#!/usr/bin/env python3
"""Vehicles per broker node (docs/fleet.md, docs/performance.md "A fleet on one broker"): N real
gpsfence vehicles, each `gpsfence simulate` at 1 Hz into `gpsfence run --mqtt` with a state file of
its own, against one real mosquitto on 127.0.0.1; N grows until the events lag or the machine's
CPU is spent.

Each vehicle drives a 1 km road and back at 40 m/s past 8 circles of 25 m, 100 m apart (about
0.8 events a second), and publishes its retained location every fix (--mqtt-location-interval 0),
so one vehicle is about 1.8 messages a second. For each N, after a warm-up, over --seconds:
- the delay of each event from the moment its run printed it (`--json`, after the commit) to its
  arrival at a QoS 1 subscriber of `bench/+/event` (p50, p99): the WAL's sync, the outbox, the
  publish, the PUBACK's wait of the event before it, the broker, the subscriber;
- CPU seconds per second of mosquitto, of the runs together and of the simulators together
  (/proc/PID/stat), the machine's busy share (/proc/stat), and the runs' mean resident memory.
- the events printed in the window and not arrived 5 s after it.
With --broker nats the broker is a 3-node NATS cluster on 127.0.0.1 (scripts/nats-server.sh: JetStream
and the MQTT listener on each node, routes on loopback), each vehicle given the three nodes starting
at a different one, the subscriber on the third node; the broker CPU is the three nodes together.
N "is carried" while every event arrives and the p99 delay stays under 1 s. The machine's busy
share says what else ran: on a machine shared with other work the runs' CPU share is the figure
to scale by.

    scripts/bench_fleet.py [BINARY] [--counts 10,20,40,80] [--seconds 30] [--broker mosquitto|nats]
"""
import argparse
import json
import math
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime, timezone

parser = argparse.ArgumentParser()
parser.add_argument("binary", nargs="?", default=".build/release/gpsfence")
parser.add_argument("--counts", default="10,20,40,80")
parser.add_argument("--seconds", type=float, default=30)
parser.add_argument("--warmup", type=float, default=10)
parser.add_argument("--broker", choices=["mosquitto", "nats"], default="mosquitto")
args = parser.parse_args()
binary = os.path.abspath(args.binary)
work = tempfile.mkdtemp(prefix="gpsfence-fleet-bench-")
TICKS = os.sysconf("SC_CLK_TCK")

LAT, LON = 47.0, 8.0
METRE = 1 / (6_371_008.8 * math.pi / 180 * math.cos(math.radians(LAT)))


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def write_files():
    circles = ['{"type":"Feature","id":"f%d","geometry":{"type":"Point","coordinates":[%.7f,%.7f]},'
               '"properties":{"radius":25}}' % (i, LON + (i * 100 - 350) * METRE, LAT) for i in range(8)]
    fences = os.path.join(work, "fences.geojson")
    with open(fences, "w") as f:
        f.write('{"type":"FeatureCollection","features":[%s]}' % ",".join(circles))
    road = os.path.join(work, "road.geojson")
    west, east = LON - 500 * METRE, LON + 500 * METRE
    with open(road, "w") as f:
        f.write('{"type":"Feature","geometry":{"type":"LineString","coordinates":[[%.7f,%.7f],[%.7f,%.7f],[%.7f,%.7f]]},'
                '"properties":{}}' % (west, LAT, east, LAT, west, LAT))
    return fences, road


def cpu_seconds(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS
    except OSError:
        return 0.0


def resident_mb(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def machine_busy():
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    idle = values[3] + values[4]
    return sum(values), idle


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def wait_listening(port, seconds=20):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    sys.exit("no broker on port %d" % port)


def start_mosquitto(folder):
    """One mosquitto; returns its processes and its MQTT ports."""
    port = free_port()
    config = os.path.join(folder, "mosquitto.conf")
    with open(config, "w") as f:
        f.write("listener %d 127.0.0.1\nallow_anonymous true\nuser root\nlog_dest none\nmax_queued_messages 100000\n"
                % port)
    broker = subprocess.Popen(["/usr/sbin/mosquitto", "-c", config], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    wait_listening(port)
    return [broker], [port]


def start_nats(folder):
    """A 3-node NATS cluster; returns its processes and its MQTT ports once JetStream answers."""
    server = subprocess.run(["sh", os.path.join(os.path.dirname(__file__), "nats-server.sh")], check=True,
                            stdout=subprocess.PIPE, text=True).stdout.strip()
    routes = [free_port() for _ in range(3)]
    ports = [free_port() for _ in range(3)]
    processes = []
    for index in range(3):
        config = os.path.join(folder, "n%d.conf" % index)
        with open(config, "w") as f:
            f.write('server_name: n%d\nlisten: 127.0.0.1:%d\njetstream { store_dir: "%s/n%d-js" }\n'
                    'cluster { name: bench, listen: 127.0.0.1:%d, routes: [%s] }\nmqtt { listen: 127.0.0.1:%d }\n'
                    % (index, free_port(), folder, index, routes[index],
                       ", ".join("nats-route://127.0.0.1:%d" % r for r in routes), ports[index]))
        processes.append(subprocess.Popen([server, "-c", config], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    for port in ports:
        wait_listening(port)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        published = subprocess.run(["mosquitto_pub", "-p", str(ports[0]), "-q", "1", "-r", "-t", "probe", "-m", "x"],
                                   stderr=subprocess.DEVNULL).returncode == 0
        if published and all(subprocess.run(["mosquitto_sub", "-p", str(p), "-t", "probe", "-C", "1", "-W", "3"],
                                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).returncode == 0
                             for p in ports):
            return processes, ports
    sys.exit("the NATS cluster did not get ready")


def measure(count, fences, road):
    folder = tempfile.mkdtemp(prefix="n%d-" % count, dir=work)
    brokers, ports = (start_nats if args.broker == "nats" else start_mosquitto)(folder)
    arrivals = {}
    subscriber = subprocess.Popen(["mosquitto_sub", "-p", str(ports[-1]), "-q", "1", "-t", "bench/+/event", "-F",
                                   "%U %t %p"], stdout=subprocess.PIPE, text=True)

    def collect():
        for line in subscriber.stdout:
            stamp, topic, payload = line.split(" ", 2)
            try:
                event = json.loads(payload)
            except ValueError:
                continue
            arrivals.setdefault((topic, event["id"]), float(stamp))

    threading.Thread(target=collect, daemon=True).start()
    printed = {}

    def read_printed(run, topic):
        for line in run.stdout:
            try:
                printed[(topic, json.loads(line)["id"])] = time.time()
            except (ValueError, KeyError):
                pass

    time.sleep(0.5)
    vehicles = []
    for index in range(count):
        link = os.path.join(folder, "gps%d" % index)
        start = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")[:-4] + "Z"
        simulator = subprocess.Popen([binary, "simulate", road, "--baud", "9600", "--rate", "1", "--speed", "40",
                                      "--loop", "--link", link, "--start", start],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        simulator.stdout.readline()
        run = subprocess.Popen([binary, "run", "--device", link, "--baud", "9600", "--fences", fences, "--json",
                                "--stale", "30", "--state", os.path.join(folder, "state%d.sqlite" % index),
                                "--mqtt", "mqtt://%s/bench/van-%d" % (",".join(
                                    "127.0.0.1:%d" % ports[(index + k) % len(ports)] for k in range(len(ports))), index),
                                "--mqtt-location-interval", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        threading.Thread(target=read_printed, args=(run, "bench/van-%d/event" % index), daemon=True).start()
        vehicles.append((simulator, run))
    time.sleep(args.warmup)

    def sample():
        return (sum(cpu_seconds(b.pid) for b in brokers), sum(cpu_seconds(r.pid) for _, r in vehicles),
                sum(cpu_seconds(s.pid) for s, _ in vehicles), machine_busy(), time.time())

    before = sample()
    time.sleep(args.seconds)
    after = sample()
    memory = sum(resident_mb(r.pid) for _, r in vehicles) / count
    window = (before[4], after[4])
    time.sleep(5)
    for simulator, run in vehicles:
        simulator.send_signal(signal.SIGINT)
        run.send_signal(signal.SIGINT)
    for simulator, run in vehicles:
        for process in (simulator, run):
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
    subscriber.kill()
    for broker in brokers:
        broker.terminate()
        broker.wait()

    # Events printed in the window; one not arrived by the end (the runs were stopped 5 s after the
    # window) counts as undelivered: more than 5 s late.
    keys = [key for key, stamp in list(printed.items()) if window[0] <= stamp <= window[1]]
    in_window = [(arrivals[key] - printed[key]) * 1000 for key in keys if key in arrivals]
    undelivered = sum(1 for key in keys if key not in arrivals)
    span = after[4] - before[4]
    total, idle = after[3][0] - before[3][0], after[3][1] - before[3][1]
    return {
        "vehicles": count,
        "events": len(in_window),
        "events_per_s": len(in_window) / span,
        "p50_ms": percentile(in_window, 50) if in_window else float("nan"),
        "p99_ms": percentile(in_window, 99) if in_window else float("nan"),
        "broker_cpu": (after[0] - before[0]) / span,
        "runs_cpu": (after[1] - before[1]) / span,
        "simulators_cpu": (after[2] - before[2]) / span,
        "machine_busy": 1 - idle / total if total else float("nan"),
        "run_rss_mb": memory,
        "undelivered": undelivered,
    }


fences, road = write_files()
print("vehicles events/s  p50 ms  p99 ms  %9s CPU  runs CPU (per vehicle)  simulators CPU  machine busy  run RSS"
      "  undelivered" % args.broker)
for count in [int(n) for n in args.counts.split(",")]:
    r = measure(count, fences, road)
    print("%8d %8.1f %7.1f %7.1f %13.1f%% %8.1f%% (%.2f%%) %14.1f%% %12.0f%% %6.1f MB %12d"
          % (r["vehicles"], r["events_per_s"], r["p50_ms"], r["p99_ms"], r["broker_cpu"] * 100, r["runs_cpu"] * 100,
             r["runs_cpu"] * 100 / count, r["simulators_cpu"] * 100, r["machine_busy"] * 100, r["run_rss_mb"],
             r["undelivered"]))
    sys.stdout.flush()
    if not r["p99_ms"] < 1000 or r["undelivered"] > 0:
        print("stop: the events lag")
        break
