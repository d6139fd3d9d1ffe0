#!/usr/bin/env bash
# Installs dist/'s packages as a stranger has them and plays them there
# (docs/packages.md). Each runs in a clean Debian 12 (debootstrap, minbase),
# which holds no Rust toolchain and no source tree, as a user of its own with
# a HOME of its own:
#   the .debs, installed by apt with the dependencies they declare;
#   the tarball, unpacked in a temporary folder of a second clean root that
#   has only the .deb's declared dependencies.
# In each: `tabula --version`, a headless match on a shipped level by name,
# `solve` on the small Kalah board, a server with two `tabula bot`s playing
# a whole Russian Bank game, the window under Xvfb to its menu, Kalah (6,4)
# against `perfect` in the window, and a table the window hosts that a
# friend (a bot) joins; the screenshots are left in dist/ to be looked at. For the server package, the
# service's own command line, as its unit runs it, serves a bot.
# Needs root (chroot, mounts) and the network (debootstrap, apt).
# Usage: scripts/install-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" -eq 0 ] || { echo "run as root: it builds and enters clean roots" >&2; exit 2; }
scripts/setup.sh package

version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
deb=dist/tabula_${version}-1_amd64.deb
server_deb=dist/tabula-server_${version}-1_amd64.deb
tarball=dist/tabula-$version-linux-x86_64.tar.gz
for f in "$deb" "$server_deb" "$tarball"; do
  [ -f "$f" ] || { echo "missing $f: run scripts/package.sh first" >&2; exit 1; }
done

cache=${TABULA_ROOT_CACHE:-$HOME/.cache/tabula-debootstrap}/bookworm-minbase.tar
work=$(mktemp -d /tmp/tabula-install-test.XXXXXX)
mounts=()
xvfb_pid=
cleanup() {
  set +e
  [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null
  for ((i=${#mounts[@]}-1; i>=0; i--)); do umount -l "${mounts[$i]}" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT

if [ ! -f "$cache" ]; then
  echo "== a clean Debian 12 (debootstrap, kept in $cache)"
  mkdir -p "$(dirname "$cache")" "$work/boot"
  debootstrap --variant=minbase bookworm "$work/boot" http://deb.debian.org/debian >"$work/debootstrap.log" ||
    { tail -20 "$work/debootstrap.log"; exit 1; }
  tar -C "$work/boot" -cf "$cache.part" . && mv "$cache.part" "$cache"
  rm -rf "$work/boot"
fi

# The window draws on an X server outside the roots; its socket is lent to them.
display=:77
Xvfb $display -screen 0 1280x800x24 -nolisten tcp -noreset >"$work/xvfb.log" 2>&1 &
xvfb_pid=$!

fresh_root() { # <dir>: a clean root, mounted, with a user "stranger"
  local root=$1
  mkdir -p "$root"
  tar -C "$root" -xf "$cache"
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  mount -t proc proc "$root/proc"; mounts+=("$root/proc")
  mount --rbind /dev "$root/dev"; mounts+=("$root/dev")
  mount --rbind /sys "$root/sys"; mounts+=("$root/sys")
  mkdir -p "$root/tmp/.X11-unix"
  mount --bind /tmp/.X11-unix "$root/tmp/.X11-unix"; mounts+=("$root/tmp/.X11-unix")
  chroot "$root" useradd --create-home --shell /bin/bash stranger
  # Nothing of the build may be there to lean on.
  if chroot "$root" sh -c 'command -v cargo || command -v rustc || ls /work /root/.cargo' >/dev/null 2>&1; then
    echo "the clean root has a toolchain or a source tree" >&2; exit 1
  fi
}

apt_in() { # <root> <apt-get arguments...>
  local root=$1; shift
  chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get -qq -o Dpkg::Use-Pty=0 "$@" >"$work/apt.log" 2>&1 ||
    { tail -30 "$work/apt.log"; exit 1; }
}

as_stranger() { # <root> <command>: run by the user, with a HOME of its own
  local root=$1; shift
  chroot --userspec=stranger:stranger "$root" env -i HOME=/home/stranger PATH=/usr/local/bin:/usr/bin:/bin \
    DISPLAY=$display LANG=C.UTF-8 bash -c "cd ~; $*"
}

check() { # <what> <pattern> <output file>
  if grep -qE "$2" "$3"; then
    echo "   ok: $1"
  else
    echo "FAILED: $1: no /$2/ in:" >&2; tail -20 "$3" >&2; exit 1
  fi
}

plays() { # <root> <tabula command> <server command> <label>: the checks every install passes
  local root=$1 tabula=$2 serve=$3 label=$4 out=$work/out
  as_stranger "$root" "$tabula --version" >"$out"
  check "$label: --version" "^tabula $version$" "$out"
  as_stranger "$root" "$tabula match nim/traditional-3-4-5 --p1 optimal --p2 random --games 200 --seed 1" >"$out" 2>&1
  check "$label: a match on a shipped level by name" "200 games" "$out"
  as_stranger "$root" "$tabula solve mancala/small-solved-4x3" >"$out" 2>&1
  check "$label: solve the small Kalah board" "value" "$out"
  as_stranger "$root" "$serve --listen 127.0.0.1:7979 --db /tmp/$label.db >/tmp/$label-server.log 2>&1 &
    server=\$!
    for i in \$(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/7979) 2>/dev/null && break; sleep 0.2; done
    $tabula bot ws://127.0.0.1:7979 --create russian_bank/01-shuffled-deal --agent greedy --name Ann >/tmp/$label-ann.log 2>&1 &
    ann=\$!
    for i in \$(seq 50); do grep -q '^table ' /tmp/$label-ann.log && break; sleep 0.2; done
    table=\$(sed -n 's/^table \\([^ ]*\\) .*/\\1/p' /tmp/$label-ann.log)
    timeout 300 $tabula bot ws://127.0.0.1:7979 --table \$table --agent greedy --name Bob
    wait \$ann; kill \$server" >"$out" 2>&1
  check "$label: a server and two bots play Russian Bank to the end" "^the game is over" "$out"
  edits_as_own "$root" "$tabula" "$label"
  as_stranger "$root" "$tabula >/tmp/$label-window.log 2>&1 & echo \$! > /tmp/window.pid"
  local shot=dist/install-test-$label.png
  for i in $(seq 120); do
    grep -q "the menu offers" "$root/tmp/$label-window.log" 2>/dev/null && break
    sleep 0.5
  done
  sleep 3 # a few frames after the menu's first
  DISPLAY=$display import -window root "$shot"
  kill "$(cat "$root/tmp/window.pid")" 2>/dev/null || true
  check "$label: the window opens at a menu of the four games" \
    "the menu offers 4 games: Nim, Mancala / Kalah, Robot board, Russian Bank" "$root/tmp/$label-window.log"
  local colours
  colours=$(identify -format %k "$shot")
  [ "$colours" -gt 50 ] || { echo "FAILED: $label: the screenshot is blank ($colours colours)" >&2; exit 1; }
  echo "   ok: $label: the window's first frames ($shot, $colours colours: look at it)"
  window_plays "$root" "$tabula" "$label"
}

edits_as_own() { # <root> <tabula command> <label>: an installed level edited is saved as the player's own
  local root=$1 tabula=$2 label=$3
  local installed own=$root/home/stranger/.local/share/tabula/levels/nim/traditional-3-4-5.ron
  installed=$(as_stranger "$root" "$tabula check nim/traditional-3-4-5" | sed -n 's/^ok: \([^ ]*\) .*/\1/p')
  local before
  before=$(md5sum <"$root$installed")
  as_stranger "$root" "$tabula edit nim/traditional-3-4-5 >/tmp/$label-edit.log 2>&1 & echo \$! > /tmp/edit.pid"
  local window=
  for i in $(seq 60); do
    window=$(DISPLAY=$display xdotool search --name '^tabula$' 2>/dev/null | head -1) && [ -n "$window" ] && break
    sleep 0.5
  done
  sleep 4 # the editor's first frames
  # As a player does: the pointer over the board (no field focused), Ctrl+S.
  DISPLAY=$display xdotool windowfocus "$window" 2>/dev/null || true
  DISPLAY=$display xdotool mousemove 300 600
  sleep 0.5
  # Held as a hand holds them: a frame sees Ctrl down when S goes down.
  DISPLAY=$display xdotool keydown ctrl; sleep 0.3
  DISPLAY=$display xdotool keydown s; sleep 0.3
  DISPLAY=$display xdotool keyup s; sleep 0.2
  DISPLAY=$display xdotool keyup ctrl
  for i in $(seq 20); do [ -f "$own" ] && break; sleep 0.5; done
  DISPLAY=$display import -window root "dist/install-test-$label-edit.png"
  kill "$(cat "$root/tmp/edit.pid")"
  [ -f "$own" ] && [ "$(md5sum <"$root$installed")" = "$before" ] &&
    echo "   ok: $label: an installed level saved in the editor went to ~/.local/share/tabula/levels, the install unchanged" ||
    { echo "FAILED: $label: the edit was not saved as the player's own ($own)" >&2; tail "$root/tmp/$label-edit.log" >&2; exit 1; }
}

window_plays() { # <root> <tabula command> <label>: Kalah against `perfect`, and a table hosted for a friend
  local root=$1 tabula=$2 label=$3 out=$work/out
  as_stranger "$root" "$tabula play mancala/kalah-6-4 --p2 perfect >/tmp/$label-kalah.log 2>&1 & echo \$! > /tmp/kalah.pid"
  sleep 10
  # Sow pit A1 as a player clicks it (its last stone lands in A5: perfect's turn).
  DISPLAY=$display xdotool mousemove 226 445 mousedown 1; sleep 0.2
  DISPLAY=$display xdotool mouseup 1; sleep 8
  kill -0 "$(cat "$root/tmp/kalah.pid")" || { echo "FAILED: $label: the Kalah window died:" >&2; tail "$root/tmp/$label-kalah.log" >&2; exit 1; }
  DISPLAY=$display import -window root "dist/install-test-$label-kalah.png"
  kill "$(cat "$root/tmp/kalah.pid")"
  echo "   ok: $label: Kalah (6,4) against perfect in the window, A1 sown (dist/install-test-$label-kalah.png: look at it)"
  as_stranger "$root" "$tabula play nim/traditional-3-4-5 --host --port 7980 >/tmp/$label-host.log 2>&1 & echo \$! > /tmp/host.pid"
  local code=
  for i in $(seq 120); do
    code=$(sed -n 's/.*table \([^ ]*\) at ws.*/\1/p' "$root/tmp/$label-host.log" 2>/dev/null | head -1)
    [ -n "$code" ] && break
    sleep 0.5
  done
  [ -n "$code" ] || { echo "FAILED: $label: the hosting window made no table:" >&2; tail "$root/tmp/$label-host.log" >&2; exit 1; }
  as_stranger "$root" "timeout 8 $tabula bot ws://127.0.0.1:7980 --table $code --agent optimal --name Friend" >"$out" 2>&1 || true
  check "$label: a friend joins the table the window hosts (code $code)" "^seat 2 at table $code" "$out"
  DISPLAY=$display import -window root "dist/install-test-$label-host.png"
  kill "$(cat "$root/tmp/host.pid")"
}

echo "== the packages, installed by apt into a clean root"
root=$work/deb
fresh_root "$root"
cp "$deb" "$server_deb" "$root/tmp/"
apt_in "$root" update
# systemd too, as on a host: the server package enables its unit there.
apt_in "$root" install -y systemd "/tmp/$(basename "$deb")" "/tmp/$(basename "$server_deb")"
echo "   installed: $(chroot "$root" dpkg-query -W -f '${Package} ${Version}, ' tabula tabula-server)"
[ -f "$root/usr/share/applications/tabula.desktop" ] && [ -f "$root/usr/share/icons/hicolor/256x256/apps/tabula.png" ] &&
  echo "   ok: a menu entry and an icon" || { echo "FAILED: no desktop entry or icon" >&2; exit 1; }
chroot "$root" sh -c 'zcat /usr/share/man/man1/tabula.1.gz | grep -q EXAMPLES && zcat /usr/share/man/man1/tabula-server.1.gz | grep -q FILES' &&
  echo "   ok: the manuals" || { echo "FAILED: the manuals" >&2; exit 1; }
plays "$root" tabula tabula-server deb

# The service as its unit runs it: its command line, the options of
# /etc/default, a user of no privilege and a state folder of its own.
unit=$root/lib/systemd/system/tabula-server.service
[ -f "$unit" ] || unit=$root/usr/lib/systemd/system/tabula-server.service
exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
chroot "$root" sh -c "useradd --system --no-create-home service-test && mkdir -p /var/lib/tabula-server && chown service-test /var/lib/tabula-server"
chroot --userspec=service-test:service-test "$root" env -i PATH=/usr/bin:/bin sh -c \
  "cd /var/lib/tabula-server; . /etc/default/tabula-server; $exec_start >/tmp/service.log 2>&1 & echo \$! >/tmp/service.pid"
as_stranger "$root" "for i in \$(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/7878) 2>/dev/null && break; sleep 0.2; done
  timeout 120 tabula bot ws://127.0.0.1:7878 --create nim/traditional-3-4-5 --seats person,optimal --agent optimal" \
  >"$work/service-bot.log" 2>&1 || true
kill "$(cat "$root/tmp/service.pid")" 2>/dev/null || true
check "the service's command line serves on localhost:7878" "^the game is over" "$work/service-bot.log"
[ -f "$root/var/lib/tabula-server/tables.db" ] && echo "   ok: its database under /var/lib/tabula-server" ||
  { echo "FAILED: no database under /var/lib/tabula-server" >&2; exit 1; }
[ -L "$root/etc/systemd/system/multi-user.target.wants/tabula-server.service" ] &&
  echo "   ok: the service is enabled on install" || { echo "FAILED: the service was not enabled" >&2; exit 1; }
chroot "$root" systemd-analyze verify --man=no tabula-server.service >"$work/verify.log" 2>&1 &&
  echo "   ok: systemd-analyze verify tabula-server.service" || { cat "$work/verify.log" >&2; exit 1; }
chroot "$root" systemd-analyze security --offline=true --no-pager tabula-server.service 2>/dev/null |
  tail -1 | sed 's/^/   the unit'"'"'s exposure, as systemd rates it: /' || true

echo "== the tarball, unpacked in a temporary folder of a clean root with the declared dependencies"
root=$work/tar
fresh_root "$root"
depends=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/([^)]*)//; s/|.*//' | xargs)
apt_in "$root" update
apt_in "$root" install -y $depends
cp "$tarball" "$root/tmp/"
as_stranger "$root" "mkdir -p /tmp/unpacked && tar -C /tmp/unpacked -xzf /tmp/$(basename "$tarball")"
bin=/tmp/unpacked/tabula-$version-linux-x86_64/bin/tabula
plays "$root" "$bin" "$bin serve" tarball

echo "== every install test passed"
