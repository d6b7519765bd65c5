#!/usr/bin/env python3
"""Where the gzipped bytes of a wasm module's code go, by part: each
function is charged what it adds to one deflate stream of the code in the
shipped order (copies of a generic function side by side, as
scripts/build/wasm-order.py puts them), grouped by the leading words of
its name (`election_core::engine`, `serde_json`, `core::fmt`, ...).

The input must keep its function names: the output of wasm-bindgen
before wasm-order.py (scripts/build/build-wasm.sh leaves it in
target/wasm/bindgen*/ as NAME_bg.wasm).

    python3 scripts/size/wasm-parts.py IN.wasm [DEPTH] [TOP]

DEPTH (default 2) is how many `::` words of a name make its part; TOP
(default 40) how many parts to list. Estimates: the whole stream is
within a few percent of `gzip -9` of the code section.
"""

import os
import re
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build"))
from wasmbin import function_names, imported_functions, sections, uleb  # noqa: E402

HASH_SUFFIX = re.compile(r"::h[0-9a-f]{16}$")


def part_of(name, depth):
    """The part a function belongs to: the first DEPTH path words of the
    innermost path in its name (`<T as Trait>::f` counts as T's)."""
    name = HASH_SUFFIX.sub("", name)
    m = re.match(r"^<(.+?) as ", name)
    if m:
        name = m.group(1)
    name = name.lstrip("&*")
    if name.startswith("mut "):
        name = name[4:]
    words = re.split(r"::", re.sub(r"<.*", "", name))
    return "::".join(words[:depth]) or "(unnamed)"


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    depth = int(argv[2]) if len(argv) > 2 else 2
    top = int(argv[3]) if len(argv) > 3 else 40
    data = open(argv[1], "rb").read()
    imports = 0
    names = {}
    bodies = []
    data_bytes = b""
    for sid, start, end, _ in sections(data):
        if sid == 2:
            imports = imported_functions(data, start)
        elif sid == 10:
            count, i = uleb(data, start)
            for _ in range(count):
                size, i = uleb(data, i)
                bodies.append(data[i : i + size])
                i += size
        elif sid == 11:
            data_bytes = data[start:end]
        elif sid == 0:
            found = function_names(data, start, end)
            if found:
                names = found
    order = sorted(
        range(len(bodies)),
        key=lambda k: (HASH_SUFFIX.sub("", names.get(imports + k, "")), len(bodies[k]), k),
    )
    z = zlib.compressobj(9, zlib.DEFLATED, -15)
    parts = {}
    total = 0
    for k in order:
        out = len(z.compress(bodies[k])) + len(z.flush(zlib.Z_SYNC_FLUSH))
        part = part_of(names.get(imports + k, "(unnamed)"), depth)
        parts[part] = parts.get(part, 0) + out
        total += out
    data_gz = len(zlib.compress(data_bytes, 9))
    print(f"code {total / 1000:.1f} KB gzip (est.), data {data_gz / 1000:.1f} KB gzip, {len(bodies)} functions")
    for part, size in sorted(parts.items(), key=lambda p: -p[1])[:top]:
        print(f"{size / 1000:8.1f} KB  {part}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
