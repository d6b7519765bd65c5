#!/usr/bin/env bash
# Serves the playground on http://127.0.0.1:${PORT:-8000}/ with python's
# http.server (Ctrl-C to stop):
#   ./scripts/serve.sh        builds the site (scripts/build-site.sh: setup,
#                             wasm, bundles) and serves dist/, what ships;
#   DEV=1 ./scripts/serve.sh  builds the wasm and serves the repository root
#                             as it is: index.html loads the unbundled
#                             modules of www/, so an edit shows on reload
#                             with no build step (no service worker either).
set -euo pipefail
LOG_TAG="serve"
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PORT="${PORT:-8000}"
if [[ "${DEV:-0}" == 1 ]]; then
    bash "$REPO_ROOT/scripts/setup.sh"
    bash "$REPO_ROOT/scripts/build/build-wasm.sh"
    bash "$REPO_ROOT/scripts/build/vendor.sh"
    ROOT="$REPO_ROOT"
    log "development mode: serving the repository $REPO_ROOT (unbundled modules)"
else
    bash "$REPO_ROOT/scripts/build-site.sh"
    ROOT="$REPO_ROOT/dist"
    log "serving the built site $ROOT (DEV=1 serves the repository's unbundled modules instead)"
fi
log "http://127.0.0.1:$PORT/ (Ctrl-C to stop)"
exec python3 -m http.server "$PORT" --bind 127.0.0.1 --directory "$ROOT"
