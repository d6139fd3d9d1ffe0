#!/usr/bin/env bash
# The Kalah table of README.md and docs/solver.md: each board solved from
# nothing (fresh databases in a fresh folder) by `tabula solve` on every
# core, with its value beside the published one, the wall time, the peak
# memory, the search's nodes and the databases' build rate.
#
#   scripts/solve-table.sh [ROWS...]     (default: every row; a row is e.g. 6,4,empty)
#
# Each row keeps its folder under $SOLVE_WORK (default /tmp/tabula-solve-table),
# so a run stopped by a kill or a session's end goes on from its checkpoint
# when the same row is asked again.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/tabula-target}"
cargo build --quiet --locked
bin="$CARGO_TARGET_DIR/debug/tabula"
work="${SOLVE_WORK:-/tmp/tabula-solve-table}"
mkdir -p "$work"

# board,stones,capture,published (Irving et al. 2000 for empty capture,
# Rawlings 2015 for standard capture of 4 and 5 stones). The (6,5) rows
# test the published margin first (--guess: the order of the work only;
# the value printed is proven whatever the guess).
all=(
  "6,1,empty,+2" "6,2,empty,+10" "6,3,empty,+2" "6,4,empty,+10" "6,5,empty,+12"
  "6,1,standard,-" "6,2,standard,-" "6,3,standard,-" "6,4,standard,+8" "6,5,standard,+10"
)
rows=("${all[@]}")
[ $# -gt 0 ] && rows=("$@")

echo "| board | capture | published | tabula | wall time | peak memory | search nodes | nodes/s | databases built at |"
echo "|---|---|---|---|---|---|---|---|---|"
for row in "${rows[@]}"; do
  IFS=, read -r pits stones capture published <<<"$row"
  published=${published:-"?"}
  for known in "${all[@]}"; do
    [[ $known == "$pits,$stones,$capture,"* ]] && published=${known##*,}
  done
  cap=$([ "$capture" = empty ] && echo Empty || echo Standard)
  dir="$work/$pits-$stones-$capture"
  mkdir -p "$dir"
  echo "Mancala(name: \"Kalah ($pits,$stones), $capture capture\", pits: $pits, stones: $stones, capture: $cap, sweep: true)" >"$dir/level.ron"
  extra=()
  [ "$stones" = 5 ] && extra=(--guess "${published#+}")
  /usr/bin/time -f "%e %M" -o "$dir/time" "$bin" solve "$dir/level.ron" --dir "$dir/db" "${extra[@]}" >"$dir/out" 2>>"$dir/err" || {
    echo "| ($pits,$stones) | $capture | $published | stopped: see $dir/err | | | | | |"
    continue
  }
  read -r wall peak <"$dir/time"
  value=$(sed -n 's/^value: \([-+0-9]*\).*/\1/p' "$dir/out")
  nodes=$(sed -n 's/^search: \([0-9]*\) nodes.*/\1/p' "$dir/out")
  rate=$(sed -n 's/.*(\([0-9.]*\) M nodes\/s).*/\1/p' "$dir/out")
  # The build rate of the largest tier built in this run.
  build=$(grep -o 'built: [0-9]* positions in [0-9.]* s ([0-9.]* M' "$dir/err" | tail -n 1 | sed 's/.*(\(.*\) M/\1/')
  echo "| ($pits,$stones) | $capture | $published | $value | ${wall} s | $((peak / 1024)) MiB | $nodes | ${rate} M | ${build:-?} M positions/s |"
done
