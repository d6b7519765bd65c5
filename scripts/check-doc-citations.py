#!/usr/bin/env python3
"""Every citation of the maps points at something that exists.

Code and docs cite docs/ARCHITECTURE.md and docs/PERFORMANCE.md by heading
("docs/ARCHITECTURE.md, Determinism rules", or a Markdown link to
"ARCHITECTURE.md#determinism-rules"), and the detail that lives next to the
code by file ("core/engine/src/metrics.rs, module docs", "www/stage/start.js,
top comment"). This checks, over the files git tracks, that each cited
heading is a heading of that file and each cited file exists; a citation may
wrap across comment lines. Prints every broken one and exits 1 if any.

    python3 scripts/check-doc-citations.py
"""
import os
import re
import subprocess
import sys

MAPS = ("docs/ARCHITECTURE.md", "docs/PERFORMANCE.md")
EXTENSIONS = (".rs", ".js", ".mjs", ".sh", ".py", ".toml", ".md", ".html", ".css", ".json")
# A comment marker at the start of a wrapped line: //!, ///, //, *, #.
JOIN = re.compile(r"\n[ \t]*(?://!|///|//|\*|#)?[ \t]*")


def anchor(heading):
    return re.sub(r"[^a-z0-9 -]", "", heading.lower()).replace(" ", "-")


def main():
    root = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True,
                          text=True, check=True).stdout.strip()
    os.chdir(root)
    headings = {}
    for path in MAPS:
        with open(path, encoding="utf-8") as f:
            headings[path] = [line.lstrip("#").strip() for line in f if line.startswith("#")]
    files = subprocess.run(["git", "ls-files"], capture_output=True, text=True,
                           check=True).stdout.split()
    broken = []
    count = 0
    for path in files:
        if not path.endswith(EXTENSIONS) or not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            text = JOIN.sub(" ", f.read())
        for doc in MAPS:
            name = os.path.basename(doc)
            heads = headings[doc]
            anchors = {anchor(h) for h in heads}
            for m in re.finditer(re.escape(name) + r"#([a-z0-9-]+)", text):
                count += 1
                if m.group(1) not in anchors:
                    broken.append(f"{path}: {name}#{m.group(1)}: no such heading")
            for m in re.finditer(re.escape(name) + r',\s+"?([A-Z][^.;:)"]{0,80})', text):
                count += 1
                if not any(m.group(1).startswith(h) for h in heads):
                    broken.append(f"{path}: {name}, {m.group(1)[:60]}: no such heading")
        for m in re.finditer(r"`?([\w./-]+\.(?:rs|js|mjs|sh|py))`?,? (?:module docs|top comment)", text):
            count += 1
            if not os.path.exists(m.group(1)):
                broken.append(f"{path}: {m.group(1)}: no such file")
    for line in broken:
        print(line)
    print(f"{count} citations, {len(broken)} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
