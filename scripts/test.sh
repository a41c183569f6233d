#!/usr/bin/env bash
# The whole test suite, in three runs: everything but the network tests, then the stream tests
# alone, then the WebRTC tests alone. The stream tests start servers, senders and ffmpeg clients in
# other processes and read them in real time over loopback; beside the rest of the suite on two
# cores, their processes could wait seconds for a turn and miss what they time. The WebRTC tests run
# headless Chromium, which beside the stream tests made a udp:// input test miss its timing.
# Arguments go to every run (`--skip-build`, say).
set -euo pipefail
cd "$(dirname "$0")/.."
streams='StreamOutputTests|StreamInputTests'
webrtc='WebRTCTests'
swift test --skip "$streams|$webrtc" "$@"
swift test --filter "$streams" "$@"
swift test --filter "$webrtc" "$@"
