#!/usr/bin/env python3
"""Opens many idle and malformed connections at once against a server, holds them, and reports.

    scripts/abuse-connections.py HOST PORT [--protocol http|rtsp] [--idle 200] [--malformed 300]
                                 [--seconds 40] [--kinds garbage,long-line,huge-headers,slowloris]

What a server that faces a network must survive while it serves its real clients: IDLE connections
that never send a byte, and MALFORMED ones, in four kinds taken in turn: garbage (random bytes),
a request line that never ends (up to 1 MiB), headers that never end (8 KiB fields, up to 1 MiB
in all), and slowloris (a valid start, then one header line every two seconds); and, when asked
for with --kinds, options (a complete OPTIONS or HEAD request every three seconds: a peer that
answers nothing else yet keeps its connection busy, which an idle timeout must not count as a
viewer). Everything is
opened at once and held for SECONDS, or until the server has closed every one of them (nothing more
can happen then); what the server did meanwhile (closed the connection, answered with a status
line) is printed as one JSON object on standard output:

    {"opened": 500, "refused": 0, "connecting": 0, "lastConnectedAfter": 0.2,
     "kinds": {"idle": {"count": 200, "closedByServer": 200,
     "closedAfter": [30.0, 30.2], "status": {}, "sent": 0}, ...}}

`--protocol rtsp` writes RTSP requests (`OPTIONS rtsp://HOST:PORT/ RTSP/1.0`, with CSeq) in place
of HTTP's. Python 3's standard library alone; one thread, non-blocking sockets.
"""
import argparse
import json
import os
import selectors
import socket
import time

KINDS = ("garbage", "long-line", "huge-headers", "slowloris")
EXTRA_KINDS = ("options",)
CHUNK = 16 * 1024
LIMIT = 1024 * 1024
# Seconds between two pieces of a line or of headers that never end: 160 KiB a second a connection,
# 12 MiB a second for 75 of them: abuse of the parser, not a bandwidth flood (which no server stops).
PACE = 0.1


def request_start(protocol, host, port):
    if protocol == "rtsp":
        return f"OPTIONS rtsp://{host}:{port}/ RTSP/1.0\r\nCSeq: 1\r\n".encode()
    return f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\n".encode()


def keep_alive(protocol, host, port, sequence):
    """A complete request that needs no credentials: OPTIONS (RTSP), HEAD (HTTP)."""
    if protocol == "rtsp":
        return f"OPTIONS rtsp://{host}:{port}/ RTSP/1.0\r\nCSeq: {sequence}\r\n\r\n".encode()
    return f"HEAD / HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode()


def plan(kind, protocol, host, port):
    """What a connection of `kind` sends: (seconds after opening, bytes) pairs, in order."""
    start = request_start(protocol, host, port)
    if kind == "garbage":
        return [(0.0, os.urandom(4096) + b"\r\n\r\n")]
    if kind == "long-line":
        verb = b"DESCRIBE rtsp://x/" if protocol == "rtsp" else b"GET /"
        return [(0.0, verb)] + [(PACE * i, b"a" * CHUNK) for i in range(LIMIT // CHUNK)]
    if kind == "huge-headers":
        field = b"X-Filler: " + b"b" * (8 * 1024 - 12) + b"\r\n"
        return [(0.0, start)] + [(PACE * i, field) for i in range(LIMIT // len(field))]
    if kind == "options":
        return [(3.0 * i, keep_alive(protocol, host, port, i + 1)) for i in range(1000)]
    # slowloris: a header line every two seconds, never the blank line that ends the request.
    return [(0.0, start)] + [(2.0 * i, f"X-Slow-{i}: {i}\r\n".encode()) for i in range(1, 1000)]


class Connection:
    def __init__(self, kind, steps, opened):
        self.kind, self.steps, self.opened = kind, steps, opened
        self.pending = b""
        self.sent = 0
        self.received = b""
        self.closed_after = None
        self.connected_after = None
        self.sock = None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("host")
    parser.add_argument("port", type=int)
    parser.add_argument("--protocol", choices=("http", "rtsp"), default="http")
    parser.add_argument("--idle", type=int, default=200)
    parser.add_argument("--malformed", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=40)
    parser.add_argument("--kinds", default=",".join(KINDS), help="the malformed kinds to take in turn")
    # Many abusers, not one: a server that limits the connections per address (the WebRTC server's
    # 32) would otherwise refuse all but the first few, and the abuse would test that limit alone.
    parser.add_argument("--sources", type=int, default=0,
                        help="spread the connections over 127.0.0.2 … 127.0.0.(1+N), in turn (loopback only)")
    options = parser.parse_args()

    selector = selectors.DefaultSelector()
    connections = []
    chosen = options.kinds.split(",")
    kinds = ["idle"] * options.idle + [chosen[i % len(chosen)] for i in range(options.malformed)]
    started = time.monotonic()
    deadline = started + options.seconds
    # Every connection is opened at once (non-blocking connects): a server that accepts slowly, or
    # with a short listen backlog, gets them all the same, the kernel retrying those it dropped.
    for index, kind in enumerate(kinds):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if options.sources:
            sock.bind((f"127.0.0.{2 + index % options.sources}", 0))
        sock.setblocking(False)
        sock.connect_ex((options.host, options.port))
        steps = [] if kind == "idle" else plan(kind, options.protocol, options.host, options.port)
        connection = Connection(kind, steps, None)
        connection.sock = sock
        selector.register(sock, selectors.EVENT_WRITE, connection)
        connections.append(connection)

    refused = 0
    # Once no connection is left (each closed by the server, or refused), the report can change no
    # more: waiting out SECONDS would only make the caller wait.
    while time.monotonic() < deadline and any(c.sock is not None for c in connections):
        now = time.monotonic()
        for connection in connections:
            if connection.sock is None or connection.opened is None:
                continue
            while connection.steps and now - connection.opened >= connection.steps[0][0]:
                connection.pending += connection.steps.pop(0)[1]
            if connection.pending:
                try:
                    count = connection.sock.send(connection.pending)
                    connection.pending = connection.pending[count:]
                    connection.sent += count
                except BlockingIOError:
                    pass  # the server reads no more for now: try again later
                except OSError:
                    close(selector, connection)
        for key, events in selector.select(timeout=0.05):
            connection = key.data
            if connection.opened is None:
                if connection.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) != 0:
                    refused += 1
                    selector.unregister(connection.sock)
                    connection.sock.close()
                    connection.sock = None
                    continue
                connection.opened = time.monotonic()
                connection.connected_after = connection.opened - started
                selector.modify(connection.sock, selectors.EVENT_READ, connection)
                continue
            try:
                data = connection.sock.recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if data:
                connection.received += data[: 4096 - len(connection.received)]
            else:
                close(selector, connection)

    opened = [c for c in connections if c.opened is not None]
    waits = sorted(c.connected_after for c in opened)
    report = {
        "opened": len(opened), "refused": refused, "connecting": len(connections) - len(opened) - refused,
        "lastConnectedAfter": round(waits[-1], 1) if waits else None, "kinds": {},
    }
    for kind in ("idle",) + KINDS + EXTRA_KINDS:
        group = [c for c in opened if c.kind == kind]
        if not group:
            continue
        closed = sorted(c.closed_after for c in group if c.closed_after is not None)
        status = {}
        for c in group:
            first = c.received.split(b"\r\n", 1)[0].decode("latin-1")
            if first:
                status[first] = status.get(first, 0) + 1
        report["kinds"][kind] = {
            "count": len(group),
            "closedByServer": len(closed),
            "closedAfter": [round(closed[0], 1), round(closed[-1], 1)] if closed else [],
            "status": status,
            "sent": sum(c.sent for c in group),
        }
    for connection in connections:
        if connection.sock is not None:
            connection.sock.close()
    print(json.dumps(report))


def close(selector, connection):
    connection.closed_after = time.monotonic() - connection.opened
    selector.unregister(connection.sock)
    connection.sock.close()
    connection.sock = None


if __name__ == "__main__":
    main()
