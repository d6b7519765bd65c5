#!/usr/bin/env python3
"""Writes scenarios/corpus/*.json: the native = wasm trace-hash corpus.

Every algorithm (the ids of `election algorithms`) gets the same five
shapes, so the corpus covers each one with faults and network noise:

  clean     everyone starts, default network (random ring for ring algorithms)
  crash     the leader crashes and recovers, 5% of messages dropped
  partition a split and a heal, 5% duplicated, latency 2-20 ms, unordered links
  skew      the leader pauses (a GC pause), a skewed and drifting clock, a slow node
  flaky     a flapping node, a one-way cut and its repair, a network change, nobody starts

plus the algorithm options that change the protocol (Raft pre-vote,
check-quorum and leader lease, ZooKeeper's herd watch, fencing off,
Multi-Paxos's master lease and no backoff), and scripted algorithms: the
five shapes for the Chang-Roberts and Bully templates
(core/algorithms/src/script/templates/*.rhai, `"algorithm": "script"` with the
source in `"script"`) and a script whose handler fails mid-run (the
summary's `script_error` must match too).
The files are committed; rerun this script only to change the corpus
(tests/node/hash-corpus.test.js compares every file natively and in
wasm, whatever it holds).

    python3 scripts/build/gen-corpus.py
"""

import json
import os
import subprocess

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def cli_json(*args):
    """What `election ARGS --json` prints (the CLI is built if need be)."""
    out = subprocess.run(
        ["cargo", "run", "--quiet", "-p", "election-cli", "--", *args, "--json"],
        cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


# The registry's entries, as `election algorithms --json` lists them (the
# one list of algorithms).
ENTRIES = cli_json("algorithms")
ALGORITHMS = [a["id"] for a in ENTRIES]
RING = {a["id"] for a in ENTRIES if a["layout"] == "ring"}
OUT = os.path.join(ROOT, "scenarios", "corpus")
# Templates run as scripts, with the shapes of the built-in they copy (a
# template's id is that built-in's), as `election templates --json` lists
# them.
SCRIPTED = [t for t in cli_json("templates") if t["kind"] == "template"]
# A script that runs a while, then fails in a handler (a type error).
FAILING = """// Counts heartbeats, then takes a string from a number.
fn on_start(ctx) {
    this.beats = 0;
    ctx.set_timer("heartbeat", 20 + ctx.id);
}
fn on_timer(ctx, name) {
    this.beats += 1;
    ctx.broadcast(#{ kind: "BEAT", background: true, n: this.beats });
    if this.beats == 5 && ctx.id == 2 {
        this.beats -= "five";
    }
    ctx.set_timer("heartbeat", 20);
}
fn on_message(ctx, from, msg) { }
"""


def shapes(alg, index, script=None):
    """The five scenarios of one algorithm (index varies seeds and sizes);
    with `script`, the scripted algorithm running that source, shaped as
    the built-in `alg`."""
    ring = {"ring": "random"} if alg in RING else {}
    n = 5 + index % 4
    base = {"version": 1, "algorithm": alg, "nodes": n}
    if script is not None:
        base = {"version": 1, "algorithm": "script", "script": script, "nodes": n}
    yield "clean", {**base, **ring, "seed": 100 + index, "start": "all", "until_ms": 3000}
    yield "crash", {
        **base, **ring, "seed": 200 + index, "start": "all",
        "network": {"latency_ms": [5, 10], "drop": 0.05},
        "faults": [
            {"at_ms": 1000, "crash": "leader"},
            {"at_ms": 3000, "recover": n - 1},
        ],
        "until_ms": 6000,
    }
    yield "partition", {
        **base, **({"ring": "descending"} if alg in RING else {}), "seed": 300 + index,
        "start": "all",
        "network": {"latency_ms": [2, 20], "duplicate": 0.05, "fifo": False},
        "faults": [
            {"at_ms": 800, "partition": [[0, 1], list(range(2, n))]},
            {"at_ms": 2500, "heal": True},
        ],
        "until_ms": 5000,
    }
    yield "skew", {
        **base, **ring, "seed": 400 + index, "start": "all",
        "faults": [
            {"at_ms": 0, "clock": 1, "offset_ms": 200, "drift": 0.1},
            {"at_ms": 300, "slow": 2, "extra_ms": 30},
            {"at_ms": 700, "pause": "leader", "for_ms": 600},
        ],
        "until_ms": 4000,
    }
    yield "flaky", {
        **base, **ring, "seed": 500 + index, "start": "none",
        "faults": [
            {"at_ms": 200, "flaky": 0, "period_ms": 900, "down_ms": 300, "for_ms": 3000},
            {"at_ms": 500, "cut": [1, 2]},
            {"at_ms": 1500, "uncut": [1, 2]},
            {"at_ms": 2000, "network": {"latency_ms": [1, 30], "drop": 0.1}},
        ],
        "until_ms": 5000,
    }


def options():
    """Scenarios for the protocol options."""
    crash = [{"at_ms": 1200, "crash": "leader"}, {"at_ms": 2000, "pause": "leader", "for_ms": 900}]
    yield "raft-pre-vote", {"version": 1, "algorithm": "raft", "nodes": 5, "seed": 7,
                            "pre_vote": True, "faults": [{"at_ms": 900, "partition": [[0], [1, 2, 3, 4]]},
                                                         {"at_ms": 2500, "heal": True}], "until_ms": 4000}
    yield "raft-check-quorum", {"version": 1, "algorithm": "raft", "nodes": 5, "seed": 8,
                                "check_quorum": True, "faults": crash, "until_ms": 4000}
    yield "raft-leader-lease", {"version": 1, "algorithm": "raft", "nodes": 5, "seed": 9,
                                "leader_lease": True,
                                "faults": [{"at_ms": 0, "clock": 2, "drift": 0.5}] + crash,
                                "until_ms": 4000}
    yield "raft-no-fencing", {"version": 1, "algorithm": "raft", "nodes": 3, "seed": 10,
                              "fencing": False, "faults": crash, "until_ms": 4000}
    yield "zookeeper-herd", {"version": 1, "algorithm": "zookeeper", "nodes": 8, "seed": 11,
                             "watch": "herd", "faults": crash, "until_ms": 5000}
    yield "lease-no-fencing", {"version": 1, "algorithm": "lease", "nodes": 4, "seed": 12,
                               "fencing": False, "faults": crash, "until_ms": 5000}
    yield "multi-paxos-master-lease", {"version": 1, "algorithm": "multi-paxos", "nodes": 5,
                                       "seed": 13, "master_lease": True,
                                       "faults": [{"at_ms": 0, "clock": 2, "drift": 0.5}] + crash,
                                       "until_ms": 5000}
    yield "multi-paxos-no-backoff", {"version": 1, "algorithm": "multi-paxos", "nodes": 5,
                                     "seed": 14, "backoff": False,
                                     "timing": {"election_timeout_ms": [150, 150]},
                                     "faults": crash, "until_ms": 2500}


def main():
    os.makedirs(OUT, exist_ok=True)
    for old in os.listdir(OUT):
        if old.endswith(".json"):
            os.remove(os.path.join(OUT, old))
    count = 0
    for index, alg in enumerate(ALGORITHMS):
        for shape, scenario in shapes(alg, index):
            write(f"{alg}-{shape}", scenario)
            count += 1
    for name, scenario in options():
        write(name, scenario)
        count += 1
    for index, template in enumerate(SCRIPTED):
        for shape, scenario in shapes(template["id"], index + 3, template["source"]):
            write(f"script-{template['id']}-{shape}", scenario)
            count += 1
    write("script-error", {"version": 1, "algorithm": "script", "script": FAILING, "nodes": 4,
                           "seed": 600, "network": {"drop": 0.05}, "until_ms": 1000})
    count += 1
    print(f"wrote {count} scenarios to scenarios/corpus/")


def write(name, scenario):
    with open(os.path.join(OUT, f"{name}.json"), "w") as f:
        json.dump(scenario, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
