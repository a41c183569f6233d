#!/usr/bin/env bash
# The whole test suite, in parts: the library's tests (the Swift core, MediaIO, the elements, GstPipeWebRTC), the
# command line's tests but the network ones, the stream tests alone, then the WebRTC tests alone.
# - The command line's tests wait for a gstpipe child synchronously, each holding one of the Swift
#   concurrency pool's threads (two on two cores) meanwhile; beside them, the library's async tests
#   could wait a minute for a thread and pass their time limit on a loaded machine.
# - The stream tests start servers, senders and ffmpeg clients in other processes and read them in
#   real time over loopback; beside the rest of the suite on two cores, their processes could wait
#   seconds for a turn and miss what they time.
# - The WebRTC tests run headless Chromium, which beside the stream tests made a udp:// input test
#   miss its timing.
# Arguments go to every run (`--skip-build`, say).
set -euo pipefail
cd "$(dirname "$0")/.."
# GstPipeWebRTC's own tests go with the library's but WebRTCGoodbyeTests, which runs alone with the WebRTC suites.
library='GStreamerTests|GStreamerPlayTests|MediaIOTests|GstPipeElementsTests|GstPipeWebRTCTests'
streams='StreamOutputTests|StreamInputTests|RTMPTests'
# With them, the RTSP credentials and TLS tests (ffmpeg clients in network namespaces), --reconnect's camera
# killed and started again under an ffmpeg viewer, and MetricsTests (an ffmpeg viewer, /metrics scraped while it
# watches): 49 tests in 97 s together, where the two runs took 96 and 46 s; 5 of 5 runs passed, two beside a
# busy loop. (They once ran apart because an rtsp:// output test's ffmpeg decoded nothing beside them: the RTSP
# server's race at a client's first frame, since fixed in its shim.)
streams+='|RTSPAuthTests|ReconnectTests|MetricsTests'
# The recording tests (a live source recorded for seconds, killed, a 2 MB tmpfs filled) in a run of their own:
# they count frames against the wall clock, which a loaded machine would stretch.
recording='RecordingTests'
# The farm's tests (Redis, two Celery workers and gstpipe children each) in a run of their own too.
farm='FarmTests'
# The WebRTC suites, each a run of its own after the others (a browser or aiortc each, which beside
# one another on two cores missed what the tests time); 'WebRTCTests' also matches
# GStreamerWebRTCTests (two webrtcbins negotiating in-process).
# ServerAbuseTests holds 500 connections against a server (a browser or ffmpeg watching) until the server has
# closed them all (its 10 and 30 s idle timeouts): about a minute and a half.
webrtc='WebRTCTests|WebRTCInputTests|WHIPClientTests|WebRTCTokenTests|ServerAbuseTests'
# The TURN password kept from the pages with a token, and Examples/BrowserCall's loop in Chromium.
webrtc+='|WebRTCICEServersTests|BrowserCallTests'
# BrowserViewers serving a Swift VideoSource and AudioSource (a 440 Hz sine) to Chromium.
webrtc+='|BrowserViewersAudioTests'
# The served pages' data channels to BrowserViewers and BrowserPublisher, both ways, in Chromium.
webrtc+='|WebRTCDataChannelTests'
# Two webrtcbins per viewer in-process, whose ends the test times: beside the command line's children
# on a loaded machine, a viewer's negotiation did not finish in time.
webrtc+='|WebRTCGoodbyeTests'
# The WebRTC server's limits against a slow client (scripts/slow-requests.py), timed in seconds: beside the
# command line's children, a webrtc:// input once did not listen within 30 s.
webrtc+='|ServerLimitsTests'
# The Serving safely article's nginx configurations in front of WebRTC (Chromium through TLS) and RTSP (ffmpeg).
webrtc+='|ReverseProxyTests'
# A ladder's viewer moved between rungs, a webrtcbin receiving in-process, its frames timed; and three
# Chromiums behind a link limited by tc (a ladder's viewer against one encode's, one unlimited), 80 s.
webrtc+='|WebRTCLadderTests|WebRTCBadLinkTests'
# --reconnect's camera killed and started again three times under a Chromium viewer of webrtc://.
webrtc+='|WebRTCCameraRestartTests'
# The WHIP and WHEP clients' HTTP against a socket server in a namespace, its waits timed: beside the command line's
# children, which hold the concurrency pool's two threads, its wait for the server to listen ran out (30 s).
webrtc+='|HTTPExchangeTests'
# Every run goes through scripts/test-guard.py: a run that printed its summary and is still alive a minute
# later, or that printed nothing for ten minutes, has every thread's stack printed (gdb) and is killed,
# failing this script with the run's name. A hang costs minutes and leaves its evidence, not CI's 90.
guarded() {
    local name=$1
    shift
    scripts/test-guard.py "$name" -- swift test --skip-build "$@"
}
# One build for every run. `swift test` builds with settings of its own: the first one after a `swift build`
# (as in .ci/run) compiled dozens of modules again, two minutes, and each later one checked the build again.
skip=false
for argument in "$@"; do [ "$argument" = --skip-build ] && skip=true; done
if [ "$skip" = false ]; then
    swift build --build-tests
fi
guarded library --filter "$library" --skip WebRTCGoodbyeTests "$@"
guarded "command line" --filter gstpipeTests --skip "$streams|$farm|$webrtc|$recording" "$@"
guarded streams --filter "$streams" "$@"
guarded "$recording" --filter "$recording" "$@"
guarded "$farm" --filter "$farm" "$@"
for suite in WebRTCTests WebRTCInputTests WHIPClientTests WebRTCTokenTests WebRTCICEServersTests BrowserCallTests \
    BrowserViewersAudioTests WebRTCDataChannelTests ServerAbuseTests WebRTCGoodbyeTests ReverseProxyTests \
    ServerLimitsTests WebRTCLadderTests WebRTCBadLinkTests WebRTCCameraRestartTests HTTPExchangeTests; do
    guarded "$suite" --filter "$suite" "$@"
done
