#!/usr/bin/env bash
# Sets up, builds the wasm, and serves the repo root (index.html, www/) on
# http://127.0.0.1:${PORT:-8000}/ with python's http.server.
set -euo pipefail
LOG_TAG="serve"
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

bash "$REPO_ROOT/scripts/setup.sh"
bash "$REPO_ROOT/scripts/build/build-wasm.sh"
bash "$REPO_ROOT/scripts/build/vendor.sh"
PORT="${PORT:-8000}"
log "serving $REPO_ROOT on http://127.0.0.1:$PORT/ (Ctrl-C to stop)"
cd "$REPO_ROOT"
exec python3 -m http.server "$PORT" --bind 127.0.0.1 --directory "$REPO_ROOT"
