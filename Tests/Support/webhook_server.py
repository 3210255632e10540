#!/usr/bin/env python3
"""A real HTTP endpoint on 127.0.0.1 for the webhook tests: appends every POST body (one line)
to LOG and answers 200. Prints its port on the first line of stdout.

    webhook_server.py LOG [PORT]        PORT 0 (default) picks a free one
"""
import http.server
import sys


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get('Content-Length', 0)))
        with open(sys.argv[1], 'ab') as log:
            log.write(body.rstrip(b'\n') + b'\n')
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


class Server(http.server.HTTPServer):
    allow_reuse_address = True


server = Server(('127.0.0.1', int(sys.argv[2]) if len(sys.argv) > 2 else 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
