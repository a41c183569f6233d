#!/usr/bin/env bash
# How many RTSP clients one gstpipe process serves on this machine before frames are lost.
#
# gstpipe serves a live 640x360 gray test pattern at 30 fps (rtsp://127.0.0.1:PORT/bench). For each
# count of clients, that many ffmpeg clients (RTP over TCP, -c copy: they count frames without
# decoding, so that they cost this machine little) read for SECONDS; then the script prints the
# frames each client got in a window of SECONDS that opens 6 s after every client got frames (ffmpeg
# reports every half second: a count may be off by 15 either way), and gstpipe's CPU time (user +
# system, as a share of one core) and resident memory in that window. The clients run on the same machine: their
# own CPU competes with the server's.
#
# Usage: Benchmarks/rtsp-clients.sh [SECONDS] [COUNTS...]   (default: 10 s; 1 8 16 32 64 clients)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
shift || true
counts=("${@:-1 8 16 32 64}")
# shellcheck disable=SC2206
counts=(${counts[*]})
gstpipe=${GSTPIPE:-.build/debug/gstpipe}
port=$((22000 + $$ % 1000))
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null; rm -rf "$work"' EXIT

"$gstpipe" -q videotestsrc is-live=true pattern=ball ! video/x-raw,width=640,height=360,framerate=30/1 \
    ! gray ! "rtsp://127.0.0.1:$port/bench" &
server=$!
sleep 2

ticks=$(getconf CLK_TCK)
cpu() { awk '{print $14 + $15}' "/proc/$server/stat"; }
rss() { awk '/VmRSS/ {print $2}' "/proc/$server/status"; }

frames() { grep -o '^frame=[0-9]*' "$work/client$1.txt" 2>/dev/null | tail -1 | cut -d= -f2; }

printf "%8s %26s %14s %12s\n" clients "frames in ${seconds} s" "server CPU" "server RSS"
printf "%8s %26s %14s %9s MB\n" 0 "(sent: $((seconds * 30)))" - "$(($(rss) / 1024))"
for count in "${counts[@]}"; do
    pids=()
    for i in $(seq 1 "$count"); do
        ffmpeg -hide_banner -nostdin -loglevel fatal -rtsp_transport tcp -i "rtsp://127.0.0.1:$port/bench" \
            -c copy -f null - -progress "$work/client$i.txt" &
        pids+=($!)
    done
    # The window opens once every client gets frames (up to 60 s for them to start).
    for _ in $(seq 1 600); do
        ready=0
        for i in $(seq 1 "$count"); do [ "$(frames "$i")" ] && [ "$(frames "$i")" -gt 0 ] && ready=$((ready + 1)); done
        [ "$ready" -eq "$count" ] && break
        sleep 0.1
    done
    # ffmpeg probes the stream for a few seconds, then writes out what it held back at once.
    sleep 6
    declare -A first=()
    for i in $(seq 1 "$count"); do first[$i]=$(frames "$i"); done
    start_cpu=$(cpu)
    sleep "$seconds"
    end_cpu=$(cpu)
    peak_rss=$(rss)
    total=0
    least=999999
    for i in $(seq 1 "$count"); do
        got=$(($(frames "$i") - ${first[$i]}))
        total=$((total + got))
        ((got < least)) && least=$got
    done
    unset first
    kill "${pids[@]}" 2>/dev/null || true
    wait "${pids[@]}" 2>/dev/null || true
    cpu_share=$(awk -v d=$((end_cpu - start_cpu)) -v t="$ticks" -v s="$seconds" 'BEGIN {printf "%.1f", d / t / s * 100}')
    printf "%8s %26s %13s%% %9s MB\n" "$count" "mean $((total / count)), least $least" "$cpu_share" \
        "$((peak_rss / 1024))"
    sleep 2
done
