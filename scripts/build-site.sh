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
# What the build does: scripts/build/site/build.mjs, top comment.
#
# ## Tests on what ships
#
# **Tests on what ships.** `scripts/test.sh` builds the site and runs the
# browser suite against a copy of `dist/` served alone by python's
# `http.server` under a sub-path
# (`BASE_URL=http://127.0.0.1:PORT/course/playground`; `serve_site_for_tests` in
# `scripts/lib.sh`; `stress-browser.sh` does the
# same), so a URL that assumes `/` or a file outside `dist/` fails. The
# embed tests' host page (`tests/browser/fixtures/embed-host.html`) is served
# from disk by Playwright (`fixtureUrl` in `tests/browser/helpers.js`) on
# the embed's own origin; reference data comes from disk and the CLI. Three
# tests need the repository's unbundled modules and open pages of a second
# server of the repository root (`DEV_URL`, `devUrl()`): `drawing.test.js`
# asks the wasm module for its kind and timer names, `faults.test.js` draws
# a made-up moment with `cluster/draw.js`, and `spacetime-live.test.js`
# patches the page's `LivePlot`; the built site has no such modules.
# Service workers are blocked in test contexts unless a test allows them:
# `offline.test.js` checks the site offline after one visit (a reload, a
# query link, a `#s=` link, an experiment with its workers and uPlot, the
# embed) and an update (a copy of `dist/` with another version in `sw.js`
# and the pages, served at the same address by the test's own static
# server: the notice, the old version until Reload, then the new one and
# one cache left). Against a development server
# (`BASE_URL=http://127.0.0.1:8000 node --test tests/browser/*.test.js`, with
# `DEV=1 ./scripts/serve.sh`) the same suite runs, the offline tests
# skipped.
#
# The build is deterministic: two builds give the same `dist/`, names and
# bytes (`OUT_DIR=target/a ./scripts/build-site.sh`, again into `target/b`,
# `diff -r`).
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
