#!/usr/bin/python3
"""How many WHEP viewers one gstpipe process serves at 720p30 from its one shared encode.

gstpipe serves `SOURCE ! video/x-raw,format=I420,width=1280,height=720,framerate=30/1 ! gray !
webrtc://127.0.0.1:PORT/live` (VP8, 2 Mbit/s). Light viewers in this script, each its own
GStreamer pipeline (webrtcbin ! rtpvp8depay ! fakesink: they receive, decrypt and reassemble every
frame but do not decode it, so the browser's decoder is not what is measured), join by WHEP in
steps (1, 5, 10, 20, 30 by default). At each step, once every viewer has had frames and a few
seconds have passed, the script counts for SECONDS the frames each viewer got (a frame is a whole
VP8 frame out of the depayloader), and reads gstpipe's CPU time (user + system, as a share of one
core) and resident memory from /proc. The viewers run on the same 2-core machine and their own CPU
competes with gstpipe's: it is printed too. Everything runs in a network namespace of its own with
loopback alone.

Usage: Benchmarks/webrtc-viewers.py [--seconds S] [--source bars|noise] [COUNTS...]
  bars (the default): videotestsrc is-live=true pattern=smpte horizontal-speed=8, color bars that
    scroll 8 pixels a frame (every frame differs; gray makes them gray bars)
  noise: gstpipe's noise element, random pixels in every frame (the encoder's worst case)
"""
import argparse
import os
import re
import threading
import time
import urllib.request

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstWebRTC", "1.0")
gi.require_version("GstSdp", "1.0")
from gi.repository import Gst, GstSdp, GstWebRTC  # noqa: E402

import webrtc_common as common  # noqa: E402

PORT = 8890
ENDPOINT = f"http://127.0.0.1:{PORT}/live/whep"


class Viewer:
    """One light WHEP viewer: a pipeline with a receive-only webrtcbin, every frame counted, none decoded."""

    def __init__(self, index):
        self.index = index
        self.pipeline = Gst.Pipeline.new(f"viewer{index}")
        self.webrtc = Gst.ElementFactory.make("webrtcbin")
        self.webrtc.set_property("bundle-policy", GstWebRTC.WebRTCBundlePolicy.MAX_BUNDLE)
        self.pipeline.add(self.webrtc)
        self.sink = None
        self.webrtc.connect("pad-added", self.on_pad)
        self.webrtc.connect("deep-element-added", self.on_element)
        caps = Gst.Caps.from_string(
            "application/x-rtp,media=video,encoding-name=VP8,payload=96,clock-rate=90000,"
            "rtcp-fb-nack-pli=true,rtcp-fb-nack=true")
        self.webrtc.emit("add-transceiver", GstWebRTC.WebRTCRTPTransceiverDirection.RECVONLY, caps)
        # libnice leaves loopback out of its candidates: offer 127.0.0.1 as the server does. PyGObject
        # takes the agent as its own (a floating reference) and would free it with its wrapper: kept.
        self.agent = self.webrtc.get_property("ice-agent")
        self.agent.emit("add-local-ip-address", "127.0.0.1")
        self.pipeline.set_state(Gst.State.PLAYING)

    @staticmethod
    def on_element(_bin, _parent, element):
        # GStreamer sends RTCP every 5 s or so (its minimum interval), which gstpipe takes for a
        # viewer gone (5 s of silence); browsers send a report about every second: so does this viewer.
        if element.get_factory() and element.get_factory().get_name() == "rtpsession":
            element.set_property("rtcp-min-interval", 1_000_000_000)

    def on_pad(self, _webrtc, pad):
        if pad.get_direction() != Gst.PadDirection.SRC:
            return
        depay = Gst.ElementFactory.make("rtpvp8depay")
        sink = Gst.ElementFactory.make("fakesink")
        sink.set_property("sync", False)
        sink.set_property("enable-last-sample", False)
        for element in (depay, sink):
            self.pipeline.add(element)
        depay.link(sink)
        for element in (sink, depay):
            element.sync_state_with_parent()
        pad.link(depay.get_static_pad("sink"))
        self.sink = sink

    def join(self):
        """Sends the offer with every candidate (WHEP, no trickle) and takes the answer."""
        # The offer lives in its promise's reply: that promise is kept until it is used.
        created = Gst.Promise.new()
        self.webrtc.emit("create-offer", None, created)
        created.wait()
        reply = created.get_reply()
        offer = reply.get_value("offer")
        promise = Gst.Promise.new()
        self.webrtc.emit("set-local-description", offer, promise)
        promise.wait()
        deadline = time.monotonic() + 5
        while (self.webrtc.get_property("ice-gathering-state") != GstWebRTC.WebRTCICEGatheringState.COMPLETE
               and time.monotonic() < deadline):
            time.sleep(0.05)
        sdp = self.webrtc.get_property("local-description").sdp.as_text()
        request = urllib.request.Request(
            ENDPOINT, data=sdp.encode(), method="POST", headers={"Content-Type": "application/sdp"})
        with urllib.request.urlopen(request, timeout=30) as response:
            answer_text = response.read().decode()
        _, message = GstSdp.SDPMessage.new_from_text(answer_text)
        answer = GstWebRTC.WebRTCSessionDescription.new(GstWebRTC.WebRTCSDPType.ANSWER, message)
        promise = Gst.Promise.new()
        self.webrtc.emit("set-remote-description", answer, promise)
        promise.wait()

    def frames(self):
        """Frames received so far (the fakesink's rendered buffers: one whole VP8 frame each)."""
        if self.sink is None:
            return 0
        return self.sink.get_property("stats").get_value("rendered")

    def close(self):
        self.pipeline.set_state(Gst.State.NULL)


# Offers sent at once. Every viewer here comes from 127.0.0.1, and the server holds one address to 32 open
# connections (`ServerLimits.connectionsPerAddress`, against a peer holding hundreds): 49 offers at once had
# 14 of them reset. Viewers on machines of their own would each be an address of their own.
JOIN_AT_ONCE = 16


def join_all(viewers):
    """Offers of several viewers at once, as browsers opening a page together would send them, 16 at a time."""
    failures = []

    def join(viewer):
        try:
            viewer.join()
        except Exception as error:  # noqa: BLE001 (any failure is reported, not raised in a thread)
            failures.append(f"viewer {viewer.index}: {error}")

    for first in range(0, len(viewers), JOIN_AT_ONCE):
        threads = [threading.Thread(target=join, args=(viewer,)) for viewer in viewers[first:first + JOIN_AT_ONCE]]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    return failures


def measure(server, viewers, seconds):
    """Frames each viewer got in `seconds`, with gstpipe's and this script's CPU share and memory."""
    own = os.getpid()
    before = [viewer.frames() for viewer in viewers]
    cpu, mine, start = common.cpu_seconds(server.pid), common.cpu_seconds(own), time.monotonic()
    time.sleep(seconds)
    elapsed = time.monotonic() - start
    rates = [(viewer.frames() - first) / elapsed for viewer, first in zip(viewers, before)]
    return {
        "rates": rates,
        "cpu": 100 * (common.cpu_seconds(server.pid) - cpu) / elapsed,
        "viewers_cpu": 100 * (common.cpu_seconds(own) - mine) / elapsed,
        "rss": common.resident_mb(server.pid),
        "load": common.load(),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--source", choices=["bars", "noise"], default="bars")
    parser.add_argument("counts", type=int, nargs="*", default=[1, 5, 10, 20, 30])
    arguments = parser.parse_args()
    common.enter_namespace()
    Gst.init(None)
    source = ["noise"] if arguments.source == "noise" else [
        "videotestsrc", "is-live=true", "pattern=smpte", "horizontal-speed=8"]
    description = [*source, "!", "video/x-raw,format=I420,width=1280,height=720,framerate=30/1", "!", "gray", "!",
                   f"webrtc://127.0.0.1:{PORT}/live"]
    log = open("/tmp/gstpipe-webrtc-viewers.log", "w")
    server = common.start_gstpipe(description, log)
    viewers = []
    try:
        common.wait_for_server(f"http://127.0.0.1:{PORT}/live", server)
        time.sleep(2)
        idle = measure(server, [], 5)
        print(f"gstpipe {' '.join(description)}")
        print(f"{arguments.seconds:g} s a step; frames per viewer per second (30 sent); gstpipe's CPU "
              f"(% of one core) and RSS; the viewers' own CPU")
        print("| viewers | frames/s per viewer (min / median / max) | gstpipe CPU | gstpipe RSS | viewers' CPU "
              "| load |")
        print("|---|---|---|---|---|---|")
        print(f"| 0 | - | {idle['cpu']:.0f}% | {idle['rss']:.0f} MB | - | {idle['load']} |", flush=True)
        for count in arguments.counts:
            new = [Viewer(index) for index in range(len(viewers), count)]
            failures = join_all(new)
            viewers += new
            if failures:
                print("\n".join(failures))
            # Every viewer has had frames, then a few seconds for the key frames and joins to settle.
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and any(viewer.frames() == 0 for viewer in viewers):
                time.sleep(0.2)
            time.sleep(3)
            step = measure(server, viewers, arguments.seconds)
            rates = sorted(step["rates"])
            print(f"| {count} | {rates[0]:.1f} / {rates[len(rates) // 2]:.1f} / {rates[-1]:.1f} | {step['cpu']:.0f}% | "
                  f"{step['rss']:.0f} MB | {step['viewers_cpu']:.0f}% | {step['load']} |", flush=True)
    finally:
        for viewer in viewers:
            viewer.close()
        common.stop(server)
        log.close()
    notes = open("/tmp/gstpipe-webrtc-viewers.log").read()
    left = re.findall(r"viewer \d+ left: .*", notes)
    print(f"viewers dropped by gstpipe during the run: {len(left)}" + "".join(f"\n  {line}" for line in left[:5]))


if __name__ == "__main__":
    main()
