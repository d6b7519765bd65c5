#!/usr/bin/env bash
# The extended test command (not part of CI's normal run): everything in
# scripts/test.sh, then the property tests with many more cases
# (PROP_CASES each, default 5000, from a fresh PROPTEST_RNG_SEED that is
# printed so a failure can be rerun), long fuzzing of the scenario parser
# and the share link decoder (FUZZ_SECONDS each, default 600) and a big
# randomized fault hunt over every algorithm (FAULT_SEEDS per algorithm,
# default 20000).
set -euo pipefail
LOG_TAG="extended"
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_ROOT"

bash scripts/test.sh
FUZZ_SECONDS="${FUZZ_SECONDS:-600}"
FAULT_SEEDS="${FAULT_SEEDS:-20000}"
PROP_CASES="${PROP_CASES:-5000}"
PROP_SEED="${PROPTEST_RNG_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"

# A failure prints the shrunk scenario; the seed reruns the same cases.
log "property tests: $PROP_CASES cases each, PROPTEST_RNG_SEED=$PROP_SEED"
PROPTEST_CASES="$PROP_CASES" PROPTEST_RNG_SEED="$PROP_SEED" \
    cargo test --release -p election-core --test prop_engine --test prop_links

if ! command -v cargo-fuzz >/dev/null 2>&1; then
    log "installing cargo-fuzz"
    cargo install cargo-fuzz
fi
for target in scenario_json share_link scenario_run; do
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
