#!/usr/bin/env bash
# CPU the window uses while it shows a board where nothing moves: a person
# to move at Nim (and, second, the Robot board's belts level, whose belts
# run while the window has focus), under Xvfb with Mesa's software Vulkan.
# Reads the process's CPU time from /proc over 30 s, after 5 s to settle.
# TABULA_CONTINUOUS=1 draws every frame as before the window rested (one of
# the measurement hooks of the dev feature, which this script builds with).
# Usage: scripts/idle-cpu.sh [level.ron]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh screenshots
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/tabula-target}"
cargo build --quiet --features dev
level=${1:-levels/nim/traditional-3-4-5.ron}
display=:${TABULA_DISPLAY:-93}
Xvfb "$display" -screen 0 1280x800x24 -noreset >/dev/null 2>&1 &
xvfb=$!
work=$(mktemp -d)
app=
trap 'kill $app $xvfb 2>/dev/null || true; rm -rf "$work"' EXIT
sleep 1
DISPLAY=$display TABULA_CONFIG_DIR="$work" TABULA_DATA_DIR="$work" \
  "$CARGO_TARGET_DIR/debug/tabula" play "$level" --p1 human --p2 human >/dev/null 2>&1 &
app=$!
sleep 5
ticks() { awk '{print $14 + $15}' "/proc/$app/stat"; }
hz=$(getconf CLK_TCK)
before=$(ticks)
sleep 30
after=$(ticks)
awk -v l="$level" -v t=$((after - before)) -v hz="$hz" \
  'BEGIN { printf "%s: %.1f%% of one core over 30 s\n", l, t * 100 / hz / 30 }'
