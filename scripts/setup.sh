#!/usr/bin/env bash
# Installs what building, testing and running tabula need on Debian/Ubuntu.
# Usage: scripts/setup.sh [build|test|window|screenshots|report|package]   (default: build)
#   build        compilers' system libraries (ALSA headers, pkg-config), and
#                Python's websockets (the server's tests run the Python bot)
#   test         + Node.js with npm and headless Chromium (the web page's
#                tests drive the browser), openssl (one makes a certificate)
#   window       + the X11 and Vulkan libraries the window loads at run time
#   screenshots  + Xvfb, Mesa's software Vulkan, xdotool and ImageMagick
#   report       + headless Chromium, to look at an arena's HTML report
#   package      + what scripts/package.sh and install-test.sh use: dpkg-dev
#                (cargo-deb reads libraries' packages with it), help2man,
#                librsvg2-bin (the icon's sizes), debootstrap (a clean
#                Debian to install into), Xvfb and ImageMagick
# Does nothing when everything is already installed.
set -euo pipefail

packages=(pkg-config libasound2-dev python3-websockets)
case "${1:-build}" in
  build) ;;
  test) packages+=(chromium openssl)
        # Node.js as the system has it, unless one is installed already (another
        # distribution's nodejs package may bundle npm and refuse Debian's).
        command -v npm >/dev/null || packages+=(nodejs npm) ;;
  window) packages+=(libx11-6 libxcursor1 libxrandr2 libxi6 libxkbcommon-x11-0 libvulkan1 mesa-vulkan-drivers) ;;
  screenshots) packages+=(libx11-6 libxcursor1 libxrandr2 libxi6 libxkbcommon-x11-0 libvulkan1 mesa-vulkan-drivers
                          xvfb xdotool imagemagick) ;;
  report) packages+=(chromium) ;;
  package) packages+=(dpkg-dev help2man librsvg2-bin debootstrap xvfb imagemagick) ;;
  *) echo "usage: $0 [build|test|window|screenshots|report|package]" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v cargo >/dev/null; then
  echo "cargo not found: install Rust 1.95 (https://rustup.rs) and run this again" >&2
  exit 1
fi
