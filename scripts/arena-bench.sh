#!/usr/bin/env bash
# The arena's figures in the README: 1,000,000 Nim games (McMorran 5-6-7,
# optimal against random, 2 jobs) played by `tabula match` without records,
# by `tabula match --out` (every game kept as a JSON line) and by `tabula
# arena` (every game a row in SQLite); then the same arena killed with
# kill -9 at a moment drawn at random, resumed, and its table compared with
# the uninterrupted run's (games lost, games played twice, time to resume).
#
#   scripts/arena-bench.sh [GAMES]        (default 1000000)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/tabula-target}"
command -v sqlite3 >/dev/null || {
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq sqlite3 >/dev/null
}
cargo build --quiet --locked
bin="$CARGO_TARGET_DIR/debug/tabula"
games=${1:-1000000}
level="$PWD/levels/nim/mcmorran-5-6-7.ron"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat >"$work/nim.ron" <<EOF
Arena(name: "Nim bench", seed: 1, games: $games, levels: ["$level"], agents: [
    (name: "optimal", agent: "optimal"), (name: "random", agent: "random"),
])
EOF
rate() { grep -o '[0-9]* games/s' | head -n 1; }

echo "$(date -u +%F): $games Nim games, 2 jobs, $(nproc) cores"
echo "match, no records:    $("$bin" match "$level" --p1 optimal --p2 random --games "$games" --jobs 2 | rate)"
echo "match --out (JSONL):  $("$bin" match "$level" --p1 optimal --p2 random --games "$games" --jobs 2 \
  --out "$work/games.jsonl" | rate)"
"$bin" arena "$work/nim.ron" --db "$work/whole.db" --jobs 2 >"$work/whole.out"
echo "arena (SQLite rows):  $(rate <"$work/whole.out") ($(du -m "$work/whole.db" | cut -f1) MB)"

# Killed somewhere in the first 80% of an uninterrupted run's time.
seconds=$(grep -o 'played in [0-9.]* s' "$work/whole.out" | grep -o '[0-9.]*')
moment=$(awk -v s="$seconds" -v r="$RANDOM" 'BEGIN { printf "%.2f", 0.1 + s * 0.8 * r / 32767 }')
"$bin" arena "$work/nim.ron" --db "$work/killed.db" --jobs 2 >/dev/null &
pid=$!
sleep "$moment"
kill -9 "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
kept=$(sqlite3 "$work/killed.db" "SELECT count(*) FROM games" 2>/dev/null || echo 0)
"$bin" arena "$work/nim.ron" --db "$work/killed.db" --jobs 2 >"$work/resumed.out"
head -n 1 "$work/resumed.out"
columns="level, pairing, game, level_path, seed, seats, agents, winner_seat, scores, plies, moves"
same() { sqlite3 -readonly "$1" "SELECT $columns FROM games ORDER BY level, pairing, game" | md5sum; }
rows=$(sqlite3 "$work/killed.db" "SELECT count(*) FROM games")
played=$(grep -o '[0-9]* games played' "$work/resumed.out" | grep -o '[0-9]*')
echo "kill -9 after ${moment} s with $kept games in the database; resumed: $played played," \
  "$((played + kept - games)) played twice, $((games - rows)) lost;" \
  "the same table as the uninterrupted run: $([[ $(same "$work/killed.db") == "$(same "$work/whole.db")" ]] && echo yes || echo NO)"
