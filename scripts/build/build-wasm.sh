#!/usr/bin/env bash
# Builds the web crate (package election-web) for wasm32-unknown-unknown with
# the `wasm` profile (Cargo.toml: chosen by measurement, see
# docs/PERFORMANCE.md, Size) and its JS bindings, with `wasm-pack build
# --target web`, and writes the modules into www/pkg/ with their functions
# ordered for gzip and without the name and producers sections
# (wasm_finish in scripts/lib.sh). One wasm-pack build of the crate per
# module (web/Cargo.toml, features `tools` and `family-<id>`):
#   www/pkg/election_player_<family>.js, election_player_<family>_bg.wasm
#       a player module per algorithm family (FAMILIES below; the core's
#       core/algorithms/src/algorithms/mod.rs FAMILIES): what the page's first render
#       loads (open, play, draw a scenario of that family's algorithms;
#       every module lists every algorithm);
#   www/pkg/election_compare.js, election_sweeps.js, election_lab.js (and
#       their _bg.wasm) the panels' modules, each loaded on first use by
#       the page (and the sweeps one by the panels' workers, handed the
#       page's compiled module): compare mode and the exports; the
#       experiments, the failure finder and the trade-off table; scripted
#       algorithms (the lab), with the sweeps and the exports of a
#       scripted run (the panels' workers get it too then);
#   www/pkg/election_web.js, election_web_bg.wasm        the tools module:
#       everything (every algorithm, scripts, compare mode, exports,
#       experiments, the failure finder, the trade-off table, headless
#       runs), for Node (tests/node, scripts/bench) and the standalone
#       page's inline wasm;
#   www/pkg/modules.js (and election_player.d.ts): the page's table of
#       which module runs which algorithm and preset, written from the
#       modules by scripts/build/wasm-modules.mjs.
# Run scripts/setup.sh first (test.sh and serve.sh do).
#
# The wasm build uses its own target dir, target/wasm, and the toolchain that
# setup.sh installed (rustup's wasm32 target, or Debian's rustc-web with the
# rust-lld linker); see wasm_env in scripts/lib.sh.
#
# wasm-pack runs with everything of its own off: `--mode no-install` (no
# download: the pinned wasm-bindgen CLI from PATH, which it checks against
# Cargo.lock; no rustup call), `--no-opt` (wasm-pack's own wasm-opt -O
# would run before the functions are ordered; the project's wasm-opt step,
# wasm_finish, runs after wasm-pack instead), `--no-pack --no-gitignore` (no package.json,
# README, LICENSE or .gitignore: www/pkg is not an npm package). With
# `--profile wasm` it calls wasm-bindgen with exactly the flags the build
# used before: `--typescript --target web --out-name NAME` (the custom
# profile's defaults: no --debug, --keep-debug or --no-demangle), so the
# modules are the same, byte for byte. Left on: once a day, wasm-pack asks
# crates.io in the background whether there is a newer wasm-pack (where it
# cannot, it warns "failed to get wasm-pack version"; the build goes on).
set -euo pipefail
LOG_TAG="build-wasm"
# shellcheck source-path=SCRIPTDIR source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$REPO_ROOT"

T0=$SECONDS
wasm_toolchain_detect || die "no wasm32 toolchain is set up; run scripts/setup.sh"
command -v wasm-bindgen >/dev/null 2>&1 || die "wasm-bindgen not found; run scripts/setup.sh"
command -v wasm-pack >/dev/null 2>&1 || die "wasm-pack not found; run scripts/setup.sh"
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
rm -rf "$WASM_TARGET_DIR/pkg-out"
mkdir -p "$WASM_TARGET_DIR/pkg-out"
# The families of core/algorithms/src/algorithms/mod.rs, FAMILIES (wasm-modules.mjs
# fails when an algorithm is in no player module).
FAMILIES="bully bully-variants ring raft consensus"
builds=("election_web")
players=()
every=""
for family in $FAMILIES; do
    # The module name has no hyphen: bully-variants -> election_player_bully_variants.
    builds+=("election_player_${family//-/_} --no-default-features --features player,family-$family")
    players+=("election_player_${family//-/_}")
    every+="${every:+,}family-$family"
done
# The panels' modules (web/Cargo.toml): compare mode and the exports, the
# sweeps (experiments, the failure finder, the trade-offs), the lab.
# The compare module with the algorithms crate, where the engine is
# instantiated for each of the twelve algorithms, at opt-level "s": 57 KB
# (13%) less gzipped for an engine 7 to 25% slower in compare mode and
# the exports, whose runs are a scenario or two (docs/PERFORMANCE.md,
# Size). A compare link is the one first load that waits for it.
builds+=("election_compare --no-default-features --features compare,$every --config profile.wasm.package.election-algorithms.opt-level=\"s\"")
builds+=("election_sweeps --no-default-features --features sweeps,$every")
# The lab's module with the sweeps' and the exports' functions (no
# built-in family: 78 KB more gzipped), so a scripted run's experiments,
# failure search and exports need no other module.
builds+=("election_lab --no-default-features --features lab,sweeps,compare")
panels="compare=election_compare,sweeps=election_sweeps,lab=election_lab"
# name  cargo feature flags
for build in "${builds[@]}"; do
    read -r name flags <<<"$build"
    work="$WASM_TARGET_DIR/bindgen-$name"
    rm -rf "$work"
    log "wasm-pack build --target web --profile wasm web -- ${flags:-} (CARGO_TARGET_DIR=target/wasm) -> $name"
    # shellcheck disable=SC2086  # no flags, or several words
    CARGO_TARGET_DIR="$WASM_TARGET_DIR" wasm_env wasm-pack --log-level warn build \
        --target web --mode no-install --profile wasm --no-opt --no-pack --no-gitignore \
        --out-dir "$work" --out-name "$name" web -- ${flags:-}
    [[ -f "$work/${name}_bg.wasm" ]] || die "wasm-pack wrote no $work/${name}_bg.wasm"
    log "wasm_finish: wasm-order.py, wasm-opt (merge identical functions, drop unused ones, order by name, strip names) -> www/pkg/$name*"
    wasm_finish "$work" "$WASM_TARGET_DIR/pkg-out/$name" "$name"
done
rm -rf www/pkg
mkdir -p www/pkg
cp -r "$WASM_TARGET_DIR"/pkg-out/*/* www/pkg/
PANELS="$panels" node scripts/build/wasm-modules.mjs www/pkg election_web "${players[@]}" ||
    die "scripts/build/wasm-modules.mjs could not write the table of modules (www/pkg/modules.js)"

log "sizes:"
for f in www/pkg/election_player_*_bg.wasm www/pkg/election_{compare,sweeps,lab}_bg.wasm www/pkg/election_web_bg.wasm; do
    [[ -f "$f" ]] && file_sizes "$REPO_ROOT/$f" >&2
done
log "done in $((SECONDS - T0)) s"
