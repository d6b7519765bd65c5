#!/usr/bin/env bash
# The extended test command (not part of CI's normal run): everything in
# scripts/test.sh, then long fuzzing of the scenario parser and the share
# link decoder (FUZZ_SECONDS each, default 600) and a big randomized fault
# hunt over every algorithm (FAULT_SEEDS per algorithm, default 20000).
set -euo pipefail
LOG_TAG="extended"
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_ROOT"

bash scripts/test.sh
FUZZ_SECONDS="${FUZZ_SECONDS:-600}"
FAULT_SEEDS="${FAULT_SEEDS:-20000}"

if ! command -v cargo-fuzz >/dev/null 2>&1; then
    log "installing cargo-fuzz"
    cargo install cargo-fuzz
fi
for target in scenario_json share_link; do
    log "fuzzing $target for $FUZZ_SECONDS s"
    (cd fuzz && cargo +nightly fuzz run "$target" "corpus/$target" -- \
        -max_total_time="$FUZZ_SECONDS" -rss_limit_mb=2048)
done

cargo build --release -p election-cli
for algorithm in $(target/release/election algorithms --json | python3 -c 'import json,sys; print(" ".join(a["id"] for a in json.load(sys.stdin)))'); do
    log "random fault schedules: $algorithm, seeds 1..$FAULT_SEEDS"
    target/release/election fuzz-faults --algorithm "$algorithm" --seeds "1..$FAULT_SEEDS" \
        --save "target/fuzz-faults-$algorithm.json"
done
log "extended tests passed"
