#!/usr/bin/env python3
"""Prints the sections of a .wasm file with their sizes (raw and gzip -9),
and the target features it was built with: the first look at where the
bytes of www/pkg/election_web_bg.wasm go (twiggy then splits the code
section by function; see docs/PERFORMANCE.md, Size and Profiling).

    python3 scripts/size/wasm-sections.py www/pkg/election_web_bg.wasm
"""

import gzip
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build"))
from wasmbin import sections, uleb  # noqa: E402  (scripts/build/wasmbin.py)

NAMES = {
    0: "custom", 1: "type", 2: "import", 3: "function", 4: "table", 5: "memory",
    6: "global", 7: "export", 8: "start", 9: "element", 10: "code", 11: "data",
    12: "datacount",
}


def main(path):
    try:
        data = open(path, "rb").read()
    except OSError as e:
        sys.exit(f"wasm-sections: cannot read {path}: {e.strerror}")
    if data[:4] != b"\0asm":
        sys.exit(f"wasm-sections: {path} is not a wasm module (no \\0asm magic)")
    total = len(data)
    print(f"{'section':32} {'bytes':>9} {'%':>6} {'gzip -9':>9}")
    features = []
    for sid, start, end, _ in sections(data):
        size = end - start
        body = data[start:end]
        name = NAMES.get(sid, f"id {sid}")
        if sid == 0:
            nlen, j = uleb(body, 0)
            cname = body[j:j + nlen].decode("utf-8", "replace")
            name = f"custom '{cname}'"
            if cname == "target_features":
                j += nlen
                count, j = uleb(body, j)
                for _ in range(count):
                    prefix = chr(body[j])
                    flen, j = uleb(body, j + 1)
                    features.append(prefix + body[j:j + flen].decode())
                    j += flen
        gz = len(gzip.compress(body, 9))
        print(f"{name:32} {size:9d} {100 * size / total:6.1f} {gz:9d}")
    print(f"{'total':32} {total:9d} {100.0:6.1f} {len(gzip.compress(data, 9)):9d}")
    if features:
        print("target features:", " ".join(features))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: wasm-sections.py FILE.wasm")
    main(sys.argv[1])
