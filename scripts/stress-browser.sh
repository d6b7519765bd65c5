#!/usr/bin/env bash
# The browser suite on a busy machine: runs `node --test tests/browser/*.test.js`
# ROUNDS times in a row (default 5) while a release build of the
# workspace in a clean target dir of its own compiles over and over
# beside it (both cores busy), and prints pass or fail per round. Exits
# non-zero if any round failed. Needs the wasm build (scripts/build/build-wasm.sh)
# and the npm packages (scripts/setup.sh); builds the site (dist/) and runs
# the suite against it as scripts/test.sh does (serve_site_for_tests in lib.sh).
#
#   bash scripts/stress-browser.sh            # 5 rounds
#   ROUNDS=3 bash scripts/stress-browser.sh
#   BUSY=0 bash scripts/stress-browser.sh     # the same rounds, no load
#
# The load's target dir is BUSY_TARGET (default /tmp/busy-target), wiped
# before each build so that every build compiles everything; each round's
# output is kept in target/stress/round-N.log.
set -euo pipefail
LOG_TAG="stress-browser"
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_ROOT"

ROUNDS="${ROUNDS:-5}"
BUSY="${BUSY:-1}"
BUSY_TARGET="${BUSY_TARGET:-/tmp/busy-target}"
[[ -f www/pkg/election_web_bg.wasm ]] || die "www/pkg not built: run bash scripts/build/build-wasm.sh"
[[ -d node_modules/playwright-core ]] || die "npm packages missing: run bash scripts/setup.sh"

OUT="$REPO_ROOT/target/stress"
mkdir -p "$OUT"
SERVER_PID=""
SITE_PID=""
LOAD_PID=""
cleanup() {
    # The load runs in a session of its own: its whole process group
    # (the loop and the cargo and rustc under it) is stopped.
    if [[ -n "$LOAD_PID" ]]; then
        kill -TERM -- "-$LOAD_PID" 2>/dev/null || true
        wait "$LOAD_PID" 2>/dev/null || true
    fi
    stop_servers
}
trap cleanup EXIT

if [[ "$BUSY" == 1 ]]; then
    log "load: cargo build --release --workspace in a clean $BUSY_TARGET, over and over (log: $OUT/load.log)"
    BUSY_TARGET="$BUSY_TARGET" setsid bash -c '
        while true; do
            rm -rf "$BUSY_TARGET"
            CARGO_TARGET_DIR="$BUSY_TARGET" cargo build --release --workspace --quiet || sleep 1
        done' >"$OUT/load.log" 2>&1 &
    LOAD_PID=$!
fi

SKIP_PREPARE=1 bash scripts/build-site.sh
serve_site_for_tests "$OUT" || die "http.server did not start"
log "dist/ alone on $BASE_URL (pid $SITE_PID); the repository on $DEV_URL (pid $SERVER_PID)"

T0=$SECONDS
RESULTS=()
failed=0
for round in $(seq 1 "$ROUNDS"); do
    t0=$SECONDS
    rc=0
    node --test tests/browser/*.test.js >"$OUT/round-$round.log" 2>&1 || rc=$?
    pass="$(awk '/^# pass /{print $3}' "$OUT/round-$round.log")"
    fail="$(awk '/^# fail /{print $3}' "$OUT/round-$round.log")"
    load="$(cut -d' ' -f1-3 /proc/loadavg)"
    if [[ $rc -eq 0 ]]; then
        verdict="PASS"
    else
        verdict="FAIL"
        failed=$((failed + 1))
        grep -E '^not ok' "$OUT/round-$round.log" | sed 's/^/    /' >&2 || true
    fi
    RESULTS+=("round $round: $verdict ($pass passed, $fail failed, $((SECONDS - t0)) s, load average $load)")
    log "${RESULTS[-1]}"
done

log "summary ($ROUNDS rounds, load $([[ "$BUSY" == 1 ]] && echo on || echo off), $((SECONDS - T0)) s):"
for line in "${RESULTS[@]}"; do log "  $line"; done
[[ $failed -eq 0 ]] || die "$failed of $ROUNDS rounds failed (logs in $OUT)"
log "all $ROUNDS rounds passed"
