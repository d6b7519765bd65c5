#!/usr/bin/env bash
# Builds the web crate (package election-web) for wasm32-unknown-unknown with
# the `wasm` profile (Cargo.toml: chosen by measurement, see
# docs/PERFORMANCE.md, Size), generates the JS bindings with wasm-bindgen
# and writes the module into www/pkg/ with its functions ordered for gzip
# and without the name and producers sections (see below).
# Run scripts/setup.sh first (test.sh and serve.sh do).
#
# The wasm build uses its own target dir, target/wasm, and the toolchain that
# setup.sh installed (rustup's wasm32 target, or Debian's rustc-web with the
# rust-lld linker); see wasm_cargo in scripts/lib.sh.
set -euo pipefail
LOG_TAG="build-wasm"
# shellcheck source-path=SCRIPTDIR source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$REPO_ROOT"

T0=$SECONDS
wasm_toolchain_detect || die "no wasm32 toolchain is set up; run scripts/setup.sh"
command -v wasm-bindgen >/dev/null 2>&1 || die "wasm-bindgen not found; run scripts/setup.sh"
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

log "wasm_package: wasm-bindgen, wasm-order.py, wasm-opt (merge identical functions, drop unused ones, order by name, strip names) -> www/pkg"
wasm_package "$wasm" www/pkg "$WASM_TARGET_DIR/bindgen"

log "sizes:"
for f in www/pkg/election_web_bg.wasm www/pkg/election_web.js; do
    [[ -f "$f" ]] && file_sizes "$REPO_ROOT/$f" >&2
done
log "done in $((SECONDS - T0)) s"
