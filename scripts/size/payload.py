#!/usr/bin/env python3
"""Shipped payload: the gzip -9 size of everything the page loads, checked
against the budgets of issue 7 (wasm plus its JS glue under 120 KB gzip;
the whole page, HTML, JS, CSS, wasm and vendored libraries, under 250 KB
gzip; 1 KB = 1000 bytes here).

The budgets are checked against what the first render loads: references
followed as a browser follows them before the page is ready, dynamic
`import()` excepted (what the page loads on first use: the wasm tools
module, compare mode, the embed, the panels; docs/PERFORMANCE.md, First
render over the network), plus the wasm player module of the default page
(www/pkg/modules.js DEFAULT_MODULE: its glue and wasm, which the page
loads by a dynamic import of the module the address asks for; `--module
NAME` counts another). The total with dynamic imports is printed too, and
the size of each player module.

"Everything the page loads" is found by following references from
index.html, as a browser would: <script src>, <link href>, ES module
imports (static and dynamic), `new URL('...', import.meta.url)` (the wasm,
workers), `new Worker(...)` and CSS @import/url(). Files under www/ that
nothing references are listed but not counted. Build the wasm first
(bash scripts/build/build-wasm.sh). Exits 1 when a budget is exceeded, 2 when a
referenced file is missing.

    python3 scripts/size/payload.py [--no-fail] [--module election_player_<family>]
"""

import gzip
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
KB = 1000
GLUE_BUDGET = 120 * KB
PAGE_BUDGET = 250 * KB

HTML_REFS = re.compile(r"""<(?:script|link)\b[^>]*?\b(?:src|href)\s*=\s*["']([^"']+)["']""", re.I)
JS_REFS = [
    # Not the word inside a string ('scenario-import', a test id).
    re.compile(r"""(?<!["'.-])\bimport\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+)["']"""),
    re.compile(r"""\bimport\s*\(\s*["']([^"']+)["']\s*\)"""),
    re.compile(r"""\bexport\s*[\w*{}\s,$]+from\s*["']([^"']+)["']"""),
    re.compile(r"""new\s+URL\s*\(\s*["']([^"']+)["']\s*,\s*import\.meta\.url"""),
    re.compile(r"""new\s+(?:Shared)?Worker\s*\(\s*["']([^"']+)["']"""),
]
DYNAMIC_IMPORT = JS_REFS[1]
CSS_REFS = [
    re.compile(r"""@import\s+(?:url\()?\s*["']?([^"')\s;]+)"""),
    re.compile(r"""url\(\s*["']?([^"')]+)["']?\s*\)"""),
]


def local(ref, base_dir):
    """The repo path a reference names, or None for data:, http: and the like."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", ref, re.I) or ref.startswith("//") or ref.startswith("#"):
        return None
    ref = ref.split("#")[0].split("?")[0]
    if not ref:
        return None
    if ref.startswith("/"):
        return os.path.normpath(os.path.join(ROOT, ref.lstrip("/")))
    return os.path.normpath(os.path.join(base_dir, ref))


def refs_of(path, text, dynamic=True):
    """References a loaded file makes to other files (without dynamic
    `import()` unless `dynamic`)."""
    if path.endswith(".html"):
        patterns = [HTML_REFS]
    elif path.endswith((".js", ".mjs")):
        patterns = JS_REFS
    elif path.endswith(".css"):
        patterns = CSS_REFS
    else:
        return []
    found = []
    for pattern in patterns:
        if pattern is DYNAMIC_IMPORT and not dynamic:
            continue
        found.extend(pattern.findall(text))
    return found


def loaded_files(dynamic=True):
    """Every file reachable from index.html, in discovery order (without
    following dynamic `import()` unless `dynamic`)."""
    start = os.path.join(ROOT, "index.html")
    seen, order, todo, missing = set(), [], [start], []
    while todo:
        path = todo.pop(0)
        if path in seen:
            continue
        seen.add(path)
        if not os.path.isfile(path):
            # A JSDoc type's `import('../pkg/election_player.js')`: types only.
            if not (path.endswith(".js") and os.path.isfile(path[:-3] + ".d.ts")):
                missing.append(path)
            continue
        order.append(path)
        if path.endswith(".wasm"):
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for ref in refs_of(path, text, dynamic):
            target = local(ref, os.path.dirname(path))
            if target and target not in seen:
                todo.append(target)
    return order, missing


def modules_table():
    """The default module and the player modules, from www/pkg/modules.js."""
    path = os.path.join(ROOT, "www", "pkg", "modules.js")
    if not os.path.isfile(path):
        print("payload: www/pkg/modules.js is missing (run bash scripts/build/build-wasm.sh)", file=sys.stderr)
        sys.exit(2)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    default = re.search(r'DEFAULT_MODULE = "([^"]+)"', text).group(1)
    tools = re.search(r'TOOLS = "([^"]+)"', text).group(1)
    names = [n for n in re.findall(r"^  (\w+): \(\) => import\(", text, re.M) if n != tools]
    return default, names


def module_files(name):
    """A wasm module's glue and wasm."""
    return [os.path.join(ROOT, "www", "pkg", f"{name}.js"), os.path.join(ROOT, "www", "pkg", f"{name}_bg.wasm")]


def gz(path):
    with open(path, "rb") as f:
        data = f.read()
    return len(data), len(gzip.compress(data, 9))


def main():
    args = sys.argv[1:]
    no_fail = "--no-fail" in args
    default, players = modules_table()
    module = args[args.index("--module") + 1] if "--module" in args else default
    if module not in players:
        print(f"payload: --module {module}: not a player module ({', '.join(players)})", file=sys.stderr)
        sys.exit(2)
    files, missing = loaded_files()
    first, _ = loaded_files(dynamic=False)
    first += module_files(module)
    if missing:
        for m in missing:
            print(f"payload: referenced but missing: {os.path.relpath(m, ROOT)}"
                  + (" (run bash scripts/build/build-wasm.sh)" if "/pkg/" in m else ""), file=sys.stderr)
        sys.exit(2)
    rows = [(os.path.relpath(p, ROOT), *gz(p)) for p in files]
    first_names = {os.path.relpath(p, ROOT) for p in first}
    print(f"{'file (* = first render)':40} {'bytes':>9} {'gzip -9':>9}")
    for name, raw, packed in sorted(rows, key=lambda r: -r[2]):
        print(f"{name + (' *' if name in first_names else ''):40} {raw:9d} {packed:9d}")
    all_gz = sum(r[2] for r in rows)
    rows = [r for r in rows if r[0] in first_names]
    total_raw = sum(r[1] for r in rows)
    total_gz = sum(r[2] for r in rows)
    glue = [r for r in rows if "/pkg/" in "/" + r[0]]
    glue_gz = sum(r[2] for r in glue)
    print(f"{'first render (' + str(len(rows)) + ' files, each gzipped)':40} {total_raw:9d} {total_gz:9d}")
    print(f"  with the player module {module} (--module NAME for another)")
    print(f"{'with what loads on first use':40} {'':9} {all_gz:9d}")
    www = os.path.join(ROOT, "www")
    unused = []
    for dirpath, _, names in os.walk(www):
        for n in names:
            p = os.path.join(dirpath, n)
            if p not in files:
                unused.append(os.path.relpath(p, ROOT))
    if unused:
        print("not loaded by the page (not counted): " + ", ".join(sorted(unused)))
    print()
    print(f"{'player module (glue + wasm)':40} {'bytes':>9} {'gzip -9':>9}")
    for name in players:
        sizes = [gz(p) for p in module_files(name)]
        print(f"{name + (' *' if name == module else ''):40} {sum(r for r, _ in sizes):9d} {sum(g for _, g in sizes):9d}")
    print()
    over = False
    for label, value, budget in (
        ("first render: wasm + JS glue (www/pkg)", glue_gz, GLUE_BUDGET),
        ("first render: whole page", total_gz, PAGE_BUDGET),
    ):
        ok = value <= budget
        over |= not ok
        print(f"{'ok  ' if ok else 'OVER'} {label}: {value / KB:.1f} KB gzip, budget {budget / KB:.0f} KB"
              + ("" if ok else f" ({value / budget:.2f}x)"))
    if over and not no_fail:
        sys.exit(1)


if __name__ == "__main__":
    main()
