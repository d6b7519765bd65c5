#!/usr/bin/env bash
# Measures wasm build variants, size AND speed, to choose the wasm profile
# by measurement: opt-level (3, s, z) x LTO (fat, off) x wasm-opt (none,
# -O3, -Oz). Each variant is built into target/wasm-variants/<name>/ (the
# page's www/pkg is not touched) and timed with scripts/bench/bench-wasm.mjs.
# Prints one table row per variant: raw and gzip -9 bytes of the .wasm
# and wasm ms for the benchmark workloads.
#
#   bash scripts/size/wasm-profiles.sh [opt-levels] [ltos] [wasm-opt flags...]
#   bash scripts/size/wasm-profiles.sh "3 s z" "fat off" "none -O3 -Oz"
#
# Slow (a full release build per opt-level x LTO): not part of test.sh.
set -euo pipefail
LOG_TAG="wasm-profiles"
# shellcheck source-path=SCRIPTDIR source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$REPO_ROOT"

OPTS="${1:-3 s z}"
LTOS="${2:-fat off}"
WASM_OPTS="${3:-none -O3 -Oz}"
REPEAT="${REPEAT:-5}"
[[ -x "$WASM_OPT_BIN" ]] || die "wasm-opt not found; run npm ci (package.json pins binaryen)"
wasm_toolchain_detect || die "no wasm32 toolchain is set up; run scripts/setup.sh"

OUT="$REPO_ROOT/target/wasm-variants"
mkdir -p "$OUT"
printf '%-22s %9s %9s %9s %9s %9s %9s\n' variant "raw B" "gzip B" "cr1000-desc" raft1000 cr1000 cr10000
for opt in $OPTS; do
    for lto in $LTOS; do
        log "cargo build --profile wasm, opt-level=$opt lto=$lto"
        CARGO_PROFILE_WASM_OPT_LEVEL="$opt" CARGO_PROFILE_WASM_LTO="$lto" \
            CARGO_TARGET_DIR="$OUT/target-$opt-$lto" \
            wasm_cargo build -q --profile wasm --target "$WASM_TARGET" -p election-web
        base="$OUT/o$opt-lto$lto"
        # The shipped form (functions ordered for gzip, names stripped), so
        # that the sizes compare with www/pkg.
        wasm_package "$OUT/target-$opt-$lto/$WASM_TARGET/wasm/election_web.wasm" "$base" \
            "$OUT/bindgen-$opt-$lto"
        for wo in $WASM_OPTS; do
            dir="$base"
            if [[ "$wo" != none ]]; then
                dir="$base$wo"
                rm -rf "$dir"
                cp -r "$base" "$dir"
                # shellcheck disable=SC2086  # one flag per word
                "$WASM_OPT_BIN" $WASM_OPT_FEATURES "$wo" "$base/election_web_bg.wasm" \
                    -o "$dir/election_web_bg.wasm"
            fi
            raw=$(stat -c %s "$dir/election_web_bg.wasm")
            gz=$(gzip -9 -c "$dir/election_web_bg.wasm" | wc -c)
            times="$(ELECTION_PKG_DIR="$dir" node scripts/bench/bench-wasm.mjs --repeat "$REPEAT" \
                --only cr1000-desc,raft1000,cr1000,cr10000 |
                python3 -c 'import json,sys; print(" ".join("%9.2f" % w["median_ms"] for w in json.load(sys.stdin)["workloads"]))')"
            printf '%-22s %9d %9d %s\n' "o$opt lto=$lto ${wo}" "$raw" "$gz" "$times"
        done
    done
done
