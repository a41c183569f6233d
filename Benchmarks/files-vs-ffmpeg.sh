#!/usr/bin/env bash
# The file job against ffmpeg doing the same, in the same run, on the same clips:
#
#   gstpipe IN ! gray ! OUT.mp4
#   ffmpeg -i IN -vf format=gray -c:v libx264 -c:a aac OUT.mp4
#
# Prints the median wall time of each (runs alternate), the ratio, and the output sizes.
#
# Both write monochrome H.264 (4:0:0): ffmpeg hands libx264 gray frames, gstpipe's gray feeds
# x264grayenc. The chroma format column checks that (from h264parse's caps).
# Clips: ../shared/media when present, else one made here with GStreamer (video and audio).
#
#   Benchmarks/files-vs-ffmpeg.sh [RUNS] [CLIP...]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
shift || true

command -v ffmpeg >/dev/null || { echo "ffmpeg is not installed: sudo apt-get install ffmpeg" >&2; exit 1; }
# Built as a release binary is shipped on Linux: the Swift runtime and Foundation linked in
# (--static-swift-stdlib), which saves ~10 ms of symbol binding at each start.
swift build -c release --static-swift-stdlib --scratch-path .build-static --product gstpipe >/dev/null
gstpipe=$(swift build -c release --static-swift-stdlib --scratch-path .build-static --show-bin-path)/gstpipe
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

clips=("$@")
if [ ${#clips[@]} -eq 0 ]; then
    media=../shared/media
    for name in moviepy__chaplin.mp4 mmcv__test.mp4 moviepy__fire2.mp4 pymediainfo__sample.mp4 filetype__sample.mkv \
        moviepy__big_buck_bunny_0_30.webm; do
        [ -f "$media/$name" ] && clips+=("$media/$name")
    done
    if [ ${#clips[@]} -eq 0 ]; then
        echo "(../shared/media is absent: using a clip made here)"
        gst-launch-1.0 -q videotestsrc num-buffers=300 pattern=ball ! video/x-raw,width=1280,height=720,framerate=30/1 \
            ! x264enc ! mp4mux name=m ! filesink location="$work/made.mp4" \
            audiotestsrc num-buffers=470 ! avenc_aac ! m.
        clips=("$work/made.mp4")
    fi
fi

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
seconds() { local start end; start=$(date +%s.%N); "$@" >/dev/null 2>&1; end=$(date +%s.%N); awk -v a="$start" -v b="$end" 'BEGIN {print b - a}'; }
divide() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }

echo "gstpipe vs ffmpeg, median of $runs runs each, $(nproc) cores, $(ffmpeg -version | head -1 | cut -d' ' -f1-3)"
echo
echo "| clip | gstpipe | ffmpeg | time ratio | gstpipe size | ffmpeg size | size ratio | chroma |"
echo "|---|---|---|---|---|---|---|---|"
for clip in "${clips[@]}"; do
    : >"$work/g"; : >"$work/f"
    for _ in $(seq "$runs"); do
        seconds "$gstpipe" -q "$clip" ! gray ! "$work/g.mp4" >>"$work/g"
        seconds ffmpeg -v error -y -i "$clip" -vf format=gray -c:v libx264 -c:a aac "$work/f.mp4" >>"$work/f"
    done
    g=$(median <"$work/g"); f=$(median <"$work/f")
    gs=$(stat -c %s "$work/g.mp4"); fs=$(stat -c %s "$work/f.mp4")
    chroma=$(gst-launch-1.0 -v filesrc location="$work/g.mp4" ! qtdemux ! h264parse ! fakesink num-buffers=1 2>/dev/null \
        | grep -o 'chroma-format=(string)[0-9:]*' | head -1 | cut -d')' -f2 || true)
    printf "| %s | %.2f s | %.2f s | %s | %d KB | %d KB | %s | %s |\n" "$(basename "$clip")" "$g" "$f" \
        "$(divide "$g" "$f")" $((gs / 1024)) $((fs / 1024)) "$(divide "$gs" "$fs")" "$chroma"
done
