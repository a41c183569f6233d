#!/usr/bin/env bash
# The Python side of the tests: a venv with aiortc (from PyPI), the WebRTC stack of the WHIP server
# the client tests publish to (scripts/aiortc-whip-server.py). At /opt/gstpipe-python, or where
# GSTPIPE_PYTHON_VENV says; the tests read GSTPIPE_PYTHON (the venv's python) when it is elsewhere.
# Skips, saying so, when Python's venv module is missing; those tests then skip too. Safe to run again.
set -euo pipefail

venv="${GSTPIPE_PYTHON_VENV:-/opt/gstpipe-python}"
aiortc_version="1.16.0"

if "$venv/bin/python" -c "import aiortc, sys; sys.exit(aiortc.__version__ != '$aiortc_version')" 2>/dev/null; then
    echo "setup-python: aiortc $aiortc_version ready in $venv"
    exit 0
fi
if ! /usr/bin/python3 -m venv --help >/dev/null 2>&1; then
    echo "setup-python: SKIPPED: python3's venv module is missing (apt-get install python3-venv);" \
        "the aiortc tests will skip" >&2
    exit 0
fi
/usr/bin/python3 -m venv "$venv"
# PyPI out of reach is no reason to fail the whole set-up: the aiortc tests skip, saying why.
if ! "$venv/bin/pip" install --quiet --disable-pip-version-check "aiortc==$aiortc_version"; then
    rm -rf "$venv"
    echo "setup-python: SKIPPED: pip could not install aiortc $aiortc_version; the aiortc tests will skip" >&2
    exit 0
fi
echo "setup-python: aiortc $aiortc_version installed in $venv"
