#!/usr/bin/env bash
# The project's full check, as CI runs it (.ci/run):
#   setup -> cargo fmt --check -> clippy -D warnings -> cargo test ->
#   the hostile-input suite against the release CLI (tests/hostile) ->
#   cargo doc (warnings as errors) -> every citation of the maps resolves
#   (scripts/check-doc-citations.py) ->
#   wasm build -> tsc --noEmit (the page's JSDoc types, against the wasm
#   module's generated .d.ts) -> Node tests (node --test tests/node/*.test.js, no
#   browser) -> the site build (scripts/build-site.sh: dist/) -> browser
#   tests (node --test tests/browser/*.test.js against a copy of dist/ served alone
#   under a sub-path by python's http.server, with the repository root on
#   a second server for the tests that need the unbundled modules; see
#   serve_site_for_tests in lib.sh).
# Every step runs even when an earlier one failed (except that tsc and the
# Node and browser tests need the wasm build); the exit code is non-zero if
# any step failed.
set -euo pipefail
LOG_TAG="test"
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_ROOT"

T0=$SECONDS
bash scripts/setup.sh || die "setup failed"

FAILED=()
PASSED=()
run_step() {
    local name="$1" t0=$SECONDS rc=0
    shift
    log "==> $name: $*"
    "$@" || rc=$?
    if [[ $rc -eq 0 ]]; then
        PASSED+=("$name")
        log "<== $name: ok ($((SECONDS - t0)) s)"
    else
        FAILED+=("$name")
        log "<== $name: FAILED with exit code $rc ($((SECONDS - t0)) s)"
    fi
    return $rc
}

run_step fmt cargo fmt --all --check || true
run_step clippy cargo clippy --workspace --all-targets -- -D warnings || true
run_step cargo-test cargo test --workspace || true
# The hostile-input suite against the CLI (tests/hostile/README.md): every
# case ends with a named field or a named limit under 2,000,000 KB of
# address space and 10 s of CPU.
hostile_cli() {
    cargo build --release -p election-cli && python3 tests/hostile/run-cli.py target/release/election
}
run_step hostile-cli hostile_cli || true
# Every crate's docs build with no broken link or other warning.
run_step cargo-doc env RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps || true
# Every "docs/ARCHITECTURE.md, <heading>" and "<file>, module docs" resolves.
run_step doc-citations python3 scripts/check-doc-citations.py || true
run_step vendor bash scripts/build/vendor.sh --check || true
# The workflows (.github/workflows/), with shellcheck on their run: scripts.
run_step actionlint "$ACTIONLINT_BIN" -shellcheck "$SHELLCHECK_BIN" -pyflakes= .github/workflows/*.yml || true

SERVER_PID=""
SITE_PID=""
trap stop_servers EXIT

browser_tests() {
    if ! compgen -G "tests/browser/*.test.js" >/dev/null; then
        log "no tests/browser/*.test.js found"
        return 1
    fi
    serve_site_for_tests "$REPO_ROOT/target/site-tests" || return 1
    log "dist/ alone on $BASE_URL (pid $SITE_PID); the repository on $DEV_URL (pid $SERVER_PID)"
    # The files, not the folder: Node 22 and later take `--test` arguments
    # as file patterns and fail on a folder.
    node --test tests/browser/*.test.js
}

mkdir -p target
# The wasm build writes www/pkg/election_web.d.ts, which tsc reads for the
# page's calls into the module: the type check runs after it.
if run_step build-wasm bash scripts/build/build-wasm.sh; then
    run_step tsc node_modules/.bin/tsc --noEmit -p . || true
    run_step node-tests node --test tests/node/*.test.js || true
    # The wasm is built and www/vendor checked just above.
    if run_step site env SKIP_PREPARE=1 bash scripts/build-site.sh; then
        run_step browser-tests browser_tests || true
    else
        FAILED+=("browser-tests (not run: the site build failed)")
    fi
else
    FAILED+=("tsc node-tests site browser-tests (not run: wasm build failed)")
fi

log "passed: ${PASSED[*]:-none}"
if [[ ${#FAILED[@]} -gt 0 ]]; then
    log "FAILED: ${FAILED[*]}"
    log "total $((SECONDS - T0)) s"
    exit 1
fi
log "all steps passed in $((SECONDS - T0)) s"
