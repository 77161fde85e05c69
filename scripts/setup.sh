#!/usr/bin/env bash
# Installs what building and testing ravenshard needs, skipping whatever is already there:
#   - the wasm32-unknown-unknown Rust target
#   - wasm-bindgen-cli at exactly the wasm-bindgen version locked in Cargo.lock
#   - trunk 0.21.14 (0.22 needs a newer rustc)
#   - wasm-opt v132 from the npm package binaryen, in .tools/ (Debian's v108 cannot read
#     today's wasm)
#   - terser, from npm into .tools/, which minifies the studio's JS in release builds
#   - axe-core, from npm into .tools/, for the studio's accessibility test (scripts/a11y.sh;
#     a test tool, never part of dist/)
#   - typescript, esbuild and xxhash-wasm, from npm into .tools/, for the npm package's
#     tests (tsc, a bundled app) and its benchmark (the JS loop it is compared with)
#   - with --browser: Debian's Chromium and ChromeDriver, for the browser tests
#   - with --fuzz: the nightly toolchain and cargo-fuzz 0.13.2, for the fuzz targets of fuzz/
#     (scripts/fuzz.sh); nothing else
# With --js, only what the npm package (scripts/js-package.sh), its tests and its benchmark
# need: the target, wasm-bindgen-cli, wasm-opt, typescript, esbuild, xxhash-wasm.
# Usage: scripts/setup.sh [--browser] [--js] [--fuzz]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

browser=false
only_js=false
only_fuzz=false
for arg in "$@"; do
  case "$arg" in
    --browser) browser=true ;;
    --js) only_js=true ;;
    --fuzz) only_fuzz=true ;;
    *) echo "usage: $0 [--browser] [--js] [--fuzz]" >&2; exit 2 ;;
  esac
done

TRUNK_VERSION=0.21.14
BINARYEN_VERSION=132.0.0
TERSER_VERSION=5.51.2
AXE_CORE_VERSION=4.14.1
TYPESCRIPT_VERSION=5.9.3
ESBUILD_VERSION=0.28.2
XXHASH_WASM_VERSION=1.1.0
CARGO_FUZZ_VERSION=0.13.2
say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

# libFuzzer's instrumentation (-Z sanitizer) needs a nightly rustc; cargo-fuzz drives it.
if $only_fuzz; then
  if ! rustup toolchain list | grep -q '^nightly'; then
    say "installing the nightly toolchain, for cargo-fuzz"
    rustup toolchain install nightly --profile minimal
  fi
  if [ "$(cargo fuzz --version 2>/dev/null | awk '{print $2}')" != "$CARGO_FUZZ_VERSION" ]; then
    say "installing cargo-fuzz $CARGO_FUZZ_VERSION (about 3 minutes)"
    cargo install cargo-fuzz --version "=$CARGO_FUZZ_VERSION" --locked
  fi
  say "ready"
  exit 0
fi

# An npm package of .tools/ at exactly this version, installed when it is not.
npm_tool() {
  local name="$1" version="$2" why="$3"
  if [ "$(node -p "require('./.tools/node_modules/$name/package.json').version" 2>/dev/null)" != "$version" ]; then
    say "installing $name $version (npm) into .tools/, $why"
    mkdir -p .tools
    npm install --silent --no-audit --no-fund --prefix .tools "$name@$version"
  fi
}

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

npm_tool binaryen "$BINARYEN_VERSION" "for wasm-opt ${BINARYEN_VERSION%%.*}"
npm_tool typescript "$TYPESCRIPT_VERSION" "to check the npm package's typings"
npm_tool esbuild "$ESBUILD_VERSION" "to bundle an app with the npm package"
npm_tool xxhash-wasm "$XXHASH_WASM_VERSION" "for the npm package's benchmark"

if $only_js; then
  say "ready"
  exit 0
fi

if [ "$(trunk --version 2>/dev/null | awk '{print $2}')" != "$TRUNK_VERSION" ]; then
  say "installing trunk $TRUNK_VERSION (10-15 minutes)"
  cargo install trunk --version "=$TRUNK_VERSION" --locked
fi

npm_tool terser "$TERSER_VERSION" "to minify the studio's JS"
npm_tool axe-core "$AXE_CORE_VERSION" "for the studio's accessibility test"

if $browser && ! { command -v chromium && command -v chromedriver; } >/dev/null; then
  say "installing Chromium and ChromeDriver from Debian"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-driver >/dev/null
fi
say "ready"
