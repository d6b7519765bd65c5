#!/usr/bin/env python3
"""Orders a wasm module's functions for gzip: renames every function so
that sorting by name puts copies of the same generic function next to each
other (smallest first), for `wasm-opt --reorder-functions-by-name` to sort.

Why: the engine and much of the standard library are monomorphized once
per algorithm, and the eleven copies of, say, `Engine<P>::step` are nearly
the same bytes. gzip only finds a repeat within its 32 KB window, and the
linker scatters the copies over the 1.3 MB module; side by side, each copy
compresses mostly into back-references to the one before. Same code, same
speed (only the order of the function bodies changes); about 22 KB off
the gzipped wasm (docs/PERFORMANCE.md, Size).

The input must keep its name section (wasm-bindgen without
--remove-name-section); the order key is the function's name without its
`::h<hash>` suffix, then the size of its body, then its index. The output
keeps the new names (f000000, f000001, ...) until wasm-opt's
--strip-debug drops them.

    python3 scripts/build/wasm-order.py IN.wasm OUT.wasm
"""

import re
import sys

from wasmbin import MAGIC, function_names, imported_functions, sections, uleb, uleb_bytes

HASH_SUFFIX = re.compile(r"::h[0-9a-f]{16}$")


def body_sizes(data, start):
    """The byte size of every function body in the code section."""
    count, i = uleb(data, start)
    sizes = []
    for _ in range(count):
        size, i = uleb(data, i)
        sizes.append(size)
        i += size
    return sizes


def name_section(names):
    """A name section holding only these function names."""
    entries = bytearray(uleb_bytes(len(names)))
    for index in sorted(names):
        name = names[index].encode()
        entries += uleb_bytes(index) + uleb_bytes(len(name)) + name
    payload = uleb_bytes(4) + b"name" + b"\x01" + uleb_bytes(len(entries)) + entries
    return b"\x00" + uleb_bytes(len(payload)) + payload


def reorder_names(data):
    """The module with its function names replaced by sort keys."""
    if data[: len(MAGIC)] != MAGIC:
        raise ValueError("not a wasm module (bad magic number or version)")
    secs = sections(data)
    imports = 0
    sizes = None
    names = None
    for sid, start, end, _ in secs:
        if sid == 2:
            imports = imported_functions(data, start)
        elif sid == 10:
            sizes = body_sizes(data, start)
        elif sid == 0 and names is None:
            names = function_names(data, start, end)
    if sizes is None:
        raise ValueError("the module has no code section")
    if not names:
        raise ValueError("the module has no function names (build it without --remove-name-section)")

    def key(k):
        index = imports + k
        name = HASH_SUFFIX.sub("", names.get(index, ""))
        return (name, sizes[k], k)

    order = sorted(range(len(sizes)), key=key)
    renamed = {i: names.get(i, f"import{i}") for i in range(imports)}
    for rank, k in enumerate(order):
        renamed[imports + k] = f"f{rank:06d}"
    out = bytearray(data[: len(MAGIC)])
    for sid, start, end, head in secs:
        if sid == 0 and function_names(data, start, end) is not None:
            out += name_section(renamed)
        else:
            out += data[head:end]
    return bytes(out)


def main(argv):
    if len(argv) != 3:
        print("usage: wasm-order.py IN.wasm OUT.wasm", file=sys.stderr)
        return 2
    with open(argv[1], "rb") as f:
        data = f.read()
    try:
        out = reorder_names(data)
    except (ValueError, IndexError) as e:
        print(f"wasm-order.py: {argv[1]}: {e}", file=sys.stderr)
        return 1
    with open(argv[2], "wb") as f:
        f.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
