#!/usr/bin/env bash
# Runs every check and test of ravenshard, installing what is missing first:
# formatting, clippy (host and wasm32), native unit/doc/integration/property tests (the
# library and the CLI), the JS API and the studio in headless Chromium, the release build of
# the studio, and smoke tests of the built JS API and studio pages in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --browser
export PATH="$PWD/.tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export CHROMEDRIVER="${CHROMEDRIVER:-$(command -v chromedriver)}"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

passed=0
failed_steps=()
step() {
  local name="$1"; shift
  printf '\n\033[1m== %s\033[0m\n' "$name"
  local started=$SECONDS
  if "$@"; then
    passed=$((passed + 1))
    printf '\033[1m== %s: ok (%ss)\033[0m\n' "$name" $((SECONDS - started))
  else
    failed_steps+=("$name")
    printf '\033[1;31m== %s: FAILED\033[0m\n' "$name"
  fi
}
in_dir() { (cd "$1" && shift && "$@"); }

step "rustfmt" cargo fmt --all --check
step "clippy (host)" cargo clippy --workspace --all-targets --locked -- -D warnings
clippy_wasm32() {
  cargo clippy --locked --target wasm32-unknown-unknown -p ravenshard -p ravenshard-design -p ravenshard-model --lib -- -D warnings &&
    cargo clippy --locked --target wasm32-unknown-unknown -p ravenshard-js -p ravenshard-studio --all-targets -- -D warnings
}
step "clippy (wasm32)" clippy_wasm32
native_tests() {
  # The workspace (the CLI turns on the core's icu-collation feature), then the core alone,
  # as the JS API and the studio build it (without the feature).
  cargo test --workspace --locked && cargo test --locked -p ravenshard
}
step "native tests (unit, doc, integration, CLI, properties)" native_tests
step "JS API in headless Chromium" in_dir js cargo test --locked --target wasm32-unknown-unknown
step "studio components in headless Chromium" in_dir web cargo test --locked --target wasm32-unknown-unknown
step "studio release build (trunk)" trunk build --release
step "studio smoke test (dist/ in headless Chromium)" scripts/smoke.sh
step "JS API from JavaScript (built package in headless Chromium)" js/bench/run.sh

echo
if [ ${#failed_steps[@]} -gt 0 ]; then
  printf 'failed: %s\n' "${failed_steps[@]}"
fi
echo "steps: $passed passed, ${#failed_steps[@]} failed"
[ ${#failed_steps[@]} -eq 0 ]
