#!/usr/bin/env bash
# Formats the Swift code with the toolchain's swift-format and .swift-format (4 spaces, 120 columns):
#
#   scripts/format.sh           # rewrites the files in place
#   scripts/format.sh --check   # changes nothing; fails naming each file and line not formatted (CI)
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Package.swift Sources Tests Examples Snippets Benchmarks Fuzz)
if [ "${1:-}" = --check ]; then
    swift format lint --strict --recursive --parallel "${paths[@]}"
else
    swift format --in-place --recursive --parallel "${paths[@]}"
fi
