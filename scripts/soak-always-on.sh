#!/bin/bash
# Leaves gstpipe relaying a camera that dies for MINUTES and reports what a viewer saw.
#
#   scripts/soak-always-on.sh MINUTES [RESTART_EVERY_SECONDS] [OUTAGE_SECONDS]
#
# In a private network namespace (127.0.0.1 only): a gst-rtsp-server camera (Python binding, 320x240 at 30 fps)
# killed with SIGKILL every RESTART_EVERY_SECONDS (default 100, so 10 minutes give 5 restarts) and started again
# after OUTAGE_SECONDS (default 3); gstpipe relays it with --reconnect through gray to rtsp://, recording 10 s
# segments kept for 60 s, with --metrics and --events; an ffmpeg viewer watches the whole time (started again
# if it ever leaves, which counts as a disconnect). At the end it prints frames seen against expected, the
# disconnects, the relay's RSS at start and end, the recordings kept and whether each plays, the restarts done.
# Needs root (unshare -n). GSTPIPE=path picks the binary (default .build/debug/gstpipe). Not part of CI.
set -u
minutes=${1:?usage: scripts/soak-always-on.sh MINUTES [RESTART_EVERY_SECONDS] [OUTAGE_SECONDS]}
every=${2:-100}
outage=${3:-3}
case "$minutes$every$outage" in *[!0-9]*) echo "soak: MINUTES, RESTART_EVERY and OUTAGE are whole numbers" >&2; exit 2;; esac

if [ -z "${SOAK_IN_NAMESPACE:-}" ]; then
    exec env SOAK_IN_NAMESPACE=1 unshare -n "$0" "$@"
fi
ip link set lo up

root=$(cd "$(dirname "$0")/.." && pwd)
gstpipe=${GSTPIPE:-$root/.build/debug/gstpipe}
work=$(mktemp -d /tmp/gstpipe-soak.XXXXXX)
echo "soak: $minutes min, camera killed every $every s for $outage s; files in $work"

camera_py='
import sys, gi
gi.require_version("Gst", "1.0"); gi.require_version("GstRtspServer", "1.0")
from gi.repository import Gst, GstRtspServer, GLib
Gst.init(None)
server = GstRtspServer.RTSPServer(); server.set_address("127.0.0.1"); server.set_service("8554")
factory = GstRtspServer.RTSPMediaFactory()
factory.set_launch("( videotestsrc is-live=true ! video/x-raw,width=320,height=240,framerate=30/1 "
                   "! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=15 ! rtph264pay name=pay0 pt=96 )")
factory.set_shared(True)
server.get_mount_points().add_factory("/cam", factory)
server.attach(None)
GLib.MainLoop().run()
'
wait_tcp() {  # PORT SECONDS
    local end=$((SECONDS + $2))
    while [ $SECONDS -lt $end ]; do
        (exec 3<>/dev/tcp/127.0.0.1/"$1") 2>/dev/null && return 0
        sleep 0.2
    done
    return 1
}
rss_kib() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status" 2>/dev/null; }
metric() { curl -s http://127.0.0.1:9100/metrics | awk -v m="$1" '$1 == m { print $2 }'; }

/usr/bin/python3 -c "$camera_py" 2>"$work/camera.log" & camera=$!
wait_tcp 8554 20 || { echo "soak: the camera did not start" >&2; exit 1; }
mkdir -p "$work/rec"
"$gstpipe" rtsp://127.0.0.1:8554/cam ! gray ! rtsp://127.0.0.1:8555/out --reconnect \
    --record "$work/rec/cam-%Y%m%d-%H%M%S.mp4" --record-segment 10 --record-keep 60s \
    --metrics 127.0.0.1:9100 --events "$work/events.jsonl" >/dev/null 2>"$work/gstpipe.log" & relay=$!
wait_tcp 8555 30 || { echo "soak: the relay did not start: $(cat "$work/gstpipe.log")" >&2; exit 1; }

# The viewer, started again whenever it leaves; each run's last frame count is kept in viewer.N.
(
    n=0
    while true; do
        n=$((n + 1))
        ffmpeg -hide_banner -nostdin -nostats -progress "$work/progress.$n" -rtsp_transport tcp \
            -i rtsp://127.0.0.1:8555/out -f null - 2>"$work/viewer.$n.log"
        echo "$(date +%s) viewer run $n ended ($?)" >>"$work/viewer.exits"
        sleep 1
    done
) & viewers=$!
frames_seen() {
    local total=0 f n
    for f in "$work"/progress.*; do
        [ -e "$f" ] || continue
        n=$(grep -a '^frame=' "$f" | tail -1 | cut -d= -f2)
        total=$((total + ${n:-0}))
    done
    echo $total
}
end=$((SECONDS + 60))
while [ "$(frames_seen)" -lt 30 ] && [ $SECONDS -lt $end ]; do sleep 0.5; done
watch_start=$(date +%s.%N)
frames_start=$(frames_seen)
rss_start=$(rss_kib $relay)
metric_rss_start=$(metric process_resident_memory_bytes)
echo "soak: viewer has $frames_start frames; relay RSS $rss_start KiB"

restarts=0
stop_at=$((SECONDS + minutes * 60))
next=$((SECONDS + every))
while [ $SECONDS -lt $stop_at ]; do
    if [ $SECONDS -ge $next ] && [ $((SECONDS + outage + 15)) -lt $stop_at ]; then
        kill -KILL $camera; wait $camera 2>/dev/null
        sleep "$outage"
        /usr/bin/python3 -c "$camera_py" 2>>"$work/camera.log" & camera=$!
        restarts=$((restarts + 1))
        next=$((SECONDS + every))
        echo "soak: $(date -u +%T) camera restart $restarts; relay RSS $(rss_kib $relay) KiB; frames $(frames_seen)"
    fi
    kill -0 $relay 2>/dev/null || { echo "soak: the relay ended early" >&2; break; }
    sleep 1
done

frames_end=$(frames_seen)
watch_end=$(date +%s.%N)
rss_end=$(rss_kib $relay)
metric_rss_end=$(metric process_resident_memory_bytes)
curl -s http://127.0.0.1:9100/metrics >"$work/metrics.txt"
kill -INT $relay; wait $relay; relay_status=$?
kill $viewers 2>/dev/null; wait $viewers 2>/dev/null
kill -KILL $camera 2>/dev/null; wait $camera 2>/dev/null
sleep 1

seconds=$(echo "$watch_end - $watch_start" | bc)
expected=$(echo "($seconds * 30 + 0.5) / 1" | bc)
got=$((frames_end - frames_start))
disconnects=$(grep -c 'ended' "$work/viewer.exits" 2>/dev/null)
# The last viewer run is the one stopped here, not a disconnect.
disconnects=$((${disconnects:-0} > 0 ? ${disconnects:-0} - 1 : 0))
kept=0 playing=0
for f in "$work"/rec/*.mp4; do
    [ -e "$f" ] || continue
    kept=$((kept + 1))
    n=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$f")
    if [ -n "$n" ] && [ "$n" -gt 0 ] && [ -z "$(ffmpeg -v error -nostdin -i "$f" -f null - 2>&1)" ]; then
        playing=$((playing + 1))
    else
        echo "soak: $f does not play (frames: ${n:-none})"
    fi
done
events() { grep -c "\"event\":\"$1\"" "$work/events.jsonl" 2>/dev/null; }

echo "soak: ---- after $minutes min ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)) ----"
echo "soak: viewer frames $got of $expected expected in $seconds s (lost $((expected - got)))"
echo "soak: viewer disconnects $disconnects"
echo "soak: relay RSS $rss_start KiB at start, $rss_end KiB at end" \
    "(/metrics: $metric_rss_start -> $metric_rss_end bytes)"
echo "soak: recordings kept $kept, playing $playing;" \
    "written $(events recording_written), deleted $(events recording_deleted)"
echo "soak: camera restarts $restarts; input_lost $(events input_lost), input_back $(events input_back)"
echo "soak: relay exit $relay_status; errors in its log: $(grep -ci 'error' "$work/gstpipe.log")"
[ "$relay_status" = 0 -o "$relay_status" = 130 ] && [ "$kept" -gt 0 ] && [ "$kept" = "$playing" ]
