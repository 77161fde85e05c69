#!/usr/bin/env bash
# Builds the JS API (js/, crate ravenshard-js) as one npm package:
#   target/npm/ravenshard-<version>.tgz      (made by `npm pack`; prints its path last)
#
#   node/ravenshard.cjs, ravenshard_bg.wasm  wasm-bindgen --target nodejs: Node.js `require`,
#                                            reads the .wasm next to it
#   node/index.mjs                           Node.js `import`: re-exports the same instance
#   web/ravenshard.js                        wasm-bindgen --target web (ES module glue)
#   web/wasm.js, web/index.js                browsers and bundlers: the .wasm inlined as
#                                            base64, compiled at import (no init(), no
#                                            bundler configuration)
#   ravenshard.d.ts, ravenshard.d.cts        the typings, for `import` and `require`
#   package.json, README.md                  from js/package/, version from js/Cargo.toml
#
# Steps: release build for wasm32 with SIMD, wasm-bindgen (nodejs and web), wasm-opt -O3, the entry
# modules, `npm pack`. Installs what is missing first (scripts/setup.sh --js). Skips the work
# when the tarball is newer than the wasm and every input. Works from any directory.
# Usage: scripts/js-package.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
scripts/setup.sh --js >&2
export PATH="$root/.tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"
say() { printf '\033[1m[js-package]\033[0m %s\n' "$*" >&2; }

# With wasm SIMD (in every browser since 2023, Node.js 16.4+): bucketsFor is about 20% faster.
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C target-feature=+simd128"
cargo build --locked -p ravenshard-js --release --target wasm32-unknown-unknown >&2
target="$(cargo metadata --format-version 1 --no-deps |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
wasm="$target/wasm32-unknown-unknown/release/ravenshard_js.wasm"
version="$(cargo metadata --format-version 1 --no-deps | python3 -c '
import json, sys
print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "ravenshard-js"))')"
tarball="$target/npm/ravenshard-$version.tgz"

if [ -f "$tarball" ] && [ -z "$(find "$wasm" js/package/package.json js/package/README.md scripts/js-package.sh -newer "$tarball" -print -quit)" ]; then
  say "up to date: $tarball"
  echo "$tarball"
  exit 0
fi

out="$target/npm/package"
rm -rf "$out"
mkdir -p "$out"
say "wasm-bindgen --target nodejs and --target web"
wasm-bindgen --target nodejs --out-name ravenshard --out-dir "$out/node" "$wasm"
# No default URL for the .wasm (a bundler would look for the file): web/index.js passes it.
wasm-bindgen --target web --omit-default-module-path --out-name ravenshard --no-typescript \
  --out-dir "$out/web" "$wasm"

# The features the wasm uses (rustc's defaults for wasm32-unknown-unknown, and SIMD), so
# that wasm-opt keeps (and may use) them.
say "wasm-opt -O3 ($(wc -c <"$out/node/ravenshard_bg.wasm") bytes in)"
wasm-opt -O3 --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-reference-types --enable-multivalue --enable-mutable-globals --enable-simd \
  "$out/node/ravenshard_bg.wasm" -o "$out/node/ravenshard_bg.wasm"
rm "$out/web/ravenshard_bg.wasm" "$out/node/ravenshard_bg.wasm.d.ts"

# "type": "module" makes .js files ES modules: the nodejs glue is CommonJS.
mv "$out/node/ravenshard.js" "$out/node/ravenshard.cjs"
# The typings: wasm-bindgen's, which use Symbol.dispose (TypeScript 5.2+'s esnext.disposable).
{
  echo '/// <reference lib="esnext.disposable" />'
  sed 's|^/\* @ts-self-types=.*||' "$out/node/ravenshard.d.ts"
} >"$out/ravenshard.d.ts"
cp "$out/ravenshard.d.ts" "$out/ravenshard.d.cts"
rm "$out/node/ravenshard.d.ts"
sed -i 's|^/\* @ts-self-types=.*||' "$out/node/ravenshard.cjs" "$out/web/ravenshard.js"

# The entries re-export exactly what the nodejs build exports.
names="$(node -p 'Object.keys(require(process.argv[1])).join(", ")' "$out/node/ravenshard.cjs")"
cat >"$out/node/index.mjs" <<EOF
// Node.js \`import\`: the instance \`require("ravenshard")\` gives (ravenshard.cjs, which reads
// ravenshard_bg.wasm next to it), so that objects of one can be passed to the other.
import api from "./ravenshard.cjs";

export const { $names } = api;
EOF
{
  printf 'export default "'
  base64 -w0 "$out/node/ravenshard_bg.wasm"
  printf '";\n'
} >"$out/web/wasm.js"
cat >"$out/web/index.js" <<EOF
// Browsers and bundlers: the WebAssembly module is inlined (base64, in wasm.js) and
// compiled when this module is imported, so no init() call and no bundler setting is needed.
import { initSync, $names } from "./ravenshard.js";
import wasm from "./wasm.js";

const bytes = typeof Uint8Array.fromBase64 === "function"
  ? Uint8Array.fromBase64(wasm)
  : Uint8Array.from(atob(wasm), (c) => c.charCodeAt(0));
initSync({ module: bytes });

export { $names };
EOF

cp js/package/package.json js/package/README.md "$out/"
(cd "$out" && npm pkg set "version=$version")
say "npm pack"
(cd "$out" && npm pack --silent --pack-destination "$target/npm" >/dev/null)
[ -f "$tarball" ] || { echo "npm pack did not write $tarball" >&2; exit 1; }
say "$tarball: $(wc -c <"$tarball") bytes"
echo "$tarball"
