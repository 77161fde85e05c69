#!/usr/bin/env sh
# Trunk's post_build hook: writes into the Content-Security-Policy of the built index.html
# (TRUNK_STAGING_DIR) the SHA-256 hash of each inline <script> trunk wrote (its wasm loader),
# in place of INLINE_SCRIPT_HASHES, so that the policy allows those scripts and no others.
# Fails when the page has no policy to fill in.
set -eu
exec python3 - "${TRUNK_STAGING_DIR:?run by trunk as a post_build hook}/index.html" <<'PY'
import base64, hashlib, re, sys
path = sys.argv[1]
html = open(path, encoding="utf-8").read()
if "INLINE_SCRIPT_HASHES" not in html:
    sys.exit(f"csp: {path} has no INLINE_SCRIPT_HASHES in its Content-Security-Policy")
scripts = re.findall(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", html, re.S)
hashes = " ".join(
    "'sha256-" + base64.b64encode(hashlib.sha256(s.encode("utf-8")).digest()).decode() + "'"
    for s in scripts if s)
open(path, "w", encoding="utf-8").write(html.replace("INLINE_SCRIPT_HASHES", hashes))
PY
