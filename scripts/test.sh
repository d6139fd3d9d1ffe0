#!/usr/bin/env bash
# Sets everything up, checks formatting and lints (warnings fail) and that
# the levels are in tabula's layout, runs the web page's browser tests,
# then every Rust test. .ci/run runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh test
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/tabula-target}"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
cargo fmt --all --check
cargo clippy --workspace --all-targets --locked -- -D warnings
# The measurement hooks are built only with the dev feature: linted too.
cargo clippy --workspace --all-targets --locked --features dev -- -D warnings
# Every shipped level in the layout the editor saves (as rustfmt --check).
cargo run --quiet --locked -- fmt --check levels/
# The web page in Debian's Chromium, against the server just built, with
# the page built into it (docs/playing.md, "In a browser"), its opponents
# `tabula bot`s (the binary `cargo run` built above).
cargo build --quiet --locked -p tabula-server --bin tabula-server
(cd web && npm ci --no-audit --no-fund --loglevel=error)
TABULA_SERVER="$CARGO_TARGET_DIR/debug/tabula-server" TABULA="$CARGO_TARGET_DIR/debug/tabula" \
  TABULA_WEB=embedded npm --prefix web test
cargo test --workspace --locked
