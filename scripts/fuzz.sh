#!/usr/bin/env bash
# Runs the fuzz targets of fuzz/ (cargo-fuzz and libFuzzer, nightly): each for SECONDS
# (default 20), from its checked-in corpus fuzz/corpus/TARGET, with its dictionary from
# fuzz/dict/. New inputs go to a scratch corpus (FUZZ_CORPUS, default a temporary folder),
# so the checked-in corpus only changes by hand (--cmin). A crash, a failed property, a
# hang over 10 s or over 2.5 GB of memory stops the target and leaves the input in
# fuzz/artifacts/TARGET/: turn it into a regression test in the crate's tests, then fix it.
# Builds with debug assertions (integer overflow included).
#
# Usage: scripts/fuzz.sh TARGET|all [SECONDS]
#        scripts/fuzz.sh --cmin TARGET|all     minimises fuzz/corpus/TARGET (cargo fuzz cmin)
#        scripts/fuzz.sh --list
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --fuzz
export PATH="$HOME/.cargo/bin:$PATH"

TARGETS=(config ids import import_agree share statistics rql content saved)
dict_of() {
  case "$1" in
    rql) echo fuzz/dict/rql.dict ;;
    config | content | statistics | import | share | saved) echo fuzz/dict/json.dict ;;
    *) echo "" ;;
  esac
}
usage() { echo "usage: $0 TARGET|all [SECONDS] | --cmin TARGET|all | --list (targets: ${TARGETS[*]})" >&2; exit 2; }

cmin=false
case "${1:-}" in
  --list) printf '%s\n' "${TARGETS[@]}"; exit 0 ;;
  --cmin) cmin=true; shift ;;
  "") usage ;;
esac
which="$1"
seconds="${2:-20}"
[[ "$seconds" =~ ^[0-9]+$ ]] || usage
if [ "$which" = all ]; then
  chosen=("${TARGETS[@]}")
elif printf '%s\n' "${TARGETS[@]}" | grep -qx "$which"; then
  chosen=("$which")
else
  usage
fi

build_log="$(mktemp "${TMPDIR:-/tmp}/ravenshard-fuzz-build.XXXXXX")"
build_target=()
[ "$which" = all ] || build_target=("$which")
if ! cargo +nightly fuzz build --debug-assertions "${build_target[@]}" >"$build_log" 2>&1; then
  grep -v '^\s*Compiling' "$build_log" | tail -40
  rm -f "$build_log"
  echo "fuzz: the targets do not build"; echo "0 passed, ${#chosen[@]} failed"; exit 1
fi
rm -f "$build_log"

scratch="${FUZZ_CORPUS:-}"
if [ -z "$scratch" ]; then
  scratch="$(mktemp -d "${TMPDIR:-/tmp}/ravenshard-fuzz.XXXXXX")"
  trap 'rm -rf "$scratch"' EXIT
fi

passed=0
failed=()
for target in "${chosen[@]}"; do
  corpus="fuzz/corpus/$target"
  mkdir -p "$corpus" "$scratch/$target" "fuzz/artifacts/$target"
  dict="$(dict_of "$target")"
  if $cmin; then
    cargo +nightly fuzz cmin --debug-assertions "$target" "$corpus" -- ${dict:+-dict=$dict} -max_len=8192
    continue
  fi
  printf '\n\033[1m== fuzz %s (%ss)\033[0m\n' "$target" "$seconds"
  log="$scratch/$target.log"
  if cargo +nightly fuzz run --debug-assertions "$target" "$scratch/$target" "$corpus" -- \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2560 -max_len=8192 \
      -artifact_prefix="fuzz/artifacts/$target/" -print_final_stats=1 \
      ${dict:+-dict=$dict} >"$log" 2>&1; then
    passed=$((passed + 1))
    # The last status line: executions, coverage (cov: edges, ft: features), corpus size.
    grep -E '^#[0-9]+' "$log" | tail -1 || true
    grep -E 'stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb' "$log" || true
  else
    failed+=("$target")
    tail -60 "$log"
    echo "fuzz: $target failed; the input is in fuzz/artifacts/$target/"
  fi
done
$cmin && exit 0
echo
[ ${#failed[@]} -eq 0 ] || printf 'failed: %s\n' "${failed[@]}"
echo "$passed passed, ${#failed[@]} failed"
[ ${#failed[@]} -eq 0 ]
