#!/usr/bin/env bash
# Installs what building and testing ravenshard needs, skipping whatever is already there:
#   - the wasm32-unknown-unknown Rust target
#   - wasm-bindgen-cli at exactly the wasm-bindgen version locked in Cargo.lock
#   - trunk 0.21.14 (0.22 needs a newer rustc)
#   - wasm-opt v132 from the npm package binaryen, in .tools/ (Debian's v108 cannot read
#     today's wasm)
#   - terser, from npm into .tools/, which minifies the studio's JS in release builds
#   - with --browser: Debian's Chromium and ChromeDriver, for the browser tests
# Usage: scripts/setup.sh [--browser]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

TRUNK_VERSION=0.21.14
BINARYEN_VERSION=132.0.0
TERSER_VERSION=5.51.2
say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# The CLI must equal the library version in Cargo.lock, or wasm-bindgen refuses the wasm.
wb_version=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/version = |"/, ""); print; exit}' Cargo.lock)
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$wb_version" ]; then
  say "installing wasm-bindgen-cli $wb_version (about 5 minutes)"
  # Not --locked: the CLI's own lock file pins a yanked crate.
  cargo install wasm-bindgen-cli --version "=$wb_version"
fi

if [ "$(trunk --version 2>/dev/null | awk '{print $2}')" != "$TRUNK_VERSION" ]; then
  say "installing trunk $TRUNK_VERSION (10-15 minutes)"
  cargo install trunk --version "=$TRUNK_VERSION" --locked
fi

if [ "$(.tools/node_modules/.bin/wasm-opt --version 2>/dev/null | awk '{print $3}')" != "${BINARYEN_VERSION%%.*}" ]; then
  say "installing wasm-opt ${BINARYEN_VERSION%%.*} (npm binaryen) into .tools/"
  mkdir -p .tools
  npm install --silent --no-audit --no-fund --prefix .tools "binaryen@$BINARYEN_VERSION"
fi

if [ "$(.tools/node_modules/.bin/terser --version 2>/dev/null | awk '{print $2}')" != "$TERSER_VERSION" ]; then
  say "installing terser $TERSER_VERSION (npm) into .tools/, to minify the studio's JS"
  mkdir -p .tools
  npm install --silent --no-audit --no-fund --prefix .tools "terser@$TERSER_VERSION"
fi

if [ "${1:-}" = "--browser" ] && ! { command -v chromium && command -v chromedriver; } >/dev/null; then
  say "installing Chromium and ChromeDriver from Debian"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-driver >/dev/null
fi
say "ready"
