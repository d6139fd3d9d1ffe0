#!/usr/bin/env bash
# From saving a level file to the new board on screen: the window (under
# Xvfb with Mesa's software Vulkan) plays a copy of a level, the copy is
# saved with an edit five times, two seconds apart, and the window reports
# each time how long after the save its new board was drawn.
# Usage: scripts/reload-latency.sh [level.ron]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh screenshots
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/tabula-target}"
cargo build --quiet --features dev
level=${1:-levels/robots/09-swap-puzzle.ron}
display=:${TABULA_DISPLAY:-92}
Xvfb "$display" -screen 0 1280x800x24 -noreset >/dev/null 2>&1 &
xvfb=$!
work=$(mktemp -d)
app=
trap 'kill $app $xvfb 2>/dev/null || true; rm -rf "$work"' EXIT
cp "$level" "$work/level.ron"
sleep 1
DISPLAY=$display TABULA_CONFIG_DIR="$work" TABULA_DATA_DIR="$work" TABULA_REPORT_RELOAD=1 \
  "$CARGO_TARGET_DIR/debug/tabula" play "$work/level.ron" --p1 human --p2 human >"$work/out" 2>/dev/null &
app=$!
sleep 5
for i in 1 2 3 4 5; do
  # A new name each time: the level changes, so the game restarts.
  sed -i -E "0,/name: \"[^\"]*\"/s//name: \"edit $i\"/" "$work/level.ron"
  sleep 2
done
grep "level on screen" "$work/out" || { echo "no reload was reported" >&2; exit 1; }
