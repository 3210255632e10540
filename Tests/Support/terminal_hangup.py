#!/usr/bin/env python3
"""Runs a gpsfence command as a person or a service would, and sends it a hangup.

    terminal_hangup.py terminal GPSFENCE ARG...   on a pseudo-terminal that is its controlling
        terminal (pty.fork: a session of its own); once it prints device_connected, the terminal
        goes away (the master is closed, so the kernel sends SIGHUP to its processes)
    terminal_hangup.py service GPSFENCE ARG...    with no controlling terminal (setsid); once it
        prints device_connected, SIGHUP, then SIGTERM two seconds later

Prints one JSON object: whether it was ready, whether and how it stopped, in how many seconds,
and (service) the event types it printed.
"""
import json
import os
import pty
import select
import signal
import subprocess
import sys
import time


def wait_for(fd_or_pipe, needle, seconds, collected):
    deadline = time.time() + seconds
    while time.time() < deadline and needle not in collected[0]:
        ready, _, _ = select.select([fd_or_pipe], [], [], 0.5)
        if not ready:
            continue
        try:
            chunk = os.read(fd_or_pipe, 4096)
        except OSError:
            break
        if not chunk:
            break
        collected[0] += chunk
    return needle in collected[0]


def reap(pid, seconds):
    deadline = time.time() + seconds
    while time.time() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        time.sleep(0.05)
    return None


def outcome(status, started):
    if status is None:
        return {"stopped": False}
    return {
        "stopped": True,
        "exit": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
        "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
        "seconds": round(time.time() - started, 2),
    }


def terminal(argv):
    pid, master = pty.fork()
    if pid == 0:
        os.execv(argv[0], argv)
    collected = [b""]
    ready = wait_for(master, b"device_connected", 30, collected)
    started = time.time()
    os.close(master)
    status = reap(pid, 15)
    if status is None:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    return {"ready": ready, **outcome(status, started)}


def service(argv):
    child = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, start_new_session=True)
    collected = [b""]
    fd = child.stdout.fileno()
    ready = wait_for(fd, b"device_connected", 30, collected)
    child.send_signal(signal.SIGHUP)
    time.sleep(2)
    wait_for(fd, b"\x00never", 1, collected)
    alive_after_hangup = child.poll() is None
    started = time.time()
    child.send_signal(signal.SIGTERM)
    status = reap(child.pid, 15)
    if status is None:
        child.kill()
        child.wait()
    types = []
    for line in collected[0].decode(errors="replace").splitlines():
        try:
            types.append(json.loads(line).get("type"))
        except ValueError:
            pass
    return {"ready": ready, "alive_after_hangup": alive_after_hangup, "types": types, **outcome(status, started)}


if __name__ == "__main__":
    mode, argv = sys.argv[1], sys.argv[2:]
    print(json.dumps(terminal(argv) if mode == "terminal" else service(argv)), flush=True)
