#!/usr/bin/env bash
# Sets everything up and opens the game. Arguments go to tabula, e.g.
#   scripts/play.sh play levels/nim/mcmorran-5-6-7.ron
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh window
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/tabula-target}"
# Without the dev feature: no measurement hooks in what a player runs.
exec cargo run --quiet -- "$@"
