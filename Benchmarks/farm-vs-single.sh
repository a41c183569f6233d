#!/usr/bin/env bash
# The farm against one plain run on the same file, alternating, pair after pair:
#
#   A  gstpipe IN ! gray ! OUT.mkv                                      (one process, audio included)
#   B  farm/local --workers W -- IN ! gray ! OUT.mkv --segment-seconds S (Redis, W workers and farm/run)
#
# and prints the median of each side, the median of the pairs' ratios B / A and their spread, for the farm in
# all (Redis and the workers started and stopped) and for farm/run alone (farm/local's `farm wall seconds`:
# from its start, beside the workers', to the joined file). On one machine the workers share its cores: the
# ratio is the farm's overhead, not a speed-up.
#
#   Benchmarks/farm-vs-single.sh [PAIRS [SECONDS [SEGMENT_SECONDS [WORKERS]]]]
#
# Defaults: 5 pairs, a 120 s 640x360 25 fps input with audio (made with ffmpeg), 20 s segments, 1 worker.
# GSTPIPE=path/to/gstpipe times that binary; without it the script builds the release binary the README tells
# daily users to build (--static-swift-stdlib, in .build-static). Needs root (each farm runs in a network
# namespace of its own, `unshare -n`), redis-server and Debian's python3-celery (scripts/setup.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/.."
PAIRS=${1:-5}
SECONDS_OF_INPUT=${2:-120}
SEGMENT=${3:-20}
WORKERS=${4:-1}
for value in "$PAIRS" "$SECONDS_OF_INPUT" "$SEGMENT" "$WORKERS"; do
    if ! [[ "$value" =~ ^[0-9]+$ ]] || ((value < 1)); then
        echo "error: PAIRS, SECONDS, SEGMENT_SECONDS and WORKERS are whole numbers of 1 or more, not '$value'" >&2
        exit 2
    fi
done
for tool in ffmpeg redis-server unshare; do
    command -v "$tool" >/dev/null || { echo "error: $tool is missing: run scripts/setup.sh" >&2; exit 1; }
done
/usr/bin/python3 -c "import celery" 2>/dev/null || { echo "error: python3-celery is missing: run scripts/setup.sh" >&2; exit 1; }
[[ $(id -u) == 0 ]] || { echo "error: the farm runs in a network namespace of its own: run as root" >&2; exit 1; }
GSTPIPE=${GSTPIPE:-}
if [[ -z "$GSTPIPE" ]]; then
    swift build -c release --static-swift-stdlib --scratch-path .build-static --product gstpipe >&2
    GSTPIPE="$(swift build -c release --static-swift-stdlib --scratch-path .build-static --show-bin-path)/gstpipe"
fi
[[ -x "$GSTPIPE" ]] || { echo "error: $GSTPIPE is not an executable: give GSTPIPE=path/to/gstpipe" >&2; exit 1; }
GSTPIPE=$(realpath "$GSTPIPE")

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
ffmpeg -hide_banner -nostdin -v error -f lavfi -i testsrc2=size=640x360:rate=25 \
    -f lavfi -i sine=frequency=440:sample_rate=48000 -t "$SECONDS_OF_INPUT" -c:v libx264 -preset ultrafast -g 50 \
    -c:a aac -shortest "$WORK/in.mp4"

python3 - "$PAIRS" "$SEGMENT" "$WORKERS" "$GSTPIPE" "$WORK" "$SECONDS_OF_INPUT" <<'CODE'
import os, re, statistics, subprocess, sys, time

sys.path.insert(0, "Benchmarks")  # The scripts run from the repository's root.
from pair_stats import spread  # noqa: E402

pairs, segment, workers, gstpipe, work, seconds = sys.argv[1:]
pairs, workers = int(pairs), int(workers)
source = os.path.join(work, "in.mp4")

def timed(command):
    """Wall seconds of `command` and its standard error; exits when it fails."""
    start = time.monotonic()
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.monotonic() - start
    if result.returncode != 0:
        sys.exit(f"error: {' '.join(command)} exited {result.returncode}:\n{result.stderr[-3000:]}")
    return elapsed, result.stderr

def single():
    output = os.path.join(work, "single.mkv")
    elapsed, _ = timed([gstpipe, source, "!", "gray", "!", output])
    os.unlink(output)
    return elapsed

def farm():
    """The farm's wall seconds in all, and farm/run's own (`farm wall seconds` of farm/local)."""
    output = os.path.join(work, "farm.mkv")
    inner = (f"ip link set lo up && exec farm/local --workers {workers} --port 6379 --gstpipe '{gstpipe}' -- "
             f"'{source}' ! gray ! '{output}' --segment-seconds {segment}")
    elapsed, errors = timed(["unshare", "-n", "sh", "-c", inner])
    run = float(re.search(r"farm wall seconds ([0-9.]+)", errors).group(1))
    os.unlink(output)
    return elapsed, run

# Each side once unmeasured, so that both start from the page cache.
single()
farm()
singles, in_all, runs = [], [], []
for _ in range(pairs):
    singles.append(single())
    everything, run = farm()
    in_all.append(everything)
    runs.append(run)

print(f"farm-vs-single: {pairs} interleaved pairs, {seconds} s of 640x360 with audio, {segment} s segments, "
      f"{workers} worker(s), {os.cpu_count()} cores, {gstpipe}")
print()
print("| measure | farm | single run | median ratio | spread of the ratios |")
print("|---|---|---|---|---|")
for name, values in (("farm in all (Redis and workers started)", in_all), ("farm/run alone", runs)):
    ratios = [farm_time / single_time for farm_time, single_time in zip(values, singles)]
    print(f"| {name} | {statistics.median(values):.2f} s | {statistics.median(singles):.2f} s "
          f"| {statistics.median(ratios):.2f}x | {spread(ratios)} |")
CODE
