"""A receiver on a pseudo-terminal: writes an NMEA file's cycles (each starting at a GGA) one a
second, in real time, to the terminal linked at LINK, then keeps it open until killed.

usage: nmea_pty.py LINK FILE
Prints "ready" once the link exists.
"""
import os
import pty
import signal
import sys
import time
import tty


def main():
    # The test process blocks signals in its threads, and a child inherits the mask: without
    # this, the test's SIGTERM would never end it.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    link, path = sys.argv[1], sys.argv[2]
    master, slave = pty.openpty()
    tty.setraw(slave)
    os.symlink(os.ttyname(slave), link)
    cycles = []
    for line in open(path, "rb").read().split(b"\r\n"):
        if not line:
            continue
        if line.startswith(b"$GPGGA") or not cycles:
            cycles.append([])
        cycles[-1].append(line + b"\r\n")
    print("ready", flush=True)
    start = time.monotonic()
    for index, cycle in enumerate(cycles):
        time.sleep(max(0.0, start + index - time.monotonic()))
        os.write(master, b"".join(cycle))
    while True:
        time.sleep(60)


main()
