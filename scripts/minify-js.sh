#!/usr/bin/env sh
# Trunk's post_build hook: minifies the page's JavaScript (wasm-bindgen's glue) with terser in
# release builds; the glue is most of the page's JS and trunk 0.21 does not minify it. The
# rust asset is built with data-integrity="none" (index.html), since its hash is taken before
# this hook runs. terser comes from scripts/setup.sh (npm, into .tools/).
set -eu
[ "${TRUNK_PROFILE:-}" = "release" ] || exit 0
terser=$(command -v terser || true)
if [ -z "$terser" ]; then
  echo "minify-js: terser is not on PATH; run scripts/setup.sh" >&2
  exit 1
fi
for file in "$TRUNK_STAGING_DIR"/*.js; do
  [ -e "$file" ] || continue
  "$terser" "$file" --module --compress --mangle --output "$file.min"
  mv "$file.min" "$file"
done
