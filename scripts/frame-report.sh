#!/usr/bin/env bash
# Frame time and the time of tabula's own systems, 600 frames of four agents
# racing on the generated 128 x 128 Robot board, under Xvfb with Mesa's
# software Vulkan (what this machine has).
# Usage: scripts/frame-report.sh [cargo profile args, e.g. --release] [-- level agents...]
# The systems run on one thread while measured; TABULA_FRAME_REPORT_THREADS=multi
# keeps Bevy's multi-threaded executor (then the span also holds the hand-over
# of systems between threads, slow here while the software rasterizer keeps
# both cores busy).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh screenshots
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/tabula-target}"
cargo_args=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do cargo_args+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
cargo build --quiet --features dev "${cargo_args[@]}"
profile=debug
[[ " ${cargo_args[*]:-} " == *" --release "* ]] && profile=release
if [ $# -eq 0 ]; then
  set -- levels/robots/large-128x128-four-robots.ron --p1 planner --p2 scout --p3 random --p4 random
fi
display=:${TABULA_DISPLAY:-94}
Xvfb "$display" -screen 0 1280x800x24 -noreset >/dev/null 2>&1 &
xvfb=$!
work=$(mktemp -d)
trap 'kill $xvfb 2>/dev/null || true; rm -rf "$work"' EXIT
sleep 1
DISPLAY=$display TABULA_CONFIG_DIR="$work" TABULA_DATA_DIR="$work" TABULA_FRAME_REPORT=600 \
  "$CARGO_TARGET_DIR/$profile/tabula" play "$@" 2>/dev/null | tail -6
