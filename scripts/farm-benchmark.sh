#!/usr/bin/env bash
# Wall time of one file through `gray` on one machine (plain gstpipe) and through the farm with one
# and with two workers (farm/local: Redis and the workers on this machine, in a network namespace of
# their own), the "Many machines" article's figures. On one machine the workers share its cores: the
# farm's figures show its overhead, not a speed-up.
#   scripts/farm-benchmark.sh [SECONDS [SEGMENT_SECONDS]]   (defaults: 120 s of 640x360, 20 s segments)
# GSTPIPE=path/to/gstpipe times that binary (the static release build, say); without it, the release build in
# .build if there is one, else the debug build.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-120}
segment=${2:-20}
gstpipe=$PWD/.build/debug/gstpipe
[ -x .build/release/gstpipe ] && gstpipe=$PWD/.build/release/gstpipe
[ -n "${GSTPIPE:-}" ] && gstpipe=$(realpath "$GSTPIPE")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ffmpeg -hide_banner -nostdin -v error -f lavfi -i testsrc2=size=640x360:rate=25 \
    -f lavfi -i sine=frequency=440:sample_rate=48000 -t "$seconds" -c:v libx264 -preset ultrafast -g 50 \
    -c:a aac -shortest "$work/in.mp4"
echo "input: $seconds s of 640x360 at 25 fps with audio; segments of $segment s; gstpipe: $gstpipe; $(nproc) cores"
elapsed() { local start=$(date +%s.%N); "$@" >/dev/null 2>"$work/log" || { cat "$work/log" >&2; exit 1; }
    echo "$(date +%s.%N) - $start" | bc; }
single=$(elapsed "$gstpipe" "$work/in.mp4" ! gray ! "$work/single.mkv")
echo "single machine: ${single} s; load average $(cut -d' ' -f1 /proc/loadavg)"
for workers in 1 2; do
    farmed=$(elapsed unshare -n sh -c "ip link set lo up && exec farm/local --workers $workers --port 6379 \
        --gstpipe '$gstpipe' -- '$work/in.mp4' ! gray ! '$work/farm-$workers.mkv' --segment-seconds $segment")
    run=$(grep -o 'farm wall seconds [0-9.]*' "$work/log" | grep -o '[0-9.]*$')
    segments=$(grep -o 'segments in [0-9.]* s' "$work/log" | grep -o '[0-9.]* s$')
    echo "farm, $workers worker(s): ${farmed} s in all (Redis and workers started), farm/run ${run} s," \
        "its segments ${segments}; load average $(cut -d' ' -f1 /proc/loadavg)"
done
