#!/usr/bin/env bash
# Builds tabula's packages into dist/ (docs/packages.md), then tests them as
# a stranger installs them (scripts/install-test.sh) unless --no-test:
#   tabula-<version>-linux-x86_64.tar.gz  bin/tabula and share/: unpack anywhere
#   tabula_<version>-1_amd64.deb          the game, a menu entry, an icon, a manual
#   tabula-server_<version>-1_amd64.deb   the server (no Bevy), a systemd unit
# Usage: scripts/package.sh [--no-test]
# The release profile (Cargo.toml) is a second cold build of Bevy besides the
# tests' one: tens of minutes on two cores the first time.
set -euo pipefail
cd "$(dirname "$0")/.."
test_after=yes
case "${1:-}" in
  --no-test) test_after=no ;;
  "") ;;
  *) echo "usage: $0 [--no-test]" >&2; exit 2 ;;
esac

scripts/setup.sh package
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/tabula-target}"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
CARGO_DEB_VERSION=3.8.0
if ! cargo deb --version 2>/dev/null | grep -q "$CARGO_DEB_VERSION"; then
  echo "== installing cargo-deb $CARGO_DEB_VERSION from crates.io"
  cargo install cargo-deb --version "$CARGO_DEB_VERSION" --locked
fi
version=$(cargo metadata --format-version 1 --no-deps --locked |
  python3 -c 'import json,sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "tabula"))')
release="$CARGO_TARGET_DIR/release"

seconds() { date +%s; }
echo "== building tabula-server (release)"
start=$(seconds)
cargo build --release --locked -p tabula-server --bin tabula-server
server_time=$(( $(seconds) - start ))
echo "== building tabula (release)"
start=$(seconds)
cargo build --release --locked -p tabula --bin tabula
game_time=$(( $(seconds) - start ))

stage=dist/stage
rm -rf "$stage" dist/*.deb dist/*.tar.gz
mkdir -p "$stage"

# The manuals, from each binary's --help and a page of examples and files.
man=$stage/man
mkdir -p "$man"
help2man --no-info --section 1 --include packaging/tabula.h2m "$release/tabula" > "$man/tabula.1"
help2man --no-info --section 1 --include packaging/tabula-server.h2m "$release/tabula-server" > "$man/tabula-server.1"
gzip -9n "$man"/*.1

# What the game ships beside its binary, as both the tarball and the
# package lay it out under their prefix.
share() { # <prefix> <doc name>
  local prefix=$1 doc=$2
  mkdir -p "$prefix/share/tabula" "$prefix/share/doc/$doc" "$prefix/share/man/man1"
  cp -r levels arenas "$prefix/share/tabula/"
  cp README.md LICENSE-MIT LICENSE-APACHE "$prefix/share/doc/$doc/"
  cp -r docs "$prefix/share/doc/$doc/docs"
  rm -rf "$prefix/share/doc/$doc/docs/screenshots" "$prefix/share/doc/$doc/docs/arena"
  cp -r "$stage/licences/tabula" "$prefix/share/doc/$doc/third-party"
  cp "$man/tabula.1.gz" "$prefix/share/man/man1/"
  mkdir -p "$prefix/share/applications" "$prefix/share/icons/hicolor/scalable/apps"
  cp packaging/tabula.desktop "$prefix/share/applications/"
  cp packaging/tabula.svg "$prefix/share/icons/hicolor/scalable/apps/"
  for size in 48 128 256; do
    mkdir -p "$prefix/share/icons/hicolor/${size}x$size/apps"
    rsvg-convert -w $size -h $size packaging/tabula.svg -o "$prefix/share/icons/hicolor/${size}x$size/apps/tabula.png"
  done
}
scripts/third-party-licences.py tabula "$stage/licences/tabula"
scripts/third-party-licences.py tabula-server "$stage/licences/tabula-server"

echo "== the tarball"
name=tabula-$version-linux-x86_64
mkdir -p "$stage/tar/$name/bin"
cp "$release/tabula" "$stage/tar/$name/bin/"
share "$stage/tar/$name" tabula
cp README.md LICENSE-MIT LICENSE-APACHE "$stage/tar/$name/"
tar -C "$stage/tar" --owner=0 --group=0 --sort=name -czf "dist/$name.tar.gz" "$name"

echo "== the packages"
share "$stage/deb/usr" tabula
cargo deb --no-build --locked -p tabula --output dist/
srv=$stage/server
mkdir -p "$srv/usr/share/tabula-server" "$srv/usr/share/doc/tabula-server" "$srv/usr/share/man/man1" "$srv/etc/default"
cp -r levels "$srv/usr/share/tabula-server/"
cp docs/protocol.md LICENSE-MIT LICENSE-APACHE "$srv/usr/share/doc/tabula-server/"
cp -r "$stage/licences/tabula-server" "$srv/usr/share/doc/tabula-server/third-party"
cp "$man/tabula-server.1.gz" "$srv/usr/share/man/man1/"
cp packaging/tabula-server.default "$srv/etc/default/tabula-server"
cargo deb --no-build --locked -p tabula-server --output dist/

echo "== dist/"
ls -l dist/*.deb dist/*.tar.gz
{
  echo "version $version"
  echo "release build: tabula-server ${server_time}s, tabula ${game_time}s (0s when already built)"
  for f in dist/*.deb dist/*.tar.gz; do echo "$(basename "$f") $(stat -c %s "$f") bytes"; done
  echo "tabula binary $(stat -c %s "$release/tabula") bytes, tabula-server $(stat -c %s "$release/tabula-server") bytes"
} | tee dist/sizes.txt

if [ "$test_after" = yes ]; then
  scripts/install-test.sh
fi
