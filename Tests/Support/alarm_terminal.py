#!/usr/bin/env python3
"""Runs `gpsfence run --alarm ...` on a pseudo-terminal that is its controlling terminal, as a
skipper would, and answers the alarm.

    alarm_terminal.py MODE GPSFENCE run ARG...

Once the run prints its `alarm` event, the BEL bytes the terminal receives are counted for four
seconds; then, by MODE:
    enter     Enter is typed on the terminal
    command   `GPSFENCE ack --state STATE` runs from another process (and once more afterwards)
    restart   the run is killed (SIGKILL) and started again on a new terminal, which must ring at
              once; then Enter is typed there
    worse     Enter is typed, then the run must sound again by itself (the boat drags on)
    mqtt=PORT=PREFIX  the retained PREFIX/alarm is read, then `ack` published to PREFIX/alarm/set
              on the mosquitto at 127.0.0.1:PORT
    retained=PORT=PREFIX  a retained `ack` is left on PREFIX/alarm/set before the run starts; the
              run is killed and started again as in `restart` (its new subscription gets the
              retained ack while the alarm sounds), then answered as in `mqtt`
and the BEL bytes of the four seconds after the answer are counted. Prints one JSON object.
"""
import json
import os
import pty
import select
import signal
import subprocess
import sys
import time


class Terminal:
    def __init__(self, argv):
        self.pid, self.master = pty.fork()
        if self.pid == 0:
            os.execv(argv[0], argv)
        self.output = b""

    def read_for(self, seconds, needle=None):
        """Reads for `seconds` (or until `needle` is in what was read since the call); returns
        what was read and when the needle was seen (None if not)."""
        start = len(self.output)
        began = time.time()
        deadline = began + seconds
        while time.time() < deadline:
            if needle is not None and needle in self.output[start:]:
                return self.output[start:], time.time() - began
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if not ready:
                continue
            try:
                chunk = os.read(self.master, 4096)
            except OSError:
                break
            if not chunk:
                break
            self.output += chunk
        seen = needle is not None and needle in self.output[start:]
        return self.output[start:], (time.time() - began) if seen else None

    def type(self, text):
        os.write(self.master, text)

    def stop(self, sig=signal.SIGTERM):
        try:
            os.kill(self.pid, sig)
        except ProcessLookupError:
            pass
        deadline = time.time() + 15
        while time.time() < deadline:
            self.read_for(0.1)
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                os.close(self.master)
                return os.WEXITSTATUS(status) if os.WIFEXITED(status) else -os.WTERMSIG(status)
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.master)
        return None

    def types(self):
        found = []
        for line in self.output.replace(b"\x07", b"").decode(errors="replace").splitlines():
            try:
                found.append(json.loads(line.strip()).get("type"))
            except ValueError:
                pass
        return found


def main():
    mode, argv = sys.argv[1], sys.argv[2:]
    state = argv[argv.index("--state") + 1]
    result = {}
    if mode.startswith("retained="):
        _, port, prefix = mode.split("=", 2)
        subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", port, "-t", prefix + "/alarm/set", "-r",
                        "-m", "ack"], check=True, timeout=30)
    run = Terminal(argv)
    _, seen = run.read_for(90, b'"type":"alarm"')
    result["alarm"] = seen is not None
    if seen is None:
        result["exit"] = run.stop()
        result["types"] = run.types()
        print(json.dumps(result), flush=True)
        return
    before, _ = run.read_for(4)
    result["bells"] = before.count(b"\x07")
    if mode == "restart" or mode.startswith("retained="):
        run.stop(signal.SIGKILL)
        result["first_types"] = run.types()
        result["restarted_at"] = time.time()
        run = Terminal(argv)
        _, first_bell = run.read_for(30, b"\x07")
        result["restart_first_bell_seconds"] = first_bell
        if mode.startswith("retained="):
            # The refusal may come before the first bell, in what was read already.
            refusal = b"retained ack is ignored"
            refused = 0.0 if refusal in run.output else run.read_for(30, refusal)[1]
            result["retained_refused_after"] = refused
        again, _ = run.read_for(4)
        result["restart_bells"] = again.count(b"\x07")
        result["answered_before_the_answer"] = b"alarm_acknowledged" in run.output
        mode = "mqtt=" + mode.split("=", 1)[1] if mode.startswith("retained=") else "enter"
    if mode in ("enter", "worse"):
        run.type(b"\n")
    elif mode.startswith("mqtt="):
        _, port, prefix = mode.split("=", 2)
        retained = subprocess.run(["mosquitto_sub", "-h", "127.0.0.1", "-p", port, "-t", prefix + "/alarm",
                                   "-C", "1", "-W", "5"], capture_output=True, timeout=30)
        result["retained_before"] = retained.stdout.decode(errors="replace").strip()
        subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", port, "-t", prefix + "/alarm/set",
                        "-m", "ack"], check=True, timeout=30)
    else:
        started = time.time()
        ack = subprocess.run([argv[0], "ack", "--state", state], stdin=subprocess.DEVNULL,
                             capture_output=True, timeout=30)
        result["ack_exit"] = ack.returncode
        result["ack_output"] = (ack.stdout + ack.stderr).decode(errors="replace")
        result["ack_seconds"] = round(time.time() - started, 2)
    _, answered = run.read_for(10, b"alarm_acknowledged")
    result["acknowledged_after"] = answered
    if mode == "worse":
        _, again = run.read_for(40, b'"type":"alarm"')
        result["sounded_again_after"] = again
        rung, _ = run.read_for(4)
        result["bells_again"] = rung.count(b"\x07")
        result["exit"] = run.stop()
        result["types"] = run.types()
        print(json.dumps(result), flush=True)
        return
    # A bell already on its way when the answer came is not counted.
    run.read_for(0.3)
    after, _ = run.read_for(4)
    result["bells_after"] = after.count(b"\x07")
    if mode == "command":
        again = subprocess.run([argv[0], "ack", "--state", state], stdin=subprocess.DEVNULL,
                               capture_output=True, timeout=30)
        result["second_ack_exit"] = again.returncode
        result["second_ack_output"] = (again.stdout + again.stderr).decode(errors="replace")
    result["exit"] = run.stop()
    result["types"] = run.types()
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
