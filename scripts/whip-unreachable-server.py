#!/usr/bin/env python3
"""A WHIP endpoint whose connection never comes up, for gstpipe's tests: it answers every offer with
201 and an SDP answer that names a candidate nothing listens at (127.0.0.1, port 9), so ICE keeps
checking. Usage: whip-unreachable-server.py PORT"""
import re
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer


def answer(offer):
    lines = ["v=0", "o=- 1 1 IN IP4 127.0.0.1", "s=-", "t=0 0"]
    mids = re.findall(r"^a=mid:(\S+)", offer, re.M)
    if mids:
        lines.append("a=group:BUNDLE " + " ".join(mids))
    fingerprint = ":".join(["AB"] * 32)
    for section in offer.split("\nm=")[1:]:
        kind = section.split(" ", 1)[0]
        payload = re.search(r"^a=rtpmap:(\d+) (\S+)", section, re.M)
        mid = re.search(r"^a=mid:(\S+)", section, re.M)
        lines += [
            f"m={kind} 9 UDP/TLS/RTP/SAVPF {payload.group(1)}",
            "c=IN IP4 127.0.0.1",
            "a=rtcp-mux",
            f"a=mid:{mid.group(1)}",
            "a=recvonly",
            f"a=rtpmap:{payload.group(1)} {payload.group(2)}",
            "a=ice-ufrag:none",
            "a=ice-pwd:nonenonenonenonenonenone",
            f"a=fingerprint:sha-256 {fingerprint}",
            "a=setup:passive",
            "a=candidate:1 1 UDP 2130706431 127.0.0.1 9 typ host",
            "a=end-of-candidates",
        ]
    return "\r\n".join(lines) + "\r\n"


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        offer = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
        body = answer(offer).encode()
        self.send_response(201)
        self.send_header("Content-Type", "application/sdp")
        self.send_header("Location", "/whip/session")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_DELETE(self):
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *arguments):
        pass


HTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
