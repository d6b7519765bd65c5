#!/usr/bin/env bash
# Puts the page's third-party browser files from node_modules (installed
# at the versions pinned in package.json / package-lock.json by setup.sh)
# into www/vendor/, which is committed so the static page is served as is:
#   uPlot (MIT): the minified browser build, its style sheet and licence,
#   loaded by the Experiments panel only when it opens;
#   CodeMirror 6 (MIT): the parts named in scripts/build/codemirror/entry.js
#   bundled by esbuild into one ES module (codemirror.js, its types and the
#   licences of every package inside), loaded by the lab only when it opens.
# `scripts/build/vendor.sh --check` changes nothing and fails when a committed
# file differs from what the npm packages give (test.sh runs it).
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
# what the CodeMirror bundle writes into www/vendor/codemirror
CODEMIRROR=(codemirror.js codemirror.d.ts LICENSE)
check=0
[[ "${1:-}" == "--check" ]] && check=1
# Each pinned package must be installed at its pinned version.
for pkg in uplot @codemirror/state @codemirror/view @codemirror/commands @codemirror/language @codemirror/lint; do
    [[ -d "node_modules/$pkg" ]] || die "node_modules/$pkg is missing; run scripts/setup.sh (npm ci)"
    want="$(node -p "require('./package.json').devDependencies['$pkg']")"
    have="$(node -p "require('./node_modules/$pkg/package.json').version")"
    [[ "$want" == "$have" ]] || die "node_modules has $pkg $have, package.json pins $want; run scripts/setup.sh"
done
uplot="$(node -p 'require("./package.json").devDependencies.uplot')"

status=0
for pair in "${FILES[@]}"; do
    src="node_modules/${pair%%:*}"
    dst="www/vendor/${pair#*:}"
    if [[ $check -eq 1 ]]; then
        if ! cmp -s "$src" "$dst"; then
            warn "$dst differs from $src (uplot $uplot); run scripts/build/vendor.sh and commit"
            status=1
        fi
    else
        mkdir -p "$(dirname "$dst")"
        cp "$src" "$dst"
    fi
done

if [[ $check -eq 1 ]]; then
    fresh="$(mktemp -d)"
    trap 'rm -rf "$fresh"' EXIT
    node scripts/build/codemirror/bundle.mjs "$fresh"
    for f in "${CODEMIRROR[@]}"; do
        if ! cmp -s "$fresh/$f" "www/vendor/codemirror/$f"; then
            warn "www/vendor/codemirror/$f differs from a fresh bundle of the npm packages; run scripts/build/vendor.sh and commit"
            status=1
        fi
    done
else
    node scripts/build/codemirror/bundle.mjs www/vendor/codemirror
fi
[[ $status -eq 0 ]] || exit 1
if [[ $check -eq 1 ]]; then
    log "www/vendor matches the npm packages (uplot $uplot, codemirror)"
else
    log "copied uplot $uplot into www/vendor/uplot, bundled codemirror into www/vendor/codemirror"
    file_sizes "$REPO_ROOT/www/vendor/uplot/uPlot.iife.min.js" >&2
    file_sizes "$REPO_ROOT/www/vendor/codemirror/codemirror.js" >&2
fi
