#!/usr/bin/env bash
# Plays arenas/small.ron and arenas/robots.ron (into a fresh database each),
# writes their HTML reports under docs/arena/ and renders each in headless
# Chromium to docs/screenshots/arena-*.png, as a reader's browser shows it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh report
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/tabula-target}"
cargo build --quiet
bin="$CARGO_TARGET_DIR/debug/tabula"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p docs/arena docs/screenshots
for arena in small robots; do
  "$bin" arena "arenas/$arena.ron" --db "$work/$arena.db" --html "docs/arena/$arena.html" >/dev/null
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1000,1300 \
    --screenshot="docs/screenshots/arena-$arena.png" "file://$PWD/docs/arena/$arena.html" 2>/dev/null
  echo "wrote docs/arena/$arena.html and docs/screenshots/arena-$arena.png"
done
