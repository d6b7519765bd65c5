#!/usr/bin/env bash
# Peak memory of long runs (issue 7: "a 1-million-event run stays
# bounded"): Raft with 1,000 nodes for 25 s and 50 s of simulated time
# (about 1.5 and 2.5 million events; the election alone is a million
# messages in flight at once), natively with `election run` (peak RSS from
# /usr/bin/time -v; not recording, and recording with --trace) and in wasm
# the way the page runs it (recording, with time-travel checkpoints; wasm
# memory size). Bounded means the two run lengths need the same memory.
#
#   bash scripts/bench/memory.sh
set -euo pipefail
LOG_TAG="memory"
# shellcheck source-path=SCRIPTDIR source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$REPO_ROOT"
[[ -x /usr/bin/time ]] || die "/usr/bin/time not found (Debian package 'time')"
[[ -f www/pkg/election_web_bg.wasm ]] || die "www/pkg not built: run bash scripts/build/build-wasm.sh"
cargo build --quiet --release -p election-cli
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT

peak_kib() { awk -F': *' '/Maximum resident set size/ {print $2}' "$1"; }
printf '%-34s %10s %12s %14s %14s %16s\n' scenario events "trace kept" "native RSS MiB" "--trace RSS MiB" "wasm page MiB"
for until in 25000 50000; do
    json="{\"version\":1,\"algorithm\":\"raft\",\"nodes\":1000,\"seed\":1,\"start\":\"none\",\"until_ms\":$until}"
    printf '%s\n' "$json" >"$dir/s.json"
    /usr/bin/time -v target/release/election run --scenario "$dir/s.json" --json >"$dir/run.json" 2>"$dir/t1"
    /usr/bin/time -v target/release/election run --scenario "$dir/s.json" --trace >/dev/null 2>"$dir/t2"
    node scripts/bench/memory-wasm.mjs "$json" >"$dir/wasm.json"
    python3 - "$dir" "$until" "$(peak_kib "$dir/t1")" "$(peak_kib "$dir/t2")" <<'PY'
import json, sys
d, until, rss, rss_trace = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
native = json.load(open(f"{d}/run.json"))
wasm = json.load(open(f"{d}/wasm.json"))
if native["trace_hash"] != wasm["trace_hash"]:
    sys.exit(f"trace hash differs: native {native['trace_hash']}, wasm {wasm['trace_hash']}")
print(f"{'raft n=1000, ' + str(int(until) // 1000) + ' s':34} {native['events']:10d} {wasm['trace_events']:12d} "
      f"{rss / 1024:14.1f} {rss_trace / 1024:14.1f} {wasm['memory_bytes'] / 2**20:16.1f}")
PY
done
