#!/usr/bin/env bash
# Native vs wasm speed on the same workloads (core/tools/src/workloads.rs):
# `election bench --json` (release build) and scripts/bench/bench-wasm.mjs (the
# built www/pkg in Node), side by side with the ratio wasm/native, then
# the budgets of issue 7: wasm at least 0.65x native in events/s, a
# 1,000-node Chang-Roberts election under 1 ms in wasm, 10,000 nodes under
# 10 ms. Figures are medians of --repeat runs (default 15); the machine's
# other load shows up in them, so run it on a quiet machine.
#
#   bash scripts/bench/bench.sh [REPEAT]
#   ELECTION_PKG_DIR=target/wasm-variants/oz-ltofat bash scripts/bench/bench.sh   (another build)
set -euo pipefail
LOG_TAG="bench"
# shellcheck source-path=SCRIPTDIR source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$REPO_ROOT"

REPEAT="${1:-15}"
[[ "$REPEAT" =~ ^[0-9]+$ && "$REPEAT" -ge 1 && "$REPEAT" -le 1000 ]] ||
    die "REPEAT must be a whole number from 1 to 1000, got '$REPEAT'"
pkg="${ELECTION_PKG_DIR:-www/pkg}"
[[ -f "$pkg/election_web_bg.wasm" ]] || die "$pkg/election_web_bg.wasm not found: run bash scripts/build/build-wasm.sh"

log "cargo build --release -p election-cli"
cargo build --quiet --release -p election-cli
native="$(mktemp)"
wasm="$(mktemp)"
trap 'rm -f "$native" "$wasm"' EXIT
log "native: election bench --json --repeat $REPEAT"
target/release/election bench --json --repeat "$REPEAT" >"$native"
log "wasm: node scripts/bench/bench-wasm.mjs --repeat $REPEAT ($pkg)"
node scripts/bench/bench-wasm.mjs --repeat "$REPEAT" >"$wasm"

python3 - "$native" "$wasm" "$REPEAT" <<'PY'
import json, sys
native = {w["id"]: w for w in json.load(open(sys.argv[1]))["workloads"]}
wasm_doc = json.load(open(sys.argv[2]))
wasm = {w["id"]: w for w in wasm_doc["workloads"]}
print(f"median of {sys.argv[3]} runs each; events/s = events / median wall time\n")
print(f"{'workload':50} {'events':>8} {'native ms':>10} {'wasm ms':>9} {'native ev/s':>12} {'wasm ev/s':>11} {'wasm/native':>11}")
for wid, n in native.items():
    w = wasm[wid]
    if w["events"] != n["events"]:
        sys.exit(f"{wid}: native ran {n['events']} events, wasm {w['events']}: not the same run")
    print(f"{n['name']:50} {n['events']:8d} {n['median_ms']:10.2f} {w['median_ms']:9.2f} "
          f"{n['median_events_per_s'] / 1e6:10.2f} M {w['median_events_per_s'] / 1e6:9.2f} M "
          f"{n['median_ms'] / w['median_ms']:10.2f}x")
print(f"\nwasm memory after the runs: {wasm_doc['memory_bytes'] / 2**20:.1f} MiB (memory.buffer.byteLength)")
print("\nbudgets (issue 7):")
def check(label, ok, figure):
    print(f"  {'ok  ' if ok else 'OVER'} {label}: {figure}")
for wid in ("cr1000-desc", "raft1000"):
    r = native[wid]["median_ms"] / wasm[wid]["median_ms"]
    check(f"wasm >= 0.65x native events/s, {wid}", r >= 0.65, f"{r:.2f}x")
check("1,000-node Chang-Roberts election in wasm < 1 ms", wasm["cr1000"]["median_ms"] < 1, f"{wasm['cr1000']['median_ms']:.2f} ms")
check("10,000-node Chang-Roberts election in wasm < 10 ms", wasm["cr10000"]["median_ms"] < 10, f"{wasm['cr10000']['median_ms']:.2f} ms")
PY
