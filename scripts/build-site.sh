#!/usr/bin/env bash
# Builds the site, what ships, into dist/ (or OUT_DIR): the page and the
# embed docs page, bundled, minified and content-hashed by esbuild, the
# wasm, the vendored uPlot, the service worker (offline use), and a .gz
# and a .br beside every file; and standalone.html, the single-file
# page's template (scripts/build/standalone.mjs). Serve dist/ with any
# static server, from any sub-path; publish it as is (README, Publish it).
#
# Runs setup, the wasm build and the vendoring first, as serve.sh does;
# SKIP_PREPARE=1 skips them when the caller has just done them (test.sh).
# What the build does: docs/ARCHITECTURE.md, The site build.
set -euo pipefail
LOG_TAG="build-site"
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_ROOT"

T0=$SECONDS
if [[ "${SKIP_PREPARE:-0}" != 1 ]]; then
    SETUP_BROWSER=0 bash scripts/setup.sh
    bash scripts/build/build-wasm.sh
    bash scripts/build/vendor.sh
fi
[[ -f www/pkg/election_web_bg.wasm ]] || die "www/pkg is missing; run scripts/build/build-wasm.sh"
[[ -x node_modules/.bin/esbuild ]] || die "esbuild is missing; run scripts/setup.sh (npm ci)"
node scripts/build/site/build.mjs "${OUT_DIR:-dist}"
# The single-file page's template, beside the page: its "Download as a
# standalone page" fetches it, and `election html` reads it. Written after
# the site's file list, so the service worker does not precache its
# 800 KB (it is fetched only when a page is downloaded).
node scripts/build/standalone.mjs --out "${OUT_DIR:-dist}/standalone.html"
log "done in $((SECONDS - T0)) s: ${OUT_DIR:-dist}/"
