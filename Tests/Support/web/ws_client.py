"""WebSocket clients of `run --web`'s `GET /ws` for Tests/EndToEndTests/WebSocketTests.swift, with
the `websockets` library (Debian's python3-websockets, run by /usr/bin/python3).

    ws_client.py URL [--clients N] [--positions K] [--seconds S] [--origin O] [--password P]

Opens N connections at once (each with `Origin: O` and HTTP basic `any:P` when given), reads the live
frames of each until it has seen K different positions (`fix` lat/lon), or for S seconds when
--seconds is given, and prints one JSON line:

    {"refused": null, "clients": [{"frames": F, "positions": K, "first": {...}}, ...]}

`refused` is the HTTP status of an upgrade the server refused (then no client list), `error` what
else went wrong. The exit status is 0 whenever that line was printed.
"""
import argparse
import asyncio
import base64
import inspect
import json
import sys
import time

import websockets


def refused_status(error):
    """The HTTP status in `websockets`' refusal (InvalidStatusCode up to 13, InvalidStatus after)."""
    if getattr(error, 'status_code', None) is not None:
        return error.status_code
    response = getattr(error, 'response', None)
    return getattr(response, 'status_code', None)


def connect(url, headers, origin):
    """`websockets.connect` with extra request headers, by the name its version gives them."""
    parameters = inspect.signature(websockets.connect).parameters
    name = 'additional_headers' if 'additional_headers' in parameters else 'extra_headers'
    return websockets.connect(url, origin=origin, open_timeout=20, **{name: headers})


async def client(url, headers, origin, positions, seconds, deadline):
    seen = set()
    frames = 0
    first = None
    async with connect(url, headers, origin) as socket:
        stop = time.monotonic() + seconds if seconds else deadline
        while time.monotonic() < stop and (seconds or len(seen) < positions):
            try:
                text = await asyncio.wait_for(socket.recv(), timeout=max(0.01, stop - time.monotonic()))
            except asyncio.TimeoutError:
                break
            frames += 1
            live = json.loads(text)
            if first is None:
                first = live
            fix = live.get('fix')
            if fix:
                seen.add((fix['lat'], fix['lon']))
    return {'frames': frames, 'positions': len(seen), 'first': first}


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('url')
    parser.add_argument('--clients', type=int, default=1)
    parser.add_argument('--positions', type=int, default=1)
    parser.add_argument('--seconds', type=float, default=0)
    parser.add_argument('--timeout', type=float, default=60)
    parser.add_argument('--origin')
    parser.add_argument('--password')
    args = parser.parse_args()
    headers = {}
    if args.password is not None:
        headers['Authorization'] = 'Basic ' + base64.b64encode(('skipper:' + args.password).encode()).decode()
    deadline = time.monotonic() + args.timeout
    try:
        results = await asyncio.gather(*[
            client(args.url, headers, args.origin, args.positions, args.seconds, deadline)
            for _ in range(args.clients)])
        print(json.dumps({'refused': None, 'clients': results}))
    except Exception as error:  # the refusal, or what else went wrong, said on the one line
        status = refused_status(error)
        print(json.dumps({'refused': status, 'error': None if status else '%s: %s' % (type(error).__name__, error)}))


if __name__ == '__main__':
    asyncio.run(main())
    sys.stdout.flush()
