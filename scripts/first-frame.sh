#!/usr/bin/env bash
# Measures the time from start to the first frame of the window, five runs,
# under Xvfb with Mesa's software Vulkan (what this machine has).
# Usage: scripts/first-frame.sh [cargo profile args, e.g. --release]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh screenshots
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/tabula-target}"
cargo build --quiet --features dev "$@"
profile=debug
[[ " $* " == *" --release "* ]] && profile=release
display=:${TABULA_DISPLAY:-95}
Xvfb "$display" -screen 0 1280x800x24 -noreset >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true' EXIT
sleep 1
for _ in 1 2 3 4 5; do
  DISPLAY=$display TABULA_REPORT_FIRST_FRAME=1 "$CARGO_TARGET_DIR/$profile/tabula" 2>/dev/null | grep "first frame"
done
