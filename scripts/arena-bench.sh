#!/usr/bin/env bash
# The arena's figures in docs/benchmarks.md ("The arena"): 1,000,000 Nim games (McMorran 5-6-7,
# optimal against random, 2 jobs) played by `tabula match` without records,
# by `tabula match --out` (every game kept as a JSON line) and by `tabula
# arena` (every game a row in SQLite); then the same arena killed with
# kill -9 at a moment drawn at random, resumed, and its table compared with
# the uninterrupted run's (games lost, games played twice, time to resume).
# Also SQLite's own pace at inserting rows like the arena's, with nothing
# else to do: the most any table of a row per game could reach here.
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
# SQLite's own pace at the arena's settings, with nothing to play or bind:
# one INSERT ... SELECT of rows like the arena's, the moves left empty. No
# arena can write rows faster than this.
sqlite3 "$work/ceiling.db" >"$work/ceiling.out" <<EOF
PRAGMA page_size = 65536;
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
CREATE TABLE played (level INTEGER NOT NULL, pairing INTEGER NOT NULL, game INTEGER NOT NULL,
    seating INTEGER NOT NULL, seed INTEGER NOT NULL, winner_seat INTEGER, scores TEXT NOT NULL,
    plies INTEGER NOT NULL, moves TEXT NOT NULL, micros INTEGER NOT NULL,
    PRIMARY KEY (level, pairing, game)) WITHOUT ROWID;
.timer on
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < $games - 1)
INSERT INTO played SELECT 0, 0, i, 1, i * 7919, 1 + i % 2, '[]', 7, '[]', 3 FROM n;
EOF
ceiling=$(awk -v n="$games" '/^Run Time/ { printf "%.0f", n / $4 }' "$work/ceiling.out")
echo "SQLite alone (one INSERT ... SELECT of $games rows, moves empty): $ceiling rows/s"
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
rows=$(sqlite3 "$work/killed.db" "SELECT count(*) FROM games")
played=$(grep -o '[0-9]* games played' "$work/resumed.out" | grep -o '[0-9]*')
echo "kill -9 after ${moment} s with $kept games in the database; resumed: $played played," \
  "$((played + kept - games)) played twice, $((games - rows)) lost;" \
  "the same table as the uninterrupted run: $(deploy/compare.sh "$work/killed.db" "$work/whole.db" >/dev/null && echo yes || echo NO)"
