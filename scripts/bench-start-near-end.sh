#!/usr/bin/env bash
# Time to first frame for --start near the end of a long file, gstpipe against ffmpeg, measured in
# the same run on the same file. Makes a long 640x360 H.264+AAC MP4 (a key frame every
# 2 s), then for each tool writes one frame from START and times it, best of REPEATS runs; a decode
# from the file's beginning would take the whole file's decoding time instead.
# Usage: scripts/bench-start-near-end.sh [MINUTES=10] [REPEATS=3]
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-10}
repeats=${2:-3}
gstpipe=${GSTPIPE:-.build/debug/gstpipe}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
frames=$((minutes * 60 * 30))
input="$work/long.mp4"
gst-launch-1.0 -q videotestsrc num-buffers=$frames pattern=ball ! \
    video/x-raw,width=640,height=360,framerate=30/1 ! timeoverlay ! \
    x264enc speed-preset=ultrafast key-int-max=60 ! mp4mux name=m ! filesink location="$input" \
    audiotestsrc num-buffers=$((minutes * 60 * 48000 / 1024)) samplesperbuffer=1024 ! audio/x-raw,rate=48000 ! \
    audioconvert ! avenc_aac ! m.
start=$((minutes * 60 - 5)).5
best() { # best wall time in seconds of REPEATS runs of "$@"
    local best=999999
    for _ in $(seq "$repeats"); do
        local t0 t1
        t0=$(date +%s.%N)
        "$@" >/dev/null 2>&1
        t1=$(date +%s.%N)
        best=$(echo "$t1 - $t0" | bc -l | awk -v b="$best" '{print ($1 < b) ? $1 : b}')
    done
    echo "$best"
}
ours=$(best "$gstpipe" -q "$input" --start "$start" --duration 0.0333 --no-audio ! "$work/one.png")
theirs=$(best ffmpeg -v error -y -ss "$start" -i "$input" -frames:v 1 "$work/one-ffmpeg.png")
whole=$(best ffmpeg -v error -y -i "$input" -an -f null -)
printf 'file: %d min (%d frames); first frame at %s s\n' "$minutes" "$frames" "$start"
printf 'gstpipe --start: %.3f s   ffmpeg -ss: %.3f s   ratio gstpipe/ffmpeg: %.2f\n' "$ours" "$theirs" \
    "$(echo "$ours / $theirs" | bc -l)"
printf 'decoding the whole file (ffmpeg, for scale): %.3f s\n' "$whole"
