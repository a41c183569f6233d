#!/usr/bin/env bash
# Builds each libFuzzer target (Fuzz/, over the parsers of Sources/GstPipeParsing) with -sanitize=fuzzer,address
# and runs it for SECONDS (default 60) from its seed corpus in Fuzz/corpus/NAME, two at a time. Any finding (a
# crash, an assertion of the target, AddressSanitizer's report, an input slower than 10 s) fails the run; its
# input is kept in .build-fuzz/findings/NAME/ (replay it with `swift run NAME FILE`, or the fuzz binary).
# Prints each target's executions.
#
#   scripts/fuzz.sh 60              every target for 60 s
#   scripts/fuzz.sh 30 FuzzRedactor one target
#   scripts/fuzz.sh --build-only    build every target and stop (.ci/run builds them while the tests run)
#   scripts/fuzz.sh --skip-build 60 run what that build made
set -euo pipefail
cd "$(dirname "$0")/.."

mode=all
case ${1:-} in
--build-only) mode=build; shift ;;
--skip-build) mode=run; shift ;;
esac
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzDescription FuzzOffers FuzzUsersFile FuzzURICredentials FuzzRedactor)
scratch=.build-fuzz

# One build folder, so the parsers are compiled once for all targets; each product links its own binary.
for target in "${targets[@]}"; do
    [ "$mode" != run ] || break
    echo "== building $target"
    mkdir -p "$scratch"
    if ! swift build --product "$target" -Xswiftc -sanitize=fuzzer,address --scratch-path "$scratch" \
        >"$scratch/build.log" 2>&1; then
        grep -E "error" "$scratch/build.log" | head -20 >&2
        echo "fuzz: $target did not build" >&2
        exit 1
    fi
    # (The linker's notes on AddressSanitizer's symbols are not ours.)
    grep -v -e "Cannot export local symbol '__asan" -e "'swift-distributed-tracing': found" "$scratch/build.log" \
        | grep -E "warning:|Build" || true
done

[ "$mode" != build ] || exit 0

run() {
    local target=$1
    local work="$scratch/corpus/$target" findings="$scratch/findings/$target" log="$scratch/logs/$target.log"
    mkdir -p "$work" "$findings" "$(dirname "$log")"
    # New inputs go to the work folder (the first); the seeds in the repository are only read. Swift's
    # backtracer stays out of the way: under AddressSanitizer it reads its own stack and is reported.
    if SWIFT_BACKTRACE=enable=no "$scratch/debug/$target" -max_total_time="$seconds" -timeout=10 -max_len=4096 -rss_limit_mb=2048 \
        -artifact_prefix="$findings/" "$work" "Fuzz/corpus/$target" >"$log" 2>&1; then
        echo "$target: $(grep -o 'Done [0-9]* runs in [0-9]* second(s)' "$log" | tail -1 | sed 's/Done/ok,/') "
    else
        echo "$target: FINDING (see $log and $findings/):"
        grep -E "ERROR|Fatal error|SUMMARY|==ERROR|Test unit written" "$log" | head -8
        return 1
    fi
}

# Two at a time: one per core of the CI machine.
failed=0
pids=()
for target in "${targets[@]}"; do
    run "$target" &
    pids+=($!)
    if [ ${#pids[@]} -eq 2 ]; then
        wait "${pids[0]}" || failed=1
        pids=("${pids[1]}")
    fi
done
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
[ $failed -eq 0 ] || { echo "fuzz: a target found a failing input" >&2; exit 1; }
echo "fuzz: no finding in ${#targets[@]} targets, ${seconds} s each"
