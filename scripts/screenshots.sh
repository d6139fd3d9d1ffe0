#!/usr/bin/env bash
# Takes the README's screenshots: runs the real window under Xvfb (Mesa's
# software Vulkan), drives it with the keyboard through xdotool as a player
# would, and saves docs/screenshots/*.png. `scripts/screenshots.sh online`
# takes only the online ones (18), `scripts/screenshots.sh teach` only the
# teaching overlay's (19).
set -euo pipefail
only=${1:-}
cd "$(dirname "$0")/.."
scripts/setup.sh screenshots
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/tabula-target}"
cargo build --quiet
bin="$CARGO_TARGET_DIR/debug/tabula"
out=docs/screenshots
mkdir -p "$out"

export DISPLAY=:${TABULA_DISPLAY:-96}
# -noreset: without it the server resets when the last client leaves, and
# a game started during the reset cannot open the display.
Xvfb "$DISPLAY" -screen 0 1280x800x24 -noreset >/dev/null 2>&1 &
xvfb=$!
work=$(mktemp -d)
app=""
others=()
cleanup() {
  [ -n "$app" ] && kill "$app" 2>/dev/null || true
  for pid in "${others[@]}"; do kill "$pid" 2>/dev/null || true; done
  kill "$xvfb" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
sleep 1

# Settings as a first-time player has them, but quicker AI moves to watch.
export TABULA_CONFIG_DIR="$work/config" TABULA_DATA_DIR="$work/data"
mkdir -p "$TABULA_CONFIG_DIR"
printf '(ai_moves_per_second: 3.0)\n' > "$TABULA_CONFIG_DIR/settings.ron"

launch() {
  # The menu as a first-time player finds it: it otherwise opens on the
  # game and level the last section played.
  [ $# -eq 0 ] && printf '(ai_moves_per_second: 3.0)\n' > "$TABULA_CONFIG_DIR/settings.ron"
  "$bin" "$@" >"$work/log" 2>&1 &
  app=$!
  for _ in $(seq 100); do
    wid=$(xdotool search --name '^tabula$' 2>/dev/null | head -1) && [ -n "$wid" ] && break
    sleep 0.1
  done
  sleep 2
  xdotool windowfocus "$wid" 2>/dev/null
  xdotool mousemove 1270 790
}
keys() {
  for k in "$@"; do xdotool key "$k" 2>/dev/null; sleep 0.25; done
}
shot() {
  import -window root "$out/$1.png"
  echo "wrote $out/$1.png"
}
quit() {
  # The game must still be running: one that died has its log shown.
  if ! kill "$app" 2>/dev/null; then
    echo "the game exited before its screenshot was taken; its log:" >&2
    tail -30 "$work/log" >&2
    exit 1
  fi
  wait "$app" 2>/dev/null || true; app=""
}

if [ -z "$only" ]; then
# 1. The menu.
launch
shot menu
# 2. Watching two agents on the large level: seat 1 becomes random (the
#    first in its list), seat 2 stays Casual.
keys Down Down Down Down 1 Return
sleep 6
shot nim-watch
quit

# 3. Playing McMorran's 5-6-7 against the optimal agent, seed 000's opening:
#    John takes 4 from pile 2; Mary answers; John chooses 2 from pile 1.
launch play levels/nim/mcmorran-5-6-7.ron
keys Down 4 Return
sleep 3
keys Up 2
sleep 0.5
shot nim-play
quit

# 4. The end of a game: two agents on the beginner layout. The same game
#    a move before its end too: the band comes in the room kept for it,
#    and the board does not move (nim-before-end against nim-end).
launch
keys 1 1 Return
sleep 2.5
shot nim-before-end
sleep 5.5
shot nim-end
quit

# 5. Mancala: Kalah (6,4) against minimax; pointing at A3 previews an extra
#    turn; then A6 is sown, caught mid-flight.
launch play levels/mancala/kalah-6-4.ron
keys 3
sleep 0.5
shot mancala-preview
keys Return
sleep 1.5
keys 6 Return
sleep 0.35
shot mancala-sowing
# F1 lists the screen's keys; Esc closes the list, and Esc again asks
# before leaving a game under way.
sleep 2
keys F1
sleep 0.5
shot help-keys
keys Escape Escape
sleep 0.5
shot ask-leave
quit

# 6. Watching Casual against Strong on Kalah (6,5), from the menu: seat 1
#    turned from Human to Casual (past random and Beginner), seat 2 from
#    Casual to Strong.
launch
keys Right Down Down Down 1 1 1 2 Return
sleep 9
shot mancala-watch
quit

# 7. Seed 003's board against the solver, played to the end: A2, then A1,
#    A3, A2, A1 each after the solver has moved (the last one ends it).
launch play levels/mancala/seed-003-3x2.ron --p2 solve
for pit in 2 1 3 2 1; do
  keys "$pit" Return
  sleep 3.5
done
shot mancala-end
quit

# 8. The number of stones changed in the open level file.
cp levels/mancala/seed-003-3x2.ron "$work/seed-003.ron"
launch play "$work/seed-003.ron" --p2 greedy
sed -i 's/stones: 2,/stones: 5,/' "$work/seed-003.ron"
sleep 1.5
shot mancala-level-edited
quit

# 9. A broken edit of the open level file, shown in the window.
cp levels/nim/traditional-3-4-5.ron "$work/level.ron"
launch play "$work/level.ron"
sed -i 's/piles: \[3, 4, 5\]/piles: [3, 4 5]/' "$work/level.ron"
sleep 1.5
shot nim-level-error
quit

# 10. The Robot board: playing the corners level against the planner; N
#     chooses a robot and lights every tile its requests lead to.
launch play levels/robots/04-corners.ron
keys n
sleep 0.5
keys Right
sleep 3
keys n
sleep 0.8
shot robots-play
quit

# 11. Watching four agents race: planner, scout and two randoms.
launch play levels/robots/10-four-player-race.ron --p1 planner --p2 scout --p3 random --p4 random
sleep 10
shot robots-watch
quit

# 12. A generated 128 x 128 board, four agents.
# Two sleuths reason from hints on a hidden-home board: their candidate
# tiles shaded, the hints listed under Clues.
launch play levels/robots/14-scattered-hints.ron --p1 sleuth --p2 sleuth
sleep 3.5
shot robots-hidden
quit

launch play levels/robots/large-128x128-four-robots.ron --p1 planner --p2 scout --p3 random --p4 random
sleep 8
shot robots-large
quit

# 12b. The same board played by a person: N chooses robot A, + zooms in on
#      it until its lit destinations show, the edges labelled.
launch play levels/robots/large-128x128-four-robots.ron --p1 human --p2 planner --p3 random --p4 random
keys n plus plus plus plus plus plus plus plus
sleep 1
shot robots-zoomed
quit

# 13. Russian Bank, the Stop lesson against the lessons' greedy:0.5
#     (it stops every breach, as full strength does): John drags his
#     reserve's 6H towards Mary's 7H (the piles it may go to lit), drops it
#     there although the AC could go up first, and Mary calls Stop.
#     Positions are for the 1280 x 800 window.
launch play levels/russian_bank/06-a-stop.ron
xdotool mousemove 452 598 mousedown 1
sleep 0.3
xdotool mousemove 480 480
sleep 0.3
xdotool mousemove 540 200
sleep 0.8
shot russian-bank-drag
xdotool mousemove 558 146
sleep 0.2
xdotool mouseup 1
sleep 1.2
shot russian-bank-stop
quit

# 14. Watching lookahead against greedy on a shuffled deal.
launch play levels/russian_bank/01-shuffled-deal.ron --p1 lookahead --p2 greedy
sleep 14
shot russian-bank-watch
quit

# 15. The level editor on a copy of the first lesson: the broken-robot tool
#     (3) walls robot A in with three clicks, and the belt tool (4) drags a
#     belt east along the top row; the engine's finding is drawn. Positions
#     are for the 1280 x 800 window.
cp levels/robots/01-first-steps.ron "$work/first-steps.ron"
launch edit "$work/first-steps.ron"
keys 3
for at in "160 265" "255 360" "160 455"; do
  xdotool mousemove $at click 1
  sleep 0.4
done
keys 4
xdotool mousemove 440 170 mousedown 1
sleep 0.3
xdotool mousemove 580 170
sleep 0.3
xdotool mousemove 730 170
sleep 0.3
xdotool mouseup 1
sleep 1.5
shot editor-robots
# The generator's options opened, its board drawn beneath them.
xdotool mousemove 1050 441 click 1
sleep 1
shot editor-generate
quit

# 16. The editor's forms for the other games: Kalah (6,4), McMorran's Nim
#     (a pile dragged longer on the picture), Russian Bank's Stop lesson.
cp levels/mancala/kalah-6-4.ron "$work/kalah.ron"
launch edit "$work/kalah.ron"
shot editor-mancala
quit
cp levels/nim/mcmorran-5-6-7.ron "$work/nim.ron"
launch edit "$work/nim.ron"
# The second pile dragged from its sixth stone to its ninth on the picture.
xdotool mousemove 260 220 mousedown 1
sleep 0.3
xdotool mousemove 330 220
sleep 0.3
xdotool mousemove 397 220
sleep 0.3
xdotool mouseup 1
sleep 1
shot editor-nim
quit
cp levels/russian_bank/06-a-stop.ron "$work/bank.ron"
launch edit "$work/bank.ron"
shot editor-russian-bank
quit

# 17. The Arena screen, from the menu (A), started in a folder with copies
#     of arenas/ (no database yet) and a link to the levels: the files
#     listed; the small arena with ten times its games run (R), caught
#     mid-run and stopped (S, then Resume offers the rest); the Robot board
#     arena run to its end, Weng-Lin ratings for its four-seat level too.
#     The list: Difficulties, Robot board, Small, Small ten times.
mkdir -p "$work/arenas"
ln -s "$PWD/levels" "$work/levels"
cp arenas/*.ron "$work/arenas/"
sed -e 's/games: 20,/games: 200,/' -e 's/name: "Small"/name: "Small, ten times the games"/' \
  arenas/small.ron > "$work/arenas/small-200.ron"
pushd "$work" >/dev/null
launch
popd >/dev/null
keys a
sleep 1
shot arena-list
keys Down Down Down r
sleep 3
shot arena-running
keys s
sleep 8
shot arena-stopped
keys Up Up r
sleep 8
shot arena-window
quit
fi

if [ -z "$only" ] || [ "$only" = teach ]; then
# 19. Teaching (T). On the small solved board against the perfect agent, A2 sown,
#     the solver answers, then A3 chosen: the best pits ringed, A3's worth
#     in the top bar, the best moves in the side panel.
launch play levels/mancala/small-solved-4x3.ron --p2 perfect
keys t 2 Return
sleep 3
keys 3
sleep 1
shot mancala-teach
quit
# Watching greedy against the perfect agent on the same board to the end, teaching
# on: the review marks in the log the moves that gave away stones.
launch play levels/mancala/small-solved-4x3.ron --p1 greedy --p2 perfect
keys t
sleep 30
shot mancala-review
quit
# McMorran's 5-6-7 (misère): the nim-sum in binary, the winning takes lit;
# 4 typed chooses 4 stones of pile 1, and the top bar says it wins.
launch play levels/nim/mcmorran-5-6-7.ron
keys t 4
sleep 1
shot nim-sum
quit
fi
if [ "$only" = teach ]; then exit 0; fi

# 18. Online, on a second display twice as wide, so that two windows are
#     seen side by side; each window is a player of its own (settings,
#     kept seats, the hosted server's files). Ann hosts Russian Bank's
#     shuffled deal from the menu (seat 2 Human: open to a friend); Bob
#     joins by address and code typed in his menu; a few moves each; Bob's
#     window is closed and comes back with `tabula play --resume`; Eve
#     watches with `tabula play --watch`. Positions are for 1280 x 800
#     windows.
# The first display after the first one not in use (another run may hold one).
n=$((${TABULA_DISPLAY:-96} + 1))
while [ -e "/tmp/.X$n-lock" ]; do n=$((n + 1)); done
export DISPLAY=:$n
Xvfb "$DISPLAY" -screen 0 2560x800x24 -noreset >/dev/null 2>&1 &
others+=($!)
sleep 1
declare -A pid_of wid_of
# window NAME X [ARGS...]: NAME's own window at X, its arguments ARGS.
window() {
  local name=$1 x=$2 before new=""
  shift 2
  mkdir -p "$work/$name/config"
  printf '(names: ["%s"], ai_moves_per_second: 3.0)\n' "${name^}" > "$work/$name/config/settings.ron"
  before=$(xdotool search --name '^tabula$' 2>/dev/null | sort || true)
  TABULA_CONFIG_DIR="$work/$name/config" TABULA_DATA_DIR="$work/$name/data" \
    "$bin" "$@" >"$work/$name.log" 2>&1 &
  pid_of[$name]=$!
  others+=($!)
  for _ in $(seq 150); do
    new=$(comm -13 <(echo "$before") <(xdotool search --name '^tabula$' 2>/dev/null | sort) | head -1)
    [ -n "$new" ] && break
    sleep 0.1
  done
  if [ -z "$new" ]; then
    echo "$name's window did not open; its log:" >&2
    tail -30 "$work/$name.log" >&2
    exit 1
  fi
  wid_of[$name]=$new
  xdotool windowmove "$new" "$x" 0
  sleep 2
  at "$name"
}
# at NAME: NAME's window takes the keyboard.
at() {
  xdotool windowfocus "${wid_of[$1]}" 2>/dev/null
  sleep 0.2
}
# part SHOT X: the window at X alone.
part() {
  import -window root -crop 1280x800+"$2"+0 +repage "$out/$1.png"
  echo "wrote $out/$1.png"
}
closed() {
  if ! kill "${pid_of[$1]}" 2>/dev/null; then
    echo "$1's window exited before it was closed; its log:" >&2
    tail -30 "$work/$1.log" >&2
    exit 1
  fi
  wait "${pid_of[$1]}" 2>/dev/null || true
}

# The menu on Russian Bank's shuffled deal (the fifth level: lessons
# first), seat 2 turned from Casual to Human (past Strong, Best, random,
# greedy and lookahead: six presses of 2); P unfolds "Play online".
window ann 0
# Each key a while after the last: two presses of a key in one frame are
# one (frames are slow on a busy machine), and the levels are read before
# they are listed.
for k in Right Right Right; do keys $k; sleep 0.6; done
sleep 3
for k in Down Down Down Down 2 2 2 2 2 2 p; do keys $k; sleep 0.6; done
sleep 1
part online-menu-host 0
# H hosts it: Ann's table waits for a friend.
keys h
sleep 3
part online-hosting 0
code=$(sed -n 's/.*table: "\([^"]*\)".*/\1/p' "$work/ann/data/online-seats.ron" | tail -1)
echo "Ann's table: $code"
[ -n "$code" ] || { echo "Ann's window kept no seat; its log:" >&2; tail -30 "$work/ann.log" >&2; exit 1; }

# Bob's menu: J, the address typed, Enter, the code typed; Enter joins.
window bob 1280
keys j
sleep 1
xdotool type --delay 60 "127.0.0.1:7878"
sleep 0.5
keys Return
sleep 1
xdotool type --delay 60 "$code"
sleep 2
part online-join 1280
keys Return
sleep 4

# A few moves each: H turns the hand, W puts its card on the waste, which
# ends the turn (a move out of turn is refused and changes nothing).
for _ in 1 2 3; do
  at ann; keys h; sleep 0.6; keys w; sleep 1
  at bob; keys h; sleep 0.6; keys w; sleep 1
done
sleep 2
import -window root "$out/online-russian-bank.png"
echo "wrote $out/online-russian-bank.png"

# Bob's window closed: Ann's says he is gone; opened again with --resume,
# it is back at his seat.
closed bob
sleep 2
part online-friend-gone 0
window bob 1280 play --resume
sleep 4
part online-reconnect 1280

# Eve's menu seeking a table where no server listens: it says so in red,
# and tries again by itself.
window eve 0 play --join 127.0.0.1:7999 --code t0
keys p
sleep 3
part online-connecting 0
closed eve
# Eve watches the table, over Ann's window.
window eve 0 play --watch 127.0.0.1:7878 --code "$code"
sleep 4
part online-watch 0
closed eve
closed bob
closed ann
