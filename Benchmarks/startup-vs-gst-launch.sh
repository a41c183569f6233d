#!/usr/bin/env bash
# Start-up against gst-launch-1.0: the same one-buffer pipeline, alternating, pair after pair:
#
#   A  gst-launch-1.0 -q videotestsrc num-buffers=1 ! fakesink
#   B  gstpipe -q noise num-buffers=1 ! fakesink
#
# and prints, for wall time and for peak memory (the process's maximum resident set), the median of
# each and the median of the pairs' ratios B / A with its spread (quartiles, lowest and highest), and
# the median difference of the peaks in MB; CPU time (user + system, all threads) beside them, which a
# loaded machine disturbs less than wall time. Interleaving makes both sides meet the same load: on a
# shared machine the ratio moves far less than either time.
#
#   Benchmarks/startup-vs-gst-launch.sh [PAIRS]
#
# PAIRS defaults to 15. GSTPIPE=path/to/gstpipe times that binary (another build, an older commit's);
# without it the script builds the release binary the README tells daily users to build
# (--static-swift-stdlib, in .build-static). Each side runs once unmeasured first, so that both start
# from the page cache. A small C program (built with cc into a temporary folder) forks, execs and
# waits for each run and reports its wall time and wait4's peak: Linux keeps the larger peak across
# exec, so a child forked from Python itself would report Python's memory for gst-launch-1.0.
set -euo pipefail
cd "$(dirname "$0")/.."
PAIRS=${1:-15}
if ! [[ "$PAIRS" =~ ^[0-9]+$ ]] || ((PAIRS < 1)); then
    echo "error: PAIRS must be a whole number of 1 or more, not '$PAIRS'" >&2
    exit 2
fi
command -v gst-launch-1.0 >/dev/null || { echo "error: gst-launch-1.0 is missing: apt-get install gstreamer1.0-tools" >&2; exit 1; }
command -v cc >/dev/null || { echo "error: cc is missing: apt-get install gcc" >&2; exit 1; }
GSTPIPE=${GSTPIPE:-}
if [[ -z "$GSTPIPE" ]]; then
    swift build -c release --static-swift-stdlib --scratch-path .build-static --product gstpipe >&2
    GSTPIPE="$(swift build -c release --static-swift-stdlib --scratch-path .build-static --show-bin-path)/gstpipe"
fi
[[ -x "$GSTPIPE" ]] || { echo "error: $GSTPIPE is not an executable: give GSTPIPE=path/to/gstpipe" >&2; exit 1; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cat > "$WORK/measure.c" <<'CODE'
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* measure COMMAND...: runs it (its standard output to /dev/null), prints "WALL_S CPU_S PEAK_KB", exits as it did. */
int main(int argc, char **argv) {
    if (argc < 2) return 2;
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t child = fork();
    if (child == 0) {
        if (!freopen("/dev/null", "w", stdout)) _exit(127);
        execvp(argv[1], argv + 1);
        perror(argv[1]);
        _exit(127);
    }
    int status;
    struct rusage usage;
    if (child < 0 || wait4(child, &status, 0, &usage) < 0) { perror("measure"); return 1; }
    clock_gettime(CLOCK_MONOTONIC, &end);
    double cpu = usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    printf("%.6f %.6f %ld\n", (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9, cpu, usage.ru_maxrss);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
CODE
cc -O2 -o "$WORK/measure" "$WORK/measure.c"

python3 - "$PAIRS" "$GSTPIPE" "$WORK/measure" <<'CODE'
import statistics, subprocess, sys

sys.path.insert(0, "Benchmarks")  # The scripts run from the repository's root.
from pair_stats import spread  # noqa: E402

pairs, gstpipe, measure = int(sys.argv[1]), sys.argv[2], sys.argv[3]
commands = {
    "gst-launch-1.0": ["gst-launch-1.0", "-q", "videotestsrc", "num-buffers=1", "!", "fakesink"],
    "gstpipe": [gstpipe, "-q", "noise", "num-buffers=1", "!", "fakesink"],
}

def run(name):
    """Wall seconds, CPU seconds (user + system, all threads) and peak resident MB of one run; exits when it fails."""
    result = subprocess.run([measure] + commands[name], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"error: {' '.join(commands[name])} exited {result.returncode}:\n{result.stderr}")
    wall, cpu, peak = result.stdout.split()
    return float(wall), float(cpu), int(peak) / 1024

for name in commands:
    run(name)
times = {name: [] for name in commands}
cpus = {name: [] for name in commands}
peaks = {name: [] for name in commands}
for _ in range(pairs):
    for name in commands:
        wall, cpu, peak = run(name)
        times[name].append(wall)
        cpus[name].append(cpu)
        peaks[name].append(peak)

a, b = "gst-launch-1.0", "gstpipe"
time_ratios = [y / x for x, y in zip(times[a], times[b])]
cpu_ratios = [y / max(x, 0.001) for x, y in zip(cpus[a], cpus[b])]
peak_ratios = [y / x for x, y in zip(peaks[a], peaks[b])]
peak_extra = [y - x for x, y in zip(peaks[a], peaks[b])]
print(f"startup-vs-gst-launch: {pairs} interleaved pairs, {gstpipe}")
print(f"  A: {' '.join(commands[a])}")
print(f"  B: gstpipe {' '.join(commands[b][1:])}")
print()
print("| measure | gstpipe | gst-launch-1.0 | median ratio | spread of the ratios |")
print("|---|---|---|---|---|")
print(f"| wall time | {statistics.median(times[b]) * 1000:.0f} ms | {statistics.median(times[a]) * 1000:.0f} ms "
      f"| {statistics.median(time_ratios):.2f}x | {spread(time_ratios)} |")
print(f"| CPU time (user + system) | {statistics.median(cpus[b]) * 1000:.0f} ms | {statistics.median(cpus[a]) * 1000:.0f} ms "
      f"| {statistics.median(cpu_ratios):.2f}x | {spread(cpu_ratios)} |")
print(f"| peak memory (max RSS) | {statistics.median(peaks[b]):.1f} MB | {statistics.median(peaks[a]):.1f} MB "
      f"| {statistics.median(peak_ratios):.2f}x | {spread(peak_ratios)} |")
print()
print(f"peak memory above gst-launch-1.0's: median {statistics.median(peak_extra):.1f} MB "
      f"({min(peak_extra):.1f}-{max(peak_extra):.1f} MB)")
CODE
