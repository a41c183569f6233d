#!/usr/bin/env python3
"""A WHIP endpoint (RFC 9725) on aiortc, for gstpipe's tests: a server no one in the project wrote on
the WebRTC side, that `gstpipe ... ! whip+http://127.0.0.1:PORT/whip` publishes to.

    aiortc-whip-server.py PORT REPORT.json [TOKEN]

It is a WHEP endpoint too: POST /whep answers with a video track that sends 150 gray frames of 160x120
(Y 100, chroma neutral) at 30 a second, then ends, for `gstpipe whep+http://127.0.0.1:PORT/whep ! …`.

POST /whip takes an application/sdp offer (with `Authorization: Bearer TOKEN` when a token is given,
else 401), answers 201 with the SDP answer and a Location; DELETE on the Location ends the session.
Every video frame received is decoded by aiortc and counted; REPORT.json is rewritten as frames come
and on each request: frames, size, how far the chroma strays from neutral (0 for gray pictures), the
requests seen (method, path, status, whether a token came) and whether the session was deleted.

Run it inside the test's network namespace, with loopback alone: aioice leaves 127.0.0.1 out of its
host candidates, so it is given that address and no other.
"""
import asyncio
import json
import os
import sys
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import aioice.ice
from aiortc import RTCPeerConnection, RTCSessionDescription, VideoStreamTrack
from aiortc.mediastreams import MediaStreamError
from av import VideoFrame

aioice.ice.get_host_addresses = lambda use_ipv4, use_ipv6: ["127.0.0.1"]

port, report_path = int(sys.argv[1]), sys.argv[2]
token = sys.argv[3] if len(sys.argv) > 3 else None
loop = asyncio.new_event_loop()
threading.Thread(target=loop.run_forever, daemon=True).start()
lock = threading.Lock()
report = {"frames": 0, "width": 0, "height": 0, "chromaDeviation": 0, "requests": [], "deleted": False,
          "codec": None}
sessions = {}


def write_report():
    with lock:
        text = json.dumps(report)
    with open(report_path + ".tmp", "w") as file:
        file.write(text)
    os.replace(report_path + ".tmp", report_path)


def chroma_deviation(frame):
    """The largest distance from 128 among the U and V bytes of every seventh row of the frame, in
    yuv420p (a plane's rows are padded past its width: the padding is not looked at)."""
    image = frame if frame.format.name == "yuv420p" else frame.reformat(format="yuv420p")
    worst = 0
    for plane in image.planes[1:3]:
        data = bytes(plane)
        for row in range(0, plane.height, 7):
            start = row * plane.line_size
            worst = max(worst, max(abs(byte - 128) for byte in data[start:start + plane.width]))
    return worst


async def count_frames(track):
    previous = None
    while True:
        try:
            frame = await track.recv()
        except Exception as error:
            print(f"aiortc-whip-server: the track ended: {error!r}", file=sys.stderr)
            return
        deviation = chroma_deviation(frame)
        # The smallest step between two frames' times, as the sender stamped them (RTP timestamps).
        time = float(frame.pts * frame.time_base) if frame.pts is not None else None
        with lock:
            if previous is not None and time is not None:
                gap = round((time - previous) * 1000, 1)
                report["minGapMs"] = min(report.get("minGapMs", gap), gap)
            previous = time
            report["frames"] += 1
            report["width"], report["height"] = frame.width, frame.height
            report["chromaDeviation"] = max(report["chromaDeviation"], deviation)
        if report["frames"] % 10 == 1:
            write_report()


class GrayTrack(VideoStreamTrack):
    """150 gray frames of 160x120, then the end of the track."""

    def __init__(self):
        super().__init__()
        self.sent = 0

    async def recv(self):
        if self.sent >= 150:
            self.stop()
            raise MediaStreamError
        pts, time_base = await self.next_timestamp()
        frame = VideoFrame(width=160, height=120, format="yuv420p")
        for plane, value in zip(frame.planes, (100, 128, 128)):
            plane.update(bytes([value]) * plane.buffer_size)
        frame.pts, frame.time_base = pts, time_base
        self.sent += 1
        return frame


async def answer(offer_sdp, send=False):
    pc = RTCPeerConnection()
    if send:
        pc.addTrack(GrayTrack())

    @pc.on("track")
    def on_track(track):
        print(f"aiortc-whip-server: a {track.kind} track", file=sys.stderr)
        if track.kind == "video":
            asyncio.ensure_future(count_frames(track))

    await pc.setRemoteDescription(RTCSessionDescription(sdp=offer_sdp, type="offer"))
    await pc.setLocalDescription(await pc.createAnswer())
    for transceiver in pc.getTransceivers():
        codecs = getattr(transceiver, "_codecs", None)
        if codecs:
            report["codec"] = codecs[0].mimeType
    session = uuid.uuid4().hex
    sessions[session] = pc
    return session, pc.localDescription.sdp


class Handler(BaseHTTPRequestHandler):
    def respond(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        with lock:
            report["requests"].append({"method": self.command, "path": self.path, "status": status,
                                       "authorization": self.headers.get("Authorization") is not None})
        write_report()

    def authorized(self):
        if token is None or self.headers.get("Authorization") == f"Bearer {token}":
            return True
        self.respond(401, b"missing or wrong bearer token\n", [("Content-Type", "text/plain"),
                                                              ("WWW-Authenticate", "Bearer")])
        return False

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if self.path not in ("/whip", "/whep"):
            return self.respond(404, b"no such endpoint\n")
        if not self.authorized():
            return
        if self.headers.get("Content-Type", "").split(";")[0].strip() != "application/sdp":
            return self.respond(415, b"send the offer as application/sdp\n")
        send = self.path == "/whep"
        session, sdp = asyncio.run_coroutine_threadsafe(answer(body.decode(), send), loop).result(30)
        self.respond(201, sdp.encode(), [("Content-Type", "application/sdp"), ("Location", f"{self.path}/{session}")])

    def do_DELETE(self):
        if not self.authorized():
            return
        pc = sessions.pop(self.path.rsplit("/", 1)[-1], None)
        if pc is None:
            return self.respond(404, b"no such session\n")
        asyncio.run_coroutine_threadsafe(pc.close(), loop).result(10)
        with lock:
            report["deleted"] = True
        self.respond(200)

    def log_message(self, *args):
        pass


write_report()
ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
