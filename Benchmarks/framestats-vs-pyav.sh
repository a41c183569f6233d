#!/usr/bin/env bash
# Reads every frame of a 1080p H.264 clip into code that takes the mean luma of each frame, four
# ways, in the same run on the same clip, alternating, and prints medians and ratios:
#
#   decode   gst-launch-1.0 filesrc ! decodebin ! fakesink sync=false   (decoding alone)
#   gstpipe  Examples/FrameStats (release build): `for try await frame in pipeline.frames(...)`
#   pyav     PyAV: container.decode(video=0), numpy mean over plane 0
#   opencv   OpenCV: VideoCapture.read(), cvtColor to gray, mean
#
#   Benchmarks/framestats-vs-pyav.sh [RUNS] [CLIP]
#
# Beneath the table, gstpipe against PyAV run by run: the median of the runs' own ratios and their spread.
#
# RUNS defaults to 5. CLIP defaults to a 1080p H.264 clip made once from
# ../shared/media/moviepy__big_buck_bunny_0_30.webm (300 frames, scaled, x264enc 8 Mbit/s), or from
# videotestsrc when that file is missing. PYTHON (default ../venv-bench/bin/python, else python3) must
# import av, cv2 and numpy:
#   python3 -m venv ../venv-bench && ../venv-bench/bin/pip install av opencv-python-headless numpy
#
# Wall time is what the ratios use; CPU time (user + system, all threads) is printed beside it, since
# on a shared machine wall time also counts waiting for a core.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-5}
CLIP=${2:-}
ROOT=$(pwd)
PYTHON=${PYTHON:-}
if [[ -z "$PYTHON" ]]; then
    if [[ -x "$ROOT/../venv-bench/bin/python" ]]; then PYTHON="$ROOT/../venv-bench/bin/python"; else PYTHON=python3; fi
fi
if ! "$PYTHON" -c "import av, cv2, numpy" 2>/dev/null; then
    echo "error: $PYTHON cannot import av, cv2 and numpy; see the comment at the top of $0" >&2
    exit 2
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

if [[ -z "$CLIP" ]]; then
    CLIP="${TMPDIR:-/tmp}/framestats-1080p.mp4"
    if [[ ! -s "$CLIP" ]]; then
        SOURCE_CLIP="$ROOT/../shared/media/moviepy__big_buck_bunny_0_30.webm"
        if [[ -f "$SOURCE_CLIP" ]]; then
            SOURCE="filesrc location=$SOURCE_CLIP ! decodebin ! videoconvert ! videoscale"
        else
            SOURCE="videotestsrc pattern=ball num-buffers=300"
        fi
        echo "making $CLIP (1920x1080 H.264, 300 frames)..." >&2
        gst-launch-1.0 -q $SOURCE ! video/x-raw,width=1920,height=1080,format=I420 ! identity eos-after=300 \
            ! x264enc speed-preset=veryfast bitrate=8000 key-int-max=60 ! video/x-h264,profile=high \
            ! mp4mux ! filesink location="$CLIP.part"
        mv "$CLIP.part" "$CLIP"
    fi
fi

# FRAMESTATS=path times another build of the example (an older commit's, to compare).
if [[ -z "${FRAMESTATS:-}" ]]; then
    swift build -c release --product FrameStats >&2
    FRAMESTATS="$(swift build -c release --show-bin-path)/FrameStats"
fi

cat > "$WORK/pyav_luma.py" <<'EOF'
import sys, av, numpy as np
count = 0
with av.open(sys.argv[1]) as container:
    for frame in container.decode(video=0):
        plane = frame.planes[0]
        luma = np.frombuffer(plane, np.uint8).reshape(plane.height, plane.line_size)[:, :plane.width]
        mean = luma.mean()
        count += 1
print(count, "frames")
EOF
cat > "$WORK/opencv_luma.py" <<'EOF'
import sys, cv2
capture = cv2.VideoCapture(sys.argv[1])
count = 0
while True:
    ok, image = capture.read()
    if not ok:
        break
    mean = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).mean()
    count += 1
print(count, "frames")
EOF

NAMES=(decode gstpipe pyav opencv)
command_for() {
    case $1 in
    decode) echo gst-launch-1.0 -q filesrc location="$CLIP" ! decodebin ! fakesink sync=false ;;
    gstpipe) echo "$FRAMESTATS" "$CLIP" ;;
    pyav) echo "$PYTHON" "$WORK/pyav_luma.py" "$CLIP" ;;
    opencv) echo "$PYTHON" "$WORK/opencv_luma.py" "$CLIP" ;;
    esac
}

# One line per run and way: "name wall cpu".
for ((run = 0; run < RUNS; run++)); do
    for name in "${NAMES[@]}"; do
        # shellcheck disable=SC2046
        /usr/bin/time -f "$name %e %U %S" -a -o "$WORK/times" $(command_for "$name") > "$WORK/out-$name" 2>&1 || {
            echo "error: $name failed:" >&2
            cat "$WORK/out-$name" >&2
            exit 1
        }
    done
done

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
declare -A WALL CPU
for name in "${NAMES[@]}"; do
    WALL[$name]=$(awk -v n="$name" '$1 == n { print $2 }' "$WORK/times" | median)
    CPU[$name]=$(awk -v n="$name" '$1 == n { print $3 + $4 }' "$WORK/times" | median)
done

FRAMES=$(grep -o '^[0-9]* frames' "$WORK/out-gstpipe" | head -1 || true)
echo "framestats-vs-pyav: $CLIP ($FRAMES), median of $RUNS runs, $(gst-launch-1.0 --version | sed -n 2p | sed 's/.*version //'), PyAV $("$PYTHON" -c 'import av; print(av.__version__)'), OpenCV $("$PYTHON" -c 'import cv2; print(cv2.__version__)')"
echo
echo "| way | wall | CPU (user + sys) | wall vs decoding alone | wall vs PyAV | CPU vs decoding alone | CPU vs PyAV |"
echo "|---|---|---|---|---|---|---|"
for name in "${NAMES[@]}"; do
    awk -v n="$name" -v w="${WALL[$name]}" -v c="${CPU[$name]}" -v dw="${WALL[decode]}" -v dc="${CPU[decode]}" \
        -v pw="${WALL[pyav]}" -v pc="${CPU[pyav]}" \
        'BEGIN { printf "| %s | %.2f s | %.2f s | %.2fx | %.2fx | %.2fx | %.2fx |\n", n, w, c, w / dw, w / pw, c / dc, c / pc }'
done

# Each run's own ratio of gstpipe to PyAV (the two ran one after the other in the run, so a load that came and
# went met both): the median and the spread, to compare two builds on a noisy machine.
paste -d' ' <(awk '$1 == "gstpipe" { print $2, $3 + $4 }' "$WORK/times") \
    <(awk '$1 == "pyav" { print $2, $3 + $4 }' "$WORK/times") | awk '{ print $1 / $3, $2 / $4 }' > "$WORK/ratios"
spread() { sort -g | awk '{ v[NR] = $1 } END { printf "median %.2fx (lowest %.2fx, highest %.2fx)", v[int((NR + 1) / 2)], v[1], v[NR] }'; }
echo
echo "gstpipe / PyAV, run by run: wall $(cut -d' ' -f1 "$WORK/ratios" | spread); CPU $(cut -d' ' -f2 "$WORK/ratios" | spread)"
