#!/bin/bash
# Clients joining an rtsp:// output on a loaded machine, again and again: each trial starts a live
# server in a network namespace of its own and two ffmpeg clients at once (as StreamOutputTests
# does), and counts a trial whose first client read no 50 frames within 15 s. Two busy loops take the
# cores meanwhile, and two trials run side by side. A race that one join in a hundred meets shows
# here in minutes; the tests meet it once in several CI runs.
#
#   scripts/rtsp-join-stress.sh [TRIALS]     (200 by default; needs root for `unshare -n`, and ffmpeg)
#
# GSTPIPE names the binary (.build/debug/gstpipe by default). A failed trial keeps its ffmpeg logs
# and the server's threads (gdb, when installed) in a folder it names; exit 1 when any failed.
set -u
cd "$(dirname "$0")/.."
trials=${1:-200}
gstpipe=$(realpath "${GSTPIPE:-.build/debug/gstpipe}")
[ -x "$gstpipe" ] || { echo "no gstpipe at $gstpipe: build it first (swift build), or set GSTPIPE" >&2; exit 2; }
command -v ffmpeg > /dev/null || { echo "ffmpeg is not installed (scripts/setup.sh)" >&2; exit 2; }
folder=$(mktemp -d /tmp/rtsp-join-stress.XXXXXX)

# One trial, inside its namespace: prints "ok" or "failed".
trial() {
    local out=$folder/$1
    mkdir -p "$out"
    ip link set lo up
    "$gstpipe" videotestsrc is-live=true num-buffers=900 ! video/x-raw,width=320,height=240,framerate=30/1 \
        ! gray ! rtsp://127.0.0.1:8554/gray > /dev/null 2> "$out/server.err" &
    local server=$!
    for _ in $(seq 300); do (exec 3<> /dev/tcp/127.0.0.1/8554) 2> /dev/null && break; sleep 0.1; done
    local reader=(ffmpeg -hide_banner -nostdin -nostats -loglevel debug -rtsp_transport tcp -i rtsp://127.0.0.1:8554/gray)
    timeout -s KILL 15 "${reader[@]}" -frames:v 50 -f null - 2> "$out/first.err" &
    local first=$!
    timeout -s KILL 15 "${reader[@]}" -f null - 2> "$out/second.err" &
    local second=$!
    (
        sleep 8
        if kill -0 $first 2> /dev/null && command -v gdb > /dev/null; then
            gdb -p $server -batch -ex 'thread apply all bt' > "$out/server-threads.txt" 2>&1
        fi
    ) &
    wait $first
    local status=$?
    kill -INT $server
    wait $second $server
    if [ $status = 0 ]; then rm -rf "$out" && echo ok; else echo "failed: $out"; fi
}
export -f trial
export folder gstpipe

busy=()
for _ in 1 2; do (while :; do :; done) & busy+=($!); done
trap 'kill "${busy[@]}" 2> /dev/null' EXIT
seq "$trials" | xargs -P 2 -I{} unshare -n bash -c 'trial {}' 2> /dev/null | tee "$folder/trials.txt" | grep -v '^ok$'
failed=$(grep -c '^failed' "$folder/trials.txt")
echo "$failed of $trials trials: the first client read no 50 frames within 15 s (logs under $folder)"
[ "$failed" = 0 ]
