#!/usr/bin/env python3
"""The hostile-input suite against the CLI (tests/hostile/README.md).

Runs every case of tests/hostile/cli-cases.json with the `election` binary
given as the first argument (default: target/release/election) under an
address-space limit of 2,000,000 KB (`ulimit -v 2000000`) and 10 s of CPU
(`ulimit -t 10`), and checks its outcome: the exit code, the message on
stderr (a named field or a named limit), and for a run stopped at a limit
its `--json` summary (`stopped_by.limit`, and `end_ms` equal to
`stopped_by.at_ms`). Prints one line per case, the time and peak memory it
took, and closes with "N passed, N failed"; exits 1 if any failed.
"""

import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ADDRESS_SPACE_KB = 2_000_000
CPU_SECONDS = 10
# Wall clock, only to catch a hang on a busy machine: the CPU limit is
# what a case must meet.
WALL_SECONDS = 120


def limits():
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE_KB * 1024,) * 2)
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))


def run(argv):
    """Runs `argv` under the limits: (exit code or "timeout", stdout,
    stderr, the child's own peak resident memory in KB). The child is
    reaped with wait4 for its own peak: RUSAGE_CHILDREN gives the largest
    of every child so far."""
    p = subprocess.Popen(argv, cwd=HERE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, preexec_fn=limits)
    got = {}
    readers = [threading.Thread(target=lambda k, f: got.__setitem__(k, f.read()), args=(k, f))
               for k, f in (("out", p.stdout), ("err", p.stderr))]
    for r in readers:
        r.start()
    deadline = time.monotonic() + WALL_SECONDS
    while True:
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            p.kill()
            pid, status, usage = os.wait4(p.pid, 0)
            status = None
            break
        time.sleep(0.005)
    p.returncode = 0  # reaped here: Popen must not wait for it again
    for r in readers:
        r.join()
    code = "timeout" if status is None else os.waitstatus_to_exitcode(status)
    return code, got.get("out", b""), got.get("err", b"").decode("utf-8", "replace"), usage.ru_maxrss


def inputs(tmp):
    """The generated inputs: too big to keep in the repository."""
    with open(os.path.join(tmp, "too-many-faults.json"), "w") as f:
        json.dump({"algorithm": "bully", "nodes": 4,
                   "faults": [{"at_ms": i, "crash": 1} for i in range(1500)]}, f)
    with open(os.path.join(tmp, "deep-nesting.json"), "w") as f:
        f.write("[" * 30_000 + "]" * 30_000)
    with open(os.path.join(tmp, "oversize.json"), "w") as f:
        f.write('{"algorithm":"bully","pad":"' + "x" * 70_000 + '"}')
    with open(os.path.join(tmp, "binary.json"), "wb") as f:
        f.write(bytes(range(256)) * 64)
    return [a for i in range(10_000) for a in ("--fault", f'{{"at_ms":{i},"crash":1}}')]


def main():
    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                             os.path.join(ROOT, "target/release/election"))
    with open(os.path.join(HERE, "cli-cases.json")) as f:
        cases = json.load(f)
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        many_faults = inputs(tmp)
        for case in cases:
            args = []
            for a in case["args"]:
                if a == "{many_faults}":
                    args += many_faults
                else:
                    args.append(a.replace("{tmp}", tmp))
            start = time.monotonic()
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            code, out, err, peak_kb = run([binary] + args)
            took = time.monotonic() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
            problems = []
            if code != case["exit"]:
                problems.append(f"exit {code}, expected {case['exit']}")
            if case["says"] not in err:
                problems.append(f"stderr does not say {case['says']!r}: {err[:300]!r}")
            if case.get("out_says", "") not in out.decode("utf-8", "replace"):
                problems.append(f"stdout does not say {case['out_says']!r}")
            if len(err) > case.get("max_stderr", 4000):
                problems.append(f"stderr is {len(err)} characters")
            stop = case.get("end_is_stop")
            if stop and code == case["exit"]:
                try:
                    summary = json.loads(out)
                    s = summary.get("stopped_by") or {}
                    if s.get("limit") != stop:
                        problems.append(f"stopped_by.limit is {s.get('limit')!r}, expected {stop!r}")
                    if summary.get("end_ms") != s.get("at_ms"):
                        problems.append(f"end_ms {summary.get('end_ms')} is not where it stopped, {s.get('at_ms')}")
                    if summary.get("truncated") is not True:
                        problems.append("truncated is not true")
                except ValueError as e:
                    problems.append(f"stdout is not one JSON object: {e}")
            status = "ok  " if not problems else "FAIL"
            print(f"{status} {case['case']} (exit {code}, {took:.2f} s, {cpu:.2f} s CPU, "
                  f"{peak_kb / 1024:.0f} MB peak)")
            for p in problems:
                print(f"       {p}")
            if problems:
                failed += 1
            else:
                passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
