#!/usr/bin/env bash
# Copies the page's third-party browser files from node_modules (installed
# at the versions pinned in package.json / package-lock.json by setup.sh)
# into www/vendor/, which is committed so the static page is served as is:
#   uPlot (MIT): the minified browser build, its style sheet and licence,
#   loaded by the Experiments panel only when it opens.
# `scripts/build/vendor.sh --check` changes nothing and fails when a committed
# file differs from the npm package (test.sh runs it).
set -euo pipefail
LOG_TAG="vendor"
# shellcheck source-path=SCRIPTDIR source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$REPO_ROOT"

# source in node_modules -> destination under www/vendor
FILES=(
    "uplot/dist/uPlot.iife.min.js:uplot/uPlot.iife.min.js"
    "uplot/dist/uPlot.min.css:uplot/uPlot.min.css"
    "uplot/LICENSE:uplot/LICENSE"
)
check=0
[[ "${1:-}" == "--check" ]] && check=1
[[ -d node_modules/uplot ]] || die "node_modules/uplot is missing; run scripts/setup.sh (npm ci)"
want="$(node -p 'require("./package.json").devDependencies.uplot')"
have="$(node -p 'require("./node_modules/uplot/package.json").version')"
[[ "$want" == "$have" ]] || die "node_modules has uplot $have, package.json pins $want; run scripts/setup.sh"

status=0
for pair in "${FILES[@]}"; do
    src="node_modules/${pair%%:*}"
    dst="www/vendor/${pair#*:}"
    if [[ $check -eq 1 ]]; then
        if ! cmp -s "$src" "$dst"; then
            warn "$dst differs from $src (uplot $want); run scripts/build/vendor.sh and commit"
            status=1
        fi
    else
        mkdir -p "$(dirname "$dst")"
        cp "$src" "$dst"
    fi
done
[[ $status -eq 0 ]] || exit 1
if [[ $check -eq 1 ]]; then
    log "www/vendor matches the npm packages (uplot $want)"
else
    log "copied uplot $want into www/vendor/uplot"
    file_sizes "$REPO_ROOT/www/vendor/uplot/uPlot.iife.min.js" >&2
fi
