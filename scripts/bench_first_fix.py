#!/usr/bin/env python3
"""Time from open to the first usable fix, gpsfence beside gpsd, on simulated receivers.

For each baud rate and update rate, `gpsfence simulate ROUTE --baud B --rate HZ --loop` makes a
pseudo-terminal that behaves like a USB GPS (paced at B, garbled for a reader at another rate).
Then, on a fresh simulator each time:

- gpsfence: `gpsfence decode --device PTY --count 1` with an empty state folder (no remembered
  rate): the time from starting it to its first fix line (a fix with a position, which is what
  `run` would test against the fences), and to the line that says the rate it reads at (autobaud
  done).
- gpsd: `gpsd -N -n -b -S PORT PTY`, a client connected as soon as gpsd listens, WATCH enabled: the
  time from starting gpsd to its first TPV with mode >= 2.

Each tool is started a random time (0.2-1.2 s, the same for both tools in one repeat) after its
simulator, so that the repeats sample every phase of the receiver's cycle.

`--left-at B` first sets the line to another speed with `stty` (what a previous program or the
driver's default may leave), so that both have to hunt.

Usage: scripts/bench_first_fix.py [--binary .build/release/gpsfence] [--repeats 5]
       [--bauds 4800,9600,...] [--hz 1,10] [--left-at 9600] [--timeout 30] [--no-gpsd]
"""

import argparse
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROUTE = '{"type":"LineString","coordinates":[[-83.7519,42.2806],[-83.7400,42.2806],[-83.7400,42.2850]]}'
TIMEOUT = 30.0


def start_simulator(binary, route, baud, hz):
    process = subprocess.Popen(
        [binary, "simulate", route, "--baud", str(baud), "--rate", str(hz), "--loop"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    pty = process.stdout.readline().strip()
    if not pty.startswith("/dev/"):
        process.kill()
        sys.exit(f"simulate did not print a pseudo-terminal: {pty!r}")
    return process, pty


def stop(process):
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def gpsfence_first_fix(binary, pty):
    """Seconds from starting `decode --device` to its first fix line, and to its "reading PTY at
    B baud" line (the rate settled)."""
    with tempfile.TemporaryDirectory() as state:
        environment = dict(os.environ, XDG_STATE_HOME=state)
        started = time.monotonic()
        process = subprocess.Popen(
            [binary, "decode", "--device", pty, "--count", "1"], stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, env=environment)
        said = []

        def read_errors():
            for line in process.stderr:
                said.append((time.monotonic() - started, line.strip()))

        reader = threading.Thread(target=read_errors)
        reader.start()
        line = process.stdout.readline()
        seconds = time.monotonic() - started
        stop(process)
        reader.join()
        settled = next((at for at, text in said if " baud" in text and "reading" in text), None)
        note = " / ".join(text for _, text in said)
        try:
            fix = json.loads(line)
        except ValueError:
            return None, None, note
        if "lat" not in fix:
            return None, settled, f"first line has no position: {line.strip()}"
        return seconds, settled, note


def gpsd_first_fix(gpsd, pty, port):
    """Seconds from starting gpsd to its first TPV with mode >= 2."""
    started = time.monotonic()
    process = subprocess.Popen(
        [gpsd, "-N", "-n", "-b", "-S", str(port), pty], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        connection = None
        while connection is None:
            if time.monotonic() - started > TIMEOUT or process.poll() is not None:
                return None, "gpsd did not listen"
            try:
                connection = socket.create_connection(("127.0.0.1", port), timeout=0.5)
            except OSError:
                time.sleep(0.005)
        connection.sendall(b'?WATCH={"enable":true,"json":true}\n')
        connection.settimeout(0.5)
        pending = b""
        while time.monotonic() - started < TIMEOUT:
            try:
                chunk = connection.recv(65536)
            except socket.timeout:
                continue
            if not chunk:
                return None, "gpsd closed the connection"
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                try:
                    report = json.loads(line)
                except ValueError:
                    continue
                if report.get("class") == "TPV" and report.get("mode", 0) >= 2 and "lat" in report:
                    seconds = time.monotonic() - started
                    connection.close()
                    return seconds, ""
        return None, "no TPV with a fix in time"
    finally:
        stop(process)


def set_speed(pty, baud):
    subprocess.run(["stty", "-F", pty, str(baud)], check=True)


def describe(samples):
    good = [s for s in samples if s is not None]
    if not good:
        return "failed"
    text = f"{statistics.median(good):.2f} s"
    if len(good) > 1:
        text += f" ({min(good):.2f}-{max(good):.2f})"
    if len(good) < len(samples):
        text += f", {len(samples) - len(good)} failed"
    return text


def main():
    global TIMEOUT
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=".build/release/gpsfence")
    parser.add_argument("--gpsd", default=shutil.which("gpsd") or "/usr/sbin/gpsd")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds to wait for gpsd's fix")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bauds", default="4800,9600,38400,57600,115200,230400")
    parser.add_argument("--hz", default="1,10")
    parser.add_argument("--left-at", type=int, default=None,
                        help="set the line to this speed before each start (a hunt for both)")
    parser.add_argument("--no-gpsd", action="store_true")
    arguments = parser.parse_args()
    TIMEOUT = arguments.timeout
    phases = random.Random(arguments.seed)
    binary = os.path.abspath(arguments.binary)
    if not os.access(binary, os.X_OK):
        sys.exit(f"no gpsfence binary at {binary}: swift build -c release --product gpsfence")
    with_gpsd = not arguments.no_gpsd and os.access(arguments.gpsd, os.X_OK)
    if not with_gpsd and not arguments.no_gpsd:
        print("gpsd not found (apt-get install -y gpsd gpsd-clients): gpsfence only", file=sys.stderr)

    directory = tempfile.mkdtemp(prefix="bench-first-fix-")
    route = os.path.join(directory, "route.geojson")
    with open(route, "w") as handle:
        handle.write(ROUTE)
    port = 29470 + os.getpid() % 500

    rows = []
    for hz in [int(h) for h in arguments.hz.split(",")]:
        for baud in [int(b) for b in arguments.bauds.split(",")]:
            left_at = arguments.left_at
            if left_at == baud:
                left_at = 4800 if baud != 4800 else 9600
            results = {"gpsfence": [], "settled": [], "gpsd": []}
            for _ in range(arguments.repeats):
                delay = 0.2 + phases.random()
                tools = ["gpsfence"] + (["gpsd"] if with_gpsd else [])
                for tool in tools:
                    simulator, pty = start_simulator(binary, route, baud, hz)
                    try:
                        time.sleep(delay)
                        if left_at:
                            set_speed(pty, left_at)
                        if tool == "gpsfence":
                            seconds, settled, note = gpsfence_first_fix(binary, pty)
                            results["settled"].append(settled)
                        else:
                            port += 1
                            seconds, note = gpsd_first_fix(arguments.gpsd, pty, port)
                    finally:
                        stop(simulator)
                    if seconds is None:
                        print(f"{tool} at {baud} baud, {hz} Hz: {note}", file=sys.stderr)
                    results[tool].append(seconds)
            row = (baud, hz, left_at, describe(results["gpsfence"]), describe(results["settled"]),
                   describe(results["gpsd"]) if with_gpsd else "-")
            print(f"{baud:>6} baud {hz:>2} Hz: gpsfence {row[3]} (rate settled {row[4]}), gpsd {row[5]}",
                  file=sys.stderr, flush=True)
            rows.append(row)
    shutil.rmtree(directory, ignore_errors=True)

    left = f", line left at {arguments.left_at} baud (another rate when that is the receiver's)" \
        if arguments.left_at else ", line at the receiver's rate"
    print(f"First usable fix, median of {arguments.repeats} (min-max){left}:\n")
    print("| baud | rate | gpsfence: first fix | gpsfence: rate settled | gpsd: first TPV with a fix |")
    print("|---:|---:|---:|---:|---:|")
    for baud, hz, _, ours, settled, theirs in rows:
        print(f"| {baud} | {hz} Hz | {ours} | {settled} | {theirs} |")


if __name__ == "__main__":
    main()
