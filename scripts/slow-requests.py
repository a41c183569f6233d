#!/usr/bin/env python3
"""Slow and early-answered requests against a WebRTC input's server, with its limits made short
(GSTPIPE_WEBRTC_LIMITS=request=3,per-address=4,connect=2), and what the server did, as JSON:

    scripts/slow-requests.py PORT TOKEN OFFER_FILE

- perAddress: of 6 connections from 127.0.0.1, how many the server closed at once;
  and the status a 127.0.0.2 client then gets for the page;
- slowBody: seconds until the server closed a POST whose body comes one byte a second;
- after401: the status line, and seconds until the server closed after it, with the body unsent;
- publishers: the statuses of an offer that never connects, a second one at once, and a third
  after the connect limit.
Python 3's standard library alone.
"""
import json
import socket
import sys
import time

port, token, offer = int(sys.argv[1]), sys.argv[2], open(sys.argv[3], "rb").read()


def connect(source):
    s = socket.socket()
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    return s


def closed_within(s, seconds):
    """Seconds until the server closed `s` (reading and dropping what it sends), None if not within."""
    start = time.monotonic()
    s.settimeout(0.1)
    while time.monotonic() - start < seconds:
        try:
            if s.recv(65536) == b"":
                return round(time.monotonic() - start, 2)
        except socket.timeout:
            pass
        except OSError:
            return round(time.monotonic() - start, 2)
    return None


def status(s):
    s.settimeout(5)
    data = b""
    while b"\r\n" not in data:
        chunk = s.recv(4096)
        if not chunk:
            break
        data += chunk
    return data.split(b"\r\n")[0].decode()


def post(source, with_token=True):
    s = connect(source)
    head = f"POST /in/whip HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/sdp\r\n"
    if with_token:
        head += f"Authorization: Bearer {token}\r\n"
    s.sendall((head + f"Content-Length: {len(offer)}\r\nConnection: close\r\n\r\n").encode() + offer)
    line = status(s)
    s.close()
    return line


report = {}
held = [connect("127.0.0.1") for _ in range(6)]
time.sleep(0.5)
report["perAddress"] = sum(1 for s in held if closed_within(s, 0.3) is not None)
other = connect("127.0.0.2")
other.sendall(b"GET /in HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
report["otherAddress"] = status(other)
for s in held + [other]:
    s.close()

slow = connect("127.0.0.3")
slow.sendall(f"POST /in/whip HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/sdp\r\n"
             f"Authorization: Bearer {token}\r\nContent-Length: 1000\r\n\r\n".encode())
start = time.monotonic()
slow.setblocking(False)
report["slowBody"] = None
while time.monotonic() - start < 15:
    try:
        slow.send(b"v")
        if slow.recv(1) == b"":
            report["slowBody"] = round(time.monotonic() - start, 2)
            break
    except BlockingIOError:
        pass
    except OSError:
        report["slowBody"] = round(time.monotonic() - start, 2)
        break
    time.sleep(1)
slow.close()

early = connect("127.0.0.4")
early.sendall(b"POST /in/whip HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/sdp\r\n"
              b"Content-Length: 100000\r\n\r\n")
report["status401"] = status(early)
report["after401"] = closed_within(early, 10)
early.close()

first = post("127.0.0.5")
second = post("127.0.0.6")
time.sleep(5)
third = post("127.0.0.7")
report["publishers"] = [first, second, third]
print(json.dumps(report))
