#!/usr/bin/python3
"""Latency of gstpipe's webrtc:// output, from the source to the frame a browser renders, on loopback.

A live source in this script makes I420 frames at 30 fps, each carrying the wall-clock time it was
made (CLOCK_REALTIME in milliseconds, the low 32 bits, drawn twice as rows of 32x32 black or white
blocks over changing noise, so the encoder works at its bit rate), and hands them to gstpipe through
shared memory: `shmsrc ! gray ! webrtc://127.0.0.1:8890/live`. Headless Chromium plays the stream
through WHEP from a page of another origin; for each frame it renders (requestVideoFrameCallback),
the page draws the blocks into a canvas, reads the time back and subtracts it from Date.now() (the
same clock on the same machine), and splits the total at the moment Chromium received the frame's
last packet (the callback's receiveTime): before it, this script's hand-over, gstpipe and loopback;
after it, the browser's jitter buffer, decoder and compositor. getStats adds Chromium's own
averages (jitter buffer delay and decode time per frame).

The reference, in the same run, serves the same frames with GStreamer alone: `shmsrc ! vp8enc (the
same settings) ! rtpvp8pay ! webrtcbin`, one pipeline for its one viewer, answering WHEP from a small
server in this script.

Usage: Benchmarks/webrtc-latency.py [--seconds S] [--size 640x480|1280x720] [--servers gstpipe,reference]
                                   [--filter gray|'']  (gstpipe's element before webrtc://, gray by default)
Prints, per server, the median and 95th percentile of the total and of its two parts in ms.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import http.server

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstWebRTC", "1.0")
gi.require_version("GstSdp", "1.0")
from gi.repository import Gst, GstSdp, GstWebRTC  # noqa: E402

import webrtc_common as common  # noqa: E402

FPS, BITS, BLOCK = 30, 32, 32
PAGE_PORT, GSTPIPE_PORT, REFERENCE_PORT = 8000, 8890, 8891
CHROMIUM = "/usr/bin/chromium"
# The page Chromium opens (served by this script, another origin than both servers).
PAGE = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "webrtc-latency.html")).read()
# What `webrtc://` encodes with (WebRTCCodec.vp8), for the reference.
VP8 = ("vp8enc deadline=1 cpu-used=8 lag-in-frames=0 end-usage=cbr target-bitrate=2000000 keyframe-max-dist=60 "
       "error-resilient=default threads=1")


class StampedSource:
    """Live I420 frames into a shmsink, each stamped with the time it was made (`run`, on its own thread)."""

    def __init__(self, width, height, socket_path):
        self.width, self.height = width, height
        self.caps = f"video/x-raw,format=I420,width={width},height={height},framerate={FPS}/1"
        self.pipeline = Gst.parse_launch(
            f"appsrc name=src is-live=true format=time do-timestamp=true caps={self.caps} "
            f"! shmsink socket-path={socket_path} wait-for-connection=false sync=false shm-size=50000000")
        self.appsrc = self.pipeline.get_by_name("src")
        per_row = width // BLOCK
        self.rows = -(-BITS // per_row)  # rows of blocks one copy of the stamp takes
        self.band = 2 * self.rows * BLOCK + BLOCK // 2  # two copies, then a gray margin
        # Below the band, gray bars with ramps that scroll 8 pixels a frame, so that every frame
        # differs from the last and the encoder has real work; chroma neutral (gray anyway).
        self.bars = bytes((x * 3 + (x // 40) * 50) % 256 for x in range(2 * width))
        self.chroma = b"\x80" * (width * height // 2)
        self.running = True

    def band_bytes(self, value):
        rows = bytearray(b"\x80" * (self.width * self.band))
        per_row = self.width // BLOCK
        for copy in range(2):
            for bit in range(BITS):
                white = b"\xff" if (value >> bit) & 1 else b"\x00"
                top = (copy * self.rows + bit // per_row) * BLOCK
                left = (bit % per_row) * BLOCK
                for y in range(top, top + BLOCK):
                    rows[y * self.width + left:y * self.width + left + BLOCK] = white * BLOCK
        return bytes(rows)

    def run(self):
        self.pipeline.set_state(Gst.State.PLAYING)
        frame, next_time = 0, time.monotonic()
        while self.running:
            stamp = (time.time_ns() // 1_000_000) & 0xFFFFFFFF
            shift = frame * 8 % self.width
            below = self.bars[shift:shift + self.width] * (self.height - self.band)
            data = self.band_bytes(stamp) + below + self.chroma
            self.appsrc.emit("push-buffer", Gst.Buffer.new_wrapped(data))
            frame += 1
            next_time += 1 / FPS
            time.sleep(max(0.0, next_time - time.monotonic()))
        self.pipeline.set_state(Gst.State.NULL)


class ReferenceServer:
    """WHEP answered by GStreamer alone: per offer, shmsrc ! vp8enc ! rtpvp8pay ! webrtcbin."""

    def __init__(self, socket_path, caps):
        self.socket_path, self.caps = socket_path, caps
        self.pipelines = []

    def answer(self, offer_text):
        payload = re.search(r"a=rtpmap:(\d+) VP8/90000", offer_text)
        if not payload:
            return None
        pt = payload.group(1)
        pipeline = Gst.parse_launch(
            f"shmsrc socket-path={self.socket_path} is-live=true do-timestamp=true ! {self.caps} ! {VP8} "
            f"! rtpvp8pay pt={pt} picture-id-mode=15-bit mtu=1200 "
            f"! application/x-rtp,media=video,clock-rate=90000,encoding-name=VP8,payload={pt} "
            f"! webrtcbin name=peer bundle-policy=max-bundle")
        webrtc = pipeline.get_by_name("peer")
        # PyGObject takes webrtcbin's ICE agent as its own (a floating reference) and would free it
        # with its wrapper: kept as long as the pipeline.
        agent = webrtc.get_property("ice-agent")
        agent.emit("add-local-ip-address", "127.0.0.1")
        self.pipelines.append((pipeline, agent))
        pipeline.set_state(Gst.State.PLAYING)
        _, message = GstSdp.SDPMessage.new_from_text(offer_text)
        offer = GstWebRTC.WebRTCSessionDescription.new(GstWebRTC.WebRTCSDPType.OFFER, message)
        promise = Gst.Promise.new()
        webrtc.emit("set-remote-description", offer, promise)
        promise.wait()
        # The answer lives in its promise's reply: that promise is kept until it is used.
        created = Gst.Promise.new()
        webrtc.emit("create-answer", None, created)
        created.wait()
        reply = created.get_reply()
        answer = reply.get_value("answer")
        promise = Gst.Promise.new()
        webrtc.emit("set-local-description", answer, promise)
        promise.wait()
        deadline = time.monotonic() + 3
        while (webrtc.get_property("ice-gathering-state") != GstWebRTC.WebRTCICEGatheringState.COMPLETE
               and time.monotonic() < deadline):
            time.sleep(0.05)
        return webrtc.get_property("local-description").sdp.as_text()

    def close(self):
        for pipeline, _ in self.pipelines:
            pipeline.set_state(Gst.State.NULL)


def serve(port, handler_state):
    """An HTTP server on 127.0.0.1:`port` (a thread): the page, the page's reports, and the reference's WHEP."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def cors(self):
            self.send_header("Access-Control-Allow-Origin", "*")
            self.send_header("Access-Control-Allow-Methods", "POST, DELETE, OPTIONS")
            self.send_header("Access-Control-Allow-Headers", "Content-Type")
            self.send_header("Access-Control-Expose-Headers", "Location")

        def do_OPTIONS(self):
            self.send_response(204)
            self.cors()
            self.end_headers()

        def do_GET(self):
            body = PAGE.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_DELETE(self):
            self.send_response(200)
            self.cors()
            self.end_headers()

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            if self.path.startswith("/result/"):
                handler_state["results"][os.path.basename(self.path)] = json.loads(body)
                self.send_response(204)
                self.end_headers()
                return
            answer = handler_state["reference"].answer(body.decode())
            self.send_response(201 if answer else 400)
            self.cors()
            self.send_header("Content-Type", "application/sdp")
            self.send_header("Location", "/live/whep/1")
            self.end_headers()
            self.wfile.write((answer or "no VP8 in the offer").encode())

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def watch(name, endpoint, seconds, state, profile_root):
    """Chromium watches `endpoint` for `seconds`; returns the page's report (None if none came)."""
    url = f"http://127.0.0.1:{PAGE_PORT}/?name={name}&seconds={seconds}&block={BLOCK}&bits={BITS}&endpoint={endpoint}"
    browser = subprocess.Popen(
        [CHROMIUM, "--headless=new", "--no-sandbox", "--allow-loopback-in-peer-connection",
         "--disable-features=WebRtcHideLocalIpsWithMdns", "--autoplay-policy=no-user-gesture-required",
         "--no-first-run", "--disable-gpu", f"--user-data-dir={profile_root}/{name}", url],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + seconds + 90
    while name not in state["results"] and time.monotonic() < deadline:
        time.sleep(0.2)
    browser.kill()
    browser.wait()
    return state["results"].get(name)


def summary(name, report, load_before):
    """The page's report as text: the median and 95th percentile of the total and of its two parts."""
    if not report or report.get("error"):
        return f"{name}: no report ({report and report.get('error')})"
    total, received = report["total"], report["toReceived"]
    line = (f"{name}: {len(total)} frames read back of {report.get('rendered')} rendered "
            f"({report.get('unreadable', 0)} unreadable, {report.get('stale', 0)} 10 s old or more)")
    if not total:
        return line
    browser = [t - r for t, r in zip(total, received)]
    for label, values in (("total", total), ("source to received", received), ("received to rendered", browser)):
        median, p95 = common.percentile(values, 0.5), common.percentile(values, 0.95)
        line += f"\n  {label:22} median {median:6.1f} ms, p95 {p95:6.1f} ms"
    stats = report.get("stats", {})
    line += (f"\n  getStats: jitter buffer {stats.get('jitterBufferMs', 0):.1f} ms, decode "
             f"{stats.get('decodeMs', 0):.1f} ms a frame; {stats.get('framesDecoded')} decoded, "
             f"{stats.get('framesDropped')} dropped, {stats.get('packetsLost')} packets lost, "
             f"{stats.get('width')}x{stats.get('height')}")
    return line + f"\n  load average {load_before} before, {common.load()} after"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--size", default="640x480")
    parser.add_argument("--servers", default="gstpipe,reference", help="which to measure, in this order")
    parser.add_argument("--filter", default="gray", help="gstpipe's element before webrtc:// ('' for none)")
    arguments = parser.parse_args()
    if not os.access(CHROMIUM, os.X_OK):
        sys.exit(f"no Chromium at {CHROMIUM}: apt-get install chromium (scripts/setup.sh does)")
    common.enter_namespace()
    Gst.init(None)
    width, height = (int(part) for part in arguments.size.split("x"))
    work = tempfile.mkdtemp(prefix="gstpipe-webrtc-latency-")
    socket_path = os.path.join(work, "frames")
    source = StampedSource(width, height, socket_path)
    state = {"results": {}, "reference": ReferenceServer(socket_path, source.caps)}
    source_thread = threading.Thread(target=source.run)
    source_thread.start()
    page_server = serve(PAGE_PORT, state)
    reference_server = serve(REFERENCE_PORT, state)
    log = open("/tmp/gstpipe-webrtc-latency.log", "w")  # gstpipe's notes, kept after the run
    gstpipe = None
    time.sleep(1)
    print(f"{width}x{height} at {FPS} fps, {arguments.seconds} s a viewer, Chromium {chromium_version()}")
    try:
        for server in arguments.servers.split(","):
            load = common.load()
            if server == "gstpipe":
                chain = [arguments.filter, "!"] if arguments.filter else []
                description = ["shmsrc", f"socket-path={socket_path}", "is-live=true", "do-timestamp=true", "!",
                               source.caps, "!", *chain, f"webrtc://127.0.0.1:{GSTPIPE_PORT}/live"]
                gstpipe = common.start_gstpipe(description, log)
                common.wait_for_server(f"http://127.0.0.1:{GSTPIPE_PORT}/live", gstpipe)
                report = watch("gstpipe", f"http://127.0.0.1:{GSTPIPE_PORT}/live/whep", arguments.seconds, state, work)
                print(summary(f"gstpipe shmsrc ! {' '.join(chain)} webrtc://", report, load), flush=True)
                common.stop(gstpipe)
            else:
                report = watch(
                    "reference", f"http://127.0.0.1:{REFERENCE_PORT}/live/whep", arguments.seconds, state, work)
                print(summary("reference shmsrc ! vp8enc ! rtpvp8pay ! webrtcbin", report, load), flush=True)
    finally:
        if gstpipe:
            common.stop(gstpipe)
        log.close()
        state["reference"].close()
        source.running = False
        source_thread.join()
        page_server.shutdown()
        reference_server.shutdown()
        shutil.rmtree(work, ignore_errors=True)


def chromium_version():
    return subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True).stdout.split()[1]


if __name__ == "__main__":
    main()
