#!/usr/bin/env bash
# Installs what gstpipe needs on Debian/Ubuntu: GStreamer's development files and plugins, and the
# tools the tests use (Xvfb for a real window, graphviz for pipeline pictures, ffmpeg's ffprobe as a
# reader of what gstpipe writes), gst-rtsp-server for rtsp:// outputs (with its Python binding, the
# RTSP sender of the input tests), and for webrtc:// outputs libnice's GStreamer plugin (webrtcbin
# gathers no ICE candidates without it), the WebRTC headers of plugins-bad (the webrtcbin shim) and
# Chromium, the browser of the WebRTC tests (with curl, ip for their network namespaces, and coturn,
# the TURN server a relayed viewer goes through; nginx with its stream module, the reverse proxy
# of the "Serving safely" article that ReverseProxyTests runs, and its RTMP module, the ingest server
# RTMPTests publish to and read from). Installs
# only what is missing; safe to run again. redis-server, python3-celery and python3-redis: the farm
# (farm/worker, farm/run) and its tests. gdb: scripts/test-guard.py prints a hung test run's
# thread stacks with it. python3-prometheus-client: its parser reads `--metrics` in MetricsTests.
# libcurl4-openssl-dev: Examples/BrowserCall and Snippets/BrowserPeers use Foundation's URLSession, whose
# `--static-swift-stdlib` builds link libcurl.so (without it: "undefined reference to 'curl_easy_getinfo'");
# gstpipe itself no longer does.
set -euo pipefail

packages=(
    pkg-config
    libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev gstreamer1.0-tools
    gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly
    gstreamer1.0-libav gstreamer1.0-x
    # GIO's TLS (GnuTLS, the system's trusted certificates): rtsps://, and the whip+ and whep+ clients' https.
    glib-networking
    libx264-dev libcurl4-openssl-dev
    libgstrtspserver-1.0-dev gstreamer1.0-rtsp gir1.2-gst-rtsp-server-1.0
    xvfb graphviz python3-gst-1.0 ffmpeg
    gstreamer1.0-nice libgstreamer-plugins-bad1.0-dev chromium curl iproute2 coturn
    nginx-light libnginx-mod-stream libnginx-mod-rtmp
    python3-venv
    gdb
    redis-server python3-celery python3-redis
    python3-prometheus-client
)

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# aiortc in a venv, for the WHIP client tests (scripts/setup-python.sh).
"$(dirname "$0")/setup-python.sh"

command -v swift >/dev/null || { echo "setup: Swift 6 is needed (https://www.swift.org/install/linux/)" >&2; exit 1; }
echo "setup: GStreamer $(pkg-config --modversion gstreamer-1.0) and $(swift --version 2>/dev/null | head -1) ready"
