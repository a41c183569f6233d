#!/usr/bin/env bash
# Every clip in ../shared/media through the file job and through ffmpeg doing the same:
#
#   gstpipe CLIP ! gray ! OUT.mp4
#   ffmpeg -i CLIP -vf format=gray -c:v libx264 -c:a aac OUT.mp4
#
# and what each output keeps, read with ffprobe: exit status, video frames (against the input's,
# as ffprobe decodes it: ffmpeg's MP4 output repeats and drops frames to keep a constant rate),
# audio, the size shown (display matrix applied), the sample aspect ratio, the metadata lost
# (title, artist, comment, date, creation time, audio language: those the input has and the output
# lacks), and the wall time of one run.
#
#   Benchmarks/clips-vs-ffmpeg.sh [CLIP...]
#
# GSTPIPE=path/to/gstpipe runs that binary instead of building a release one.
set -uo pipefail
cd "$(dirname "$0")/.."

command -v ffmpeg >/dev/null || { echo "ffmpeg is not installed: sudo apt-get install ffmpeg" >&2; exit 1; }
gstpipe=${GSTPIPE:-}
if [ -z "$gstpipe" ]; then
    swift build -c release --static-swift-stdlib --scratch-path .build-static --product gstpipe >/dev/null || exit 1
    gstpipe=$(swift build -c release --static-swift-stdlib --scratch-path .build-static --show-bin-path)/gstpipe
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

clips=("$@")
if [ ${#clips[@]} -eq 0 ]; then
    [ -d ../shared/media ] || { echo "../shared/media is absent: give clips as arguments" >&2; exit 1; }
    for clip in ../shared/media/*; do
        case "$clip" in *.md) continue ;; esac
        clips+=("$clip")
    done
fi

probe() { ffprobe -v error "$@" 2>/dev/null; }
# Video frames as ffprobe decodes them, or "-".
value() { probe -select_streams "$1" -show_entries "$2" -of default=nw=1:nk=1 "${@:3}" | head -1; }
frames() { local n; n=$(value v:0 stream=nb_read_frames -count_frames "$1"); echo "${n:--}"; }
audio() { [ -n "$(probe -select_streams a -show_entries stream=index -of csv=p=0 "$1")" ] && echo yes || echo no; }
# WIDTHxHEIGHT as shown: swapped when the display matrix turns it a quarter.
shown() {
    local w h r
    w=$(value v:0 stream=width "$1"); h=$(value v:0 stream=height "$1")
    r=$(value v:0 stream_side_data=rotation "$1")
    [ -z "$w" ] && { echo "-"; return; }
    case "${r#-}" in 90|270) echo "${h}x${w} (matrix)" ;; *) echo "${w}x${h}" ;; esac
}
sar() { local s; s=$(value v:0 stream=sample_aspect_ratio "$1"); echo "${s:--}"; }
# key=value lines of what is compared: the container's descriptive tags and each audio track's language.
tags() {
    probe -show_entries format_tags=title,artist,comment,date,creation_time -of default=nw=1 "$1" | sed 's/^TAG://'
    probe -select_streams a -show_entries stream_tags=language -of default=nw=1 "$1" | sed 's/^TAG:/audio /' \
        | grep -v '=und$' | sed 's/=fre$/=fra/; s/=ger$/=deu/'
}
# The tag names the input has and the output has not (or has with another value), or "-".
lost() {
    local key value lost=""
    while IFS= read -r line; do
        key=${line%%=*}; value=${line#*=}
        grep -qxF -- "$key=$value" <(tags "$2") || lost+="${lost:+, }$key"
    done < <(tags "$1")
    echo "${lost:--}"
}
seconds() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", b - a}'; }

echo "Each clip once through gstpipe and ffmpeg, $(nproc) cores, $(ffmpeg -version | head -1 | cut -d' ' -f1-3)," \
    "GStreamer $(gst-launch-1.0 --version | sed -n 's/^GStreamer //p')"
echo
echo "| clip | input frames · audio · shown · SAR · metadata | exit | frames | audio | shown | SAR | metadata lost | time |"
echo "|---|---|---|---|---|---|---|---|---|"
for clip in "${clips[@]}"; do
    name=$(basename "$clip")
    input="$(frames "$clip") · $(audio "$clip") · $(shown "$clip") · $(sar "$clip") · $(tags "$clip" | cut -d= -f1 | paste -sd, | sed 's/^$/-/')"
    rm -f "$work/g.mp4" "$work/f.mp4"
    start=$(date +%s.%N)
    "$gstpipe" -q "$clip" ! gray ! "$work/g.mp4" >/dev/null 2>"$work/g.err"
    gstatus=$?
    gtime=$(seconds "$start" "$(date +%s.%N)")
    start=$(date +%s.%N)
    ffmpeg -v error -y -i "$clip" -vf format=gray -c:v libx264 -c:a aac "$work/f.mp4" >/dev/null 2>"$work/f.err"
    fstatus=$?
    ftime=$(seconds "$start" "$(date +%s.%N)")
    row() { # gstpipe's value / ffmpeg's value, or one value when they agree
        [ "$1" = "$2" ] && echo "$1" || echo "**$1** / $2"
    }
    out() { [ -s "$1" ] && "$2" "$1" || echo "-"; }
    outlost() { [ -s "$1" ] && lost "$clip" "$1" || echo "-"; }
    printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s / %s s |\n" "$name" "$input" \
        "$(row "$gstatus" "$fstatus")" \
        "$(row "$(out "$work/g.mp4" frames)" "$(out "$work/f.mp4" frames)")" \
        "$(row "$(out "$work/g.mp4" audio)" "$(out "$work/f.mp4" audio)")" \
        "$(row "$(out "$work/g.mp4" shown)" "$(out "$work/f.mp4" shown)")" \
        "$(row "$(out "$work/g.mp4" sar)" "$(out "$work/f.mp4" sar)")" \
        "$(row "$(outlost "$work/g.mp4")" "$(outlost "$work/f.mp4")")" \
        "$gtime" "$ftime"
    if [ "$gstatus" -ne 0 ] || [ "$fstatus" -ne 0 ]; then
        echo "    $name: gstpipe: $(head -c 300 "$work/g.err" | tr '\n' ' ') | ffmpeg: $(head -c 300 "$work/f.err" | tr '\n' ' ')" >&2
    fi
done
echo
echo "Cells read gstpipe / ffmpeg where they differ (gstpipe's in bold), one value where they agree."
