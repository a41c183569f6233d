#!/usr/bin/env bash
# Runs the test suite under a sanitizer, in a build folder of its own (.build-address, .build-thread):
#
#   scripts/sanitize.sh address [swift test options...]    # AddressSanitizer + LeakSanitizer
#   scripts/sanitize.sh thread  [swift test options...]    # ThreadSanitizer
#
# Extra options go to `swift test`, e.g. `scripts/sanitize.sh thread --filter MediaIOTests`.
# SANITIZE_LEAKS=0 with address: memory errors alone, much faster (see below).
# `--build-only` as the second argument builds and stops; `--skip-build` there runs what an earlier build made
# (.ci/run builds both sanitizers while the plain tests run).
# The gstpipe binary the CLI tests run is built with the same sanitizer, so its runs are checked too.
# Suppressions, each with its reason: scripts/lsan.supp, scripts/tsan.supp.
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-address}
shift || true
mode=all
case ${1:-} in
--build-only) mode=build; shift ;;
--skip-build) mode=test; shift ;;
esac
root=$PWD
extra=()
# GLib 2.74's slice allocator hands a freed block to the next allocation on any thread from caches of
# its own: ASan would not see a use after free there, and TSan takes a reused GstBuffer for a race
# between its old and new owner. With plain malloc and free both see what happens.
export G_SLICE=always-malloc

case $kind in
address)
    # Full stacks (GLib and GStreamer have no frame pointers), needed for the suppressions to match.
    # exitcode=86: a report in a gstpipe child must not pass for exit 1 (runtime error) in the CLI tests.
    export ASAN_OPTIONS=fast_unwind_on_malloc=0:detect_leaks=1:exitcode=86
    # SANITIZE_LEAKS=0: memory errors alone, with the fast unwinder. A full stack for every allocation is
    # most of the time of a run (an x264 encode of 50 frames: 121 s against 8 s), and a leak's stack that
    # ends in g_malloc cannot be told from GStreamer's own, so leaks go unchecked in this mode.
    if [ "${SANITIZE_LEAKS:-1}" = 0 ]; then
        export ASAN_OPTIONS=fast_unwind_on_malloc=1:detect_leaks=0:exitcode=86
    fi
    export LSAN_OPTIONS=suppressions=$root/scripts/lsan.supp:print_suppressions=0
    # ASan keeps freed memory in quarantine, resident: the resource test's RSS bound means nothing
    # here (its thread and descriptor counts still hold).
    export GSTPIPE_NO_RSS_BOUND=1
    ;;
thread)
    # report_thread_leaks=0: a thread GLib starts has a creation stack that ends in GLib (no frame pointers
    # there), so no suppression can tell libnice's UPnP thread (gupnp-igd, which finishes unjoined when a
    # webrtcbin's ICE agent goes) from any other. ResourceTests counts the process's threads instead.
    export TSAN_OPTIONS=suppressions=$root/scripts/tsan.supp:print_suppressions=0:halt_on_error=1:second_deadlock_stack=1:exitcode=86:report_thread_leaks=0
    # GSTPIPE_TSAN: our modules lock with a pthread mutex TSan can see instead of Synchronization.Mutex
    # (Sources/GstPipeSupport/Locked.swift says why).
    extra=(-Xswiftc -DGSTPIPE_TSAN)
    # TSan's shadow memory makes RSS meaningless for the resource test's bound.
    export GSTPIPE_NO_RSS_BOUND=1
    ;;
*)
    echo "usage: $0 address|thread [swift test options...]" >&2
    exit 2
    ;;
esac

# The build: the test bundle and the executables tests start (the command line, and the two WebRTC helpers),
# not the sixty examples, tutorials, snippets and fuzz targets `swift test` would also build and link with
# the sanitizer, minutes of a CI run for binaries nothing here runs.
if [ "$mode" != test ]; then
    for product in gstpipePackageTests gstpipe BrowserViewersTone BrowserCall; do
        swift build --product "$product" --sanitize="$kind" --scratch-path ".build-$kind" "${extra[@]}"
    done
fi
[ "$mode" != build ] || exit 0
# Skipped: the plugin tests load the instrumented libgstgstpipe.so into gst-launch-1.0, gst-inspect-1.0
# and python3, which are not built with the sanitizer and cannot host its runtime. The Xvfb window
# test: under ASan's full-stack unwinding (needed for the suppressions) gstpipe deadlocks while the
# video sink dlopens the X and GL libraries (the unwinder and dlopen both take the loader's lock);
# with the fast unwinder it runs, but those libraries' allocations, alive at exit, have no stacks to
# suppress by.
# Guarded as scripts/test.sh guards its runs: a run that hangs has its threads' stacks printed and is killed.
exec "$(dirname "$0")/test-guard.py" "sanitize $kind" -- swift test --skip-build --sanitize="$kind" \
    --scratch-path ".build-$kind" --no-parallel "${extra[@]}" --skip PluginTests --skip UserPluginTests --skip xvfbWindow "$@"
