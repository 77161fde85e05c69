#!/usr/bin/env bash
# Builds and serves the studio on http://127.0.0.1:${PORT:-8080}/, installing what is missing.
# Usage: scripts/studio.sh        (PORT=9000 scripts/studio.sh for another port)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export PATH="$PWD/.tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"
port="${PORT:-8080}"
echo
echo "ravenshard studio: http://127.0.0.1:$port/  (Ctrl-C stops it)"
echo
exec trunk serve --release --address 127.0.0.1 --port "$port" --no-autoreload
