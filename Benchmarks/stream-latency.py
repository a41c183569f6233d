#!/usr/bin/python3
"""Latency of gstpipe's stream outputs on this machine, source to receiver, by a clock in the pixels.

This script makes live 320x240 gray frames, each carrying the moment it was made (CLOCK_MONOTONIC,
in microseconds, as 40 black or white 16x16 blocks), and hands them to gstpipe through shared
memory (shmsink; gstpipe reads them with shmsrc). gstpipe encodes and sends them as its output
URI says (gray, x264 zerolatency, then SRT or RTSP); a receiver in this script (GStreamer's srtsrc
or rtspsrc, then avdec_h264) decodes them, reads each frame's moment from its pixels and subtracts
it from the moment the frame came out of the decoder. Both moments are read from the same clock in
the same process, so no clocks need to agree. The receiver does not wait to display frames
(appsink sync=false): this is the time to the decoded picture, without a player's own buffering.

Usage: Benchmarks/stream-latency.py srt|rtsp [seconds] [receiver latency in ms]
  srt:  gstpipe ... ! srt://:PORT?latency=MS,  receiver srtsrc uri=srt://127.0.0.1:PORT?latency=MS
  rtsp: gstpipe ... ! rtsp://127.0.0.1:PORT/lat, receiver rtspsrc latency=MS protocols=tcp
Prints the median, 10th and 90th percentile and the largest latency in milliseconds.
"""
import os
import subprocess
import sys
import time

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402

WIDTH, HEIGHT, FPS, BITS, BLOCK = 320, 240, 30, 40, 16
GSTPIPE = os.environ.get("GSTPIPE", os.path.join(os.path.dirname(__file__), "..", ".build", "debug", "gstpipe"))


def stamp(microseconds):
    """A GRAY8 frame: mid gray, with the first rows of blocks holding the time's bits (white = 1)."""
    frame = bytearray(b"\x80" * (WIDTH * HEIGHT))
    per_row = WIDTH // BLOCK
    for bit in range(BITS):
        value = 255 if (microseconds >> bit) & 1 else 0
        top, left = (bit // per_row) * BLOCK, (bit % per_row) * BLOCK
        for y in range(top, top + BLOCK):
            frame[y * WIDTH + left:y * WIDTH + left + BLOCK] = bytes([value]) * BLOCK
    return bytes(frame)


def read_stamp(data, stride):
    per_row = WIDTH // BLOCK
    value = 0
    for bit in range(BITS):
        top, left = (bit // per_row) * BLOCK, (bit % per_row) * BLOCK
        if data[(top + BLOCK // 2) * stride + left + BLOCK // 2] > 128:
            value |= 1 << bit
    return value


def now_us():
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000


def main():
    kind = sys.argv[1] if len(sys.argv) > 1 else "srt"
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 10
    latency = int(sys.argv[3]) if len(sys.argv) > 3 else (120 if kind == "srt" else 0)
    Gst.init(None)
    socket_path = f"/tmp/gstpipe-latency-{os.getpid()}"
    port = 21000 + os.getpid() % 1000
    caps = f"video/x-raw,format=GRAY8,width={WIDTH},height={HEIGHT},framerate={FPS}/1"
    source = Gst.parse_launch(
        f"appsrc name=src is-live=true format=time do-timestamp=true caps={caps} "
        f"! shmsink socket-path={socket_path} wait-for-connection=true sync=false shm-size=20000000")
    appsrc = source.get_by_name("src")
    source.set_state(Gst.State.PLAYING)
    if kind == "srt":
        output = f"srt://:{port}?latency={latency}"
        receive = (f"srtsrc uri=srt://127.0.0.1:{port}?latency={latency} ! tsdemux ! h264parse "
                   f"! avdec_h264 ! videoconvert ! video/x-raw,format=GRAY8 ! appsink name=sink sync=false emit-signals=true")
    else:
        output = f"rtsp://127.0.0.1:{port}/lat"
        receive = (f"rtspsrc location=rtsp://127.0.0.1:{port}/lat latency={latency} protocols=tcp ! rtph264depay "
                   f"! avdec_h264 ! videoconvert ! video/x-raw,format=GRAY8 ! appsink name=sink sync=false emit-signals=true")
    sender = subprocess.Popen(
        [GSTPIPE, "-q", "shmsrc", f"socket-path={socket_path}", "is-live=true", "do-timestamp=true", "!", caps,
         "!", "gray", "!", output])
    samples = []
    start = time.monotonic()
    receiver = None
    next_frame = time.monotonic()
    while time.monotonic() - start < seconds + 3:
        # One frame each 1/FPS s, stamped as it is made.
        buffer = Gst.Buffer.new_wrapped(stamp(now_us()))
        appsrc.emit("push-buffer", buffer)
        if receiver is None and time.monotonic() - start > 1.5:
            receiver = Gst.parse_launch(receive)
            sink = receiver.get_by_name("sink")

            def on_sample(appsink):
                sample = appsink.emit("pull-sample")
                arrived = now_us()
                buf = sample.get_buffer()
                ok, info = buf.map(Gst.MapFlags.READ)
                if ok:
                    sent = read_stamp(info.data, WIDTH)
                    buf.unmap(info)
                    if 0 < arrived - sent < 10_000_000:
                        samples.append((arrived - sent) / 1000)
                return Gst.FlowReturn.OK

            sink.connect("new-sample", on_sample)
            receiver.set_state(Gst.State.PLAYING)
        next_frame += 1 / FPS
        time.sleep(max(0, next_frame - time.monotonic()))
        GLib.MainContext.default().iteration(False)
    if receiver:
        receiver.set_state(Gst.State.NULL)
    sender.terminate()
    sender.wait()
    source.set_state(Gst.State.NULL)
    # The first second of frames waits for the receiver's first key frame: left out.
    steady = sorted(samples[FPS:])
    if not steady:
        print(f"{kind}: no frames received")
        sys.exit(1)

    def percentile(p):
        return steady[min(len(steady) - 1, int(len(steady) * p))]

    print(f"{kind} (receiver latency setting {latency} ms): {len(steady)} frames, median {percentile(0.5):.1f} ms, "
          f"p10 {percentile(0.1):.1f} ms, p90 {percentile(0.9):.1f} ms, max {steady[-1]:.1f} ms")


if __name__ == "__main__":
    main()
