#!/usr/bin/env bash
# The whole test suite, in two runs: everything but the network stream tests, then the stream tests
# alone. The stream tests start servers, senders and ffmpeg clients (and, for WebRTC, headless
# Chromium) in other processes and read them in real time over loopback; beside the rest of the suite
# on two cores, their processes could wait seconds for a turn and miss what they time. Arguments go
# to both runs (`--skip-build`, say).
set -euo pipefail
cd "$(dirname "$0")/.."
streams='StreamOutputTests|StreamInputTests|WebRTCTests'
swift test --skip "$streams" "$@"
swift test --filter "$streams" "$@"
