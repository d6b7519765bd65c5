#!/usr/bin/env bash
# The project's full check, as CI runs it (.ci/run):
#   setup -> cargo fmt --check -> clippy -D warnings -> cargo test ->
#   wasm build -> tsc --noEmit (the page's JSDoc types, against the wasm
#   module's generated .d.ts) -> Node tests (node --test tests/node/, no
#   browser) -> browser tests (node --test tests/browser/ against a local
#   python http.server).
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
run_step vendor bash scripts/build/vendor.sh --check || true

SERVER_PID=""
cleanup() {
    if [[ -n "$SERVER_PID" ]]; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
}
trap cleanup EXIT

browser_tests() {
    if ! compgen -G "tests/browser/*.test.js" >/dev/null; then
        log "no tests/browser/*.test.js found"
        return 1
    fi
    serve_repo_root "$REPO_ROOT/target/http-server.log" || return 1
    log "http.server on $BASE_URL (pid $SERVER_PID)"
    BASE_URL="$BASE_URL" node --test tests/browser/
}

mkdir -p target
# The wasm build writes www/pkg/election_web.d.ts, which tsc reads for the
# page's calls into the module: the type check runs after it.
if run_step build-wasm bash scripts/build/build-wasm.sh; then
    run_step tsc node_modules/.bin/tsc --noEmit -p . || true
    run_step node-tests node --test tests/node/ || true
    run_step browser-tests browser_tests || true
else
    FAILED+=("tsc node-tests browser-tests (not run: wasm build failed)")
fi

log "passed: ${PASSED[*]:-none}"
if [[ ${#FAILED[@]} -gt 0 ]]; then
    log "FAILED: ${FAILED[*]}"
    log "total $((SECONDS - T0)) s"
    exit 1
fi
log "all steps passed in $((SECONDS - T0)) s"
