#!/usr/bin/env python3
"""A WHIP/WHEP proxy that records what a client sends, and a slow STUN server, for gstpipe's tests of
its whip+/whep+ clients' trickle ICE (RFC 9725 PATCH).

- HTTP on 127.0.0.1:PORT: POST, PATCH and DELETE are passed to UPSTREAM (gstpipe's own webrtc://
  server), Location kept as the upstream wrote it (a path, so the client's PATCH comes here too);
  with --patch-status N, a PATCH is answered N here instead (a server that does not trickle: 405).
  Every request (method, path, Content-Type, body, status) is written to REPORT as JSON.
- STUN on 127.0.0.1:STUN_PORT (UDP): a Binding request is answered once, --stun-delay seconds after
  its first copy (libnice sends it again at 0.2 and 0.6 s, and gives up at about 1 s), with the
  reflexive address 203.0.113.7 (TEST-NET-3) and the request's port, so the client's server reflexive
  candidate comes after its host candidates and after its offer went (gstpipe's waits 0.5 s).

Usage: whip-trickle-proxy.py PORT UPSTREAM STUN_PORT REPORT [--patch-status N] [--stun-delay S]
"""
import argparse
import json
import os
import socket
import struct
import threading
import time
import urllib.error
import urllib.request
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MAGIC = 0x2112A442
parser = argparse.ArgumentParser()
parser.add_argument("port", type=int)
parser.add_argument("upstream")
parser.add_argument("stun_port", type=int)
parser.add_argument("report")
parser.add_argument("--patch-status", type=int)
parser.add_argument("--stun-delay", type=float, default=0.75)
options = parser.parse_args()
requests = []
lock = threading.Lock()


def record(entry):
    with lock:
        requests.append(entry)
        with open(options.report + ".tmp", "w") as file:
            json.dump({"requests": requests}, file)
        # Renamed whole: the test reads it while requests come.
        os.replace(options.report + ".tmp", options.report)


def stun_answer(request, address):
    """A Binding success response to `request` with the address 203.0.113.7 and the sender's port: as
    RFC 8489 has it (XOR-MAPPED-ADDRESS, FINGERPRINT) when the request has the magic cookie, else as
    RFC 3489 (MAPPED-ADDRESS), which libnice's discovery speaks. The request's cookie and transaction
    ID are echoed as they came."""
    reflexive = struct.unpack("!I", socket.inet_aton("203.0.113.7"))[0]
    if struct.unpack("!I", request[4:8])[0] != MAGIC:
        mapped = struct.pack("!HHBBHI", 0x0001, 8, 0, 1, address[1], reflexive)
        return struct.pack("!HH", 0x0101, len(mapped)) + request[4:20] + mapped
    mapped = struct.pack("!HHBBHI", 0x0020, 8, 0, 1, address[1] ^ (MAGIC >> 16), reflexive ^ MAGIC)
    header = struct.pack("!HH", 0x0101, len(mapped) + 8) + request[4:20]
    crc = zlib.crc32(header + mapped) ^ 0x5354554E
    return header + mapped + struct.pack("!HHI", 0x8028, 4, crc & 0xFFFFFFFF)


def stun():
    server = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    server.bind(("127.0.0.1", options.stun_port))
    seen = set()
    while True:
        request, address = server.recvfrom(2048)
        if len(request) < 20 or struct.unpack("!H", request[:2])[0] != 0x0001 or request[4:20] in seen:
            continue
        seen.add(request[4:20])

        def answer(request=request, address=address):
            time.sleep(options.stun_delay)
            server.sendto(stun_answer(request, address), address)

        threading.Thread(target=answer, daemon=True).start()


class Proxy(BaseHTTPRequestHandler):
    def relay(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        entry = {
            "method": self.command, "path": self.path, "contentType": self.headers.get("Content-Type"),
            "body": body.decode(errors="replace"),
        }
        if self.command == "PATCH" and options.patch_status:
            status, headers, answer = options.patch_status, {}, b"no trickle here"
        else:
            request = urllib.request.Request(options.upstream + self.path, data=body or None, method=self.command)
            for name in ("Content-Type", "Authorization"):
                if self.headers.get(name):
                    request.add_header(name, self.headers[name])
            try:
                with urllib.request.urlopen(request, timeout=20) as response:
                    status, headers, answer = response.status, response.headers, response.read()
            except urllib.error.HTTPError as error:
                status, headers, answer = error.code, error.headers, error.read()
        entry["status"] = status
        record(entry)
        self.send_response(status)
        for name in ("Content-Type", "Location"):
            if headers.get(name):
                self.send_header(name, headers[name])
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    do_POST = do_PATCH = do_DELETE = relay

    def log_message(self, *arguments):
        pass


threading.Thread(target=stun, daemon=True).start()
ThreadingHTTPServer(("127.0.0.1", options.port), Proxy).serve_forever()
