#!/usr/bin/env python3
"""A real HTTP endpoint on 127.0.0.1 for the track sync tests. Logs every request as one JSON
line to LOG: method, path, query (name -> value), headers, body, and the status it answered.
Prints its port on the first line of stdout.

    sync_server.py LOG [--port P] [--down S] [--fail S] [--status-file F] [--delay S]

--down S: refuse connections (nothing listens) for the first S seconds, then listen on the
printed port. --fail S: once listening, answer 500 for S seconds, then 200. --status-file F: when
F exists, answer the status code it holds (the test switches the server by writing it).
--delay S: log each request as it arrives, then answer it S seconds later.
"""
import argparse
import http.server
import json
import os
import socket
import sys
import time
import urllib.parse

parser = argparse.ArgumentParser()
parser.add_argument('log')
parser.add_argument('--port', type=int, default=0)
parser.add_argument('--down', type=float, default=0)
parser.add_argument('--fail', type=float, default=0)
parser.add_argument('--status-file')
parser.add_argument('--delay', type=float, default=0)
options = parser.parse_args()

port = options.port
if port == 0:
    probe = socket.socket()
    probe.bind(('127.0.0.1', 0))
    port = probe.getsockname()[1]
    probe.close()
print(port, flush=True)
time.sleep(options.down)
up_since = time.monotonic()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'

    def answer(self):
        body = self.rfile.read(int(self.headers.get('Content-Length', 0)))
        status = 500 if time.monotonic() - up_since < options.fail else 200
        if options.status_file and os.path.exists(options.status_file):
            with open(options.status_file) as control:
                status = int(control.read().strip() or status)
        url = urllib.parse.urlsplit(self.path)
        record = {
            'method': self.command,
            'path': url.path,
            'query': dict(urllib.parse.parse_qsl(url.query, keep_blank_values=True)),
            'headers': {name.lower(): value for name, value in self.headers.items()},
            'body': body.decode('utf-8', 'replace'),
            'status': status,
        }
        with open(options.log, 'a') as log:
            log.write(json.dumps(record) + '\n')
        time.sleep(options.delay)
        self.send_response(status)
        self.send_header('Content-Length', '0')
        self.end_headers()

    do_POST = answer
    do_GET = answer

    def log_message(self, *args):
        pass


class Server(http.server.ThreadingHTTPServer):
    allow_reuse_address = True


Server(('127.0.0.1', port), Handler).serve_forever()
