#!/usr/bin/env bash
# Builds the DocC documentation (Sources/*/Documentation.docc, the doc comments, the snippets in
# Snippets/) of the library modules and of the command line (gstpipe's catalog: its articles, which
# the README links to), and fails on any DocC warning and on any public symbol whose comment leaves
# out a parameter, a return value or an error (scripts/check-doc-coverage.py).
#
#   scripts/docs.sh                  check only
#   scripts/docs.sh --site DIR       also write a static site to DIR (open DIR/documentation/mediaio,
#                                    or .../gstpipe for the command line, through any web server:
#                                    python3 -m http.server -d DIR)
#   scripts/docs.sh --check-site     write the site to .build/docs-site, serve it on 127.0.0.1 and load
#                                    the MediaIO and gstpipe landing pages in headless Chromium
#                                    (installed when missing): fails unless each shows its articles;
#                                    leaves a screenshot of MediaIO's at .build/docs-site.png
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(GStreamer GStreamerWebRTC GStreamerPlay GStreamerLogging MediaIO GstPipeElements GstPipeWebRTC GstPipeMetrics)
targets=()
for module in "${modules[@]}"; do targets+=(--target "$module"); done
# The command line's catalog (Sources/gstpipe/Documentation.docc) holds articles alone. The DocC plugin
# documents an executable's internal symbols by default; public ones only (the libraries' default, so
# theirs are unchanged) gives gstpipe no symbol pages, only its articles.
targets+=(--target gstpipe --symbol-graph-minimum-access-level public)

site=""
check_site=false
case "${1:-}" in
    --site) site="${2:?--site needs a folder}" ;;
    --check-site) site=.build/docs-site; check_site=true ;;
    "") ;;
    *) echo "usage: scripts/docs.sh [--site DIR | --check-site]" >&2; exit 2 ;;
esac

echo "== documentation: DocC, warnings as errors"
# One generation: with a site asked for, the site's is the check (both extract the same symbol graphs, which
# the coverage check below reads; a second generation cost minutes in CI).
if [ -z "$site" ]; then
    swift package --disable-sandbox generate-documentation "${targets[@]}" \
        --enable-experimental-combined-documentation --warnings-as-errors
else
    echo "== documentation: static site in $site"
    rm -rf "$site"
    swift package --disable-sandbox generate-documentation "${targets[@]}" \
        --enable-experimental-combined-documentation --warnings-as-errors \
        --transform-for-static-hosting --output-path "$site"
fi
echo "== documentation: every public symbol, parameter, return value and error"
python3 scripts/check-doc-coverage.py .build "${modules[@]}"

echo "== documentation: the README's tour is snippets (GettingStarted, DimFilter), which CI builds and runs"
python3 - <<'TOUR'
import glob
readme = open("README.md").read()
tour = 0
for path in sorted(glob.glob("Snippets/*.swift")):
    first, snippet = open(path).read().split("\n", 1)
    if "the README's tour shows this file as it is" not in first:
        continue
    tour += 1
    if snippet not in readme:
        raise SystemExit(f"docs: README.md's library tour differs from {path}: copy the file in (from its second line)")
if tour < 2:
    raise SystemExit("docs: README.md's library tour should show Snippets/GettingStarted.swift and Snippets/DimFilter.swift")
TOUR

$check_site || exit 0

if ! command -v chromium >/dev/null; then
    echo "docs: installing chromium for the site check"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
fi
port=$((20000 + RANDOM % 20000))
python3 -m http.server --bind 127.0.0.1 --directory "$site" "$port" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null' EXIT
python3 - "$port" <<'WAIT'
import socket, sys, time
for _ in range(100):
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=1).close()
        break
    except OSError:
        time.sleep(0.1)
WAIT
browser=(chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --virtual-time-budget=15000)
# Each landing page with what it must show: the MediaIO one (screenshot: .build/docs-site.png) and
# the command line's, whose articles the README links to.
check_page() {
    local page="http://127.0.0.1:$port/documentation/$1/" dom expected
    shift
    dom=$(timeout 120 "${browser[@]}" --dump-dom "$page" 2>/dev/null)
    for expected in "$@"; do
        if ! grep -q "$expected" <<<"$dom"; then
            echo "docs: $page in headless Chromium does not show \"$expected\"" >&2
            exit 1
        fi
    done
    echo "docs: $page renders in headless Chromium"
}
check_page mediaio "MediaIO" "Getting started" "Porting a custom capturer" "Audio sources and sinks" "VideoSource"
timeout 120 "${browser[@]}" --window-size=1280,1000 --screenshot=.build/docs-site.png \
    "http://127.0.0.1:$port/documentation/mediaio/" >/dev/null 2>&1
check_page gstpipe "gstpipe" "Files at either end" "Streams" "Running, seeing, stopping" "Performance" "Reliability"
echo "docs: screenshot of the MediaIO page: .build/docs-site.png"
