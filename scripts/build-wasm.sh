#!/usr/bin/env bash
# Builds the web crate (package election-web) for wasm32-unknown-unknown with
# the `wasm` profile (Cargo.toml: chosen by measurement, see the README's
# Budgets section), generates the JS bindings with wasm-bindgen and writes
# the module into www/pkg/ with its functions ordered for gzip and without
# the name and producers sections (see below).
# Run scripts/setup.sh first (test.sh and serve.sh do).
#
# The wasm build uses its own target dir, target/wasm, and the toolchain that
# setup.sh installed (rustup's wasm32 target, or Debian's rustc-web with the
# rust-lld linker); see wasm_cargo in scripts/lib.sh.
set -euo pipefail
LOG_TAG="build-wasm"
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_ROOT"

T0=$SECONDS
wasm_toolchain_detect || die "no wasm32 toolchain is set up; run scripts/setup.sh"
command -v wasm-bindgen >/dev/null 2>&1 || die "wasm-bindgen not found; run scripts/setup.sh"
WASM_OPT_BIN="$REPO_ROOT/node_modules/.bin/wasm-opt"
[[ -x "$WASM_OPT_BIN" ]] || die "wasm-opt not found; run scripts/setup.sh (npm ci: package.json pins binaryen)"
have="$(wasm-bindgen --version | awk '{print $2}')"
[[ "$have" == "$WASM_BINDGEN_VERSION" ]] ||
    die "wasm-bindgen CLI is $have, want $WASM_BINDGEN_VERSION; run scripts/setup.sh"

# The CLI must match the wasm-bindgen crate in Cargo.lock exactly.
if [[ -f Cargo.lock ]]; then
    locked="$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/version = |"/, ""); print; exit}' Cargo.lock)"
    if [[ -n "$locked" && "$locked" != "$WASM_BINDGEN_VERSION" ]]; then
        die "Cargo.lock has wasm-bindgen $locked but the CLI is pinned to $WASM_BINDGEN_VERSION (scripts/lib.sh); pin the crate with \"=$WASM_BINDGEN_VERSION\""
    fi
fi

case "$WASM_TOOLCHAIN" in
    rustup) log "toolchain: rustup $(rustc --version)" ;;
    debian) log "toolchain: Debian $("$DEBIAN_RUSTC" --version), linker $WASM_LINKER" ;;
esac
log "cargo build --profile wasm --target $WASM_TARGET -p election-web (CARGO_TARGET_DIR=target/wasm)"
CARGO_TARGET_DIR="$WASM_TARGET_DIR" wasm_cargo build --profile wasm --target "$WASM_TARGET" -p election-web

wasm="$WASM_TARGET_DIR/$WASM_TARGET/wasm/election_web.wasm"
[[ -f "$wasm" ]] || die "$wasm not found (is web/ a cdylib named election-web?)"

# wasm-bindgen keeps the function names here: scripts/wasm-order.py reads
# them to put the copies of each generic function side by side (22 KB less
# gzipped, same code; README, "Where the bytes go"), then wasm-opt sorts
# the functions and strips the name and producers sections (26 KB of the
# gzipped wasm that only debuggers read). Besides, wasm-opt only merges
# functions with identical bodies and drops unreachable ones (1 KB); it
# runs no optimization pass: its -O levels made the wasm larger gzipped
# and slower.
bindgen="$WASM_TARGET_DIR/bindgen"
log "wasm-bindgen --target web --out-dir target/wasm/bindgen --no-typescript"
rm -rf "$bindgen"
wasm-bindgen --target web --out-dir "$bindgen" --no-typescript "$wasm"
log "wasm-order.py, wasm-opt (merge identical functions, drop unused ones, order by name, strip names) -> www/pkg"
python3 scripts/wasm-order.py "$bindgen/election_web_bg.wasm" "$bindgen/ordered.wasm"
rm -rf www/pkg
mkdir -p www/pkg
# shellcheck disable=SC2086  # one flag per word
"$WASM_OPT_BIN" $WASM_OPT_FEATURES --duplicate-function-elimination --remove-unused-module-elements \
    --reorder-functions-by-name --strip-debug --strip-producers \
    "$bindgen/ordered.wasm" -o www/pkg/election_web_bg.wasm
for f in "$bindgen"/*; do
    case "$(basename "$f")" in
        election_web_bg.wasm | ordered.wasm) ;;
        *) cp -r "$f" www/pkg/ ;;
    esac
done

log "sizes:"
for f in www/pkg/election_web_bg.wasm www/pkg/election_web.js; do
    [[ -f "$f" ]] && file_sizes "$REPO_ROOT/$f" >&2
done
log "done in $((SECONDS - T0)) s"
