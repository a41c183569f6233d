#!/usr/bin/env bash
# How many RTSP clients one gstpipe process serves on this machine before frames are lost.
#
# gstpipe serves a live 640x360 gray test pattern at 30 fps (rtsp://127.0.0.1:PORT/bench). For each
# count of clients, that many ffmpeg clients (RTP over TCP, -c copy: they count frames without
# decoding, so that they cost this machine little) read for SECONDS; then the script prints the
# frames each client got (each reads SECONDS of the stream's time: 30 frames a second when none is
# lost), and gstpipe's CPU time (user + system, as a share of one core, over the whole round, the
# clients' connecting included) and resident memory meanwhile. The clients run on the same machine: their
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

printf "%8s %22s %14s %12s\n" clients "frames in ${seconds} s" "server CPU" "server RSS"
printf "%8s %22s %14s %9s MB\n" 0 "(sent: $((seconds * 30)))" - "$(($(rss) / 1024))"
for count in "${counts[@]}"; do
    pids=()
    start_cpu=$(cpu)
    started=$(date +%s.%N)
    for i in $(seq 1 "$count"); do
        # -t: each client reads that much of the stream's time, so a frame lost anywhere shows.
        ffmpeg -hide_banner -nostdin -loglevel fatal -rtsp_transport tcp -i "rtsp://127.0.0.1:$port/bench" \
            -t "$seconds" -c copy -f null - -progress "$work/client$i.txt" &
        pids+=($!)
    done
    sleep "$((seconds / 2))"
    peak_rss=$(rss)
    wait "${pids[@]}" || true
    end_cpu=$(cpu)
    elapsed=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN {print b - a}')
    total=0
    least=999999
    for i in $(seq 1 "$count"); do
        got=$(grep -o '^frame=[0-9]*' "$work/client$i.txt" | tail -1 | cut -d= -f2 || echo 0)
        total=$((total + got))
        ((got < least)) && least=$got
    done
    cpu_share=$(awk -v d=$((end_cpu - start_cpu)) -v t="$ticks" -v s="$elapsed" 'BEGIN {printf "%.1f", d / t / s * 100}')
    printf "%8s %22s %13s%% %9s MB\n" "$count" "mean $((total / count)), least $least" "$cpu_share" \
        "$((peak_rss / 1024))"
    sleep 2
done
