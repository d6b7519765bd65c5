// @ts-check
// The wasm side of scripts/bench/bench.sh: times the benchmark workloads of
// election-core (core/tools/src/workloads.rs) in Node against the built
// www/pkg, the way `election bench --json` does natively (build and run
// to the end, wall time per run, best and median of --repeat N), and
// prints one JSON object: { workloads: [...], memory_bytes }.
//
//   node scripts/bench/bench-wasm.mjs [--repeat N] [--only id,id]

import { benchArgs } from './bench-args.mjs';
import { loadWasm } from '../build/wasm-node.mjs';

const { repeat, only } = benchArgs(process.argv.slice(2), {
  repeat: 5,
  usage: 'bench-wasm.mjs [--repeat N] [--only id,id]',
  positional: false,
});

const { pkg, exports } = await loadWasm();
/** @type {string[]} */
const ids = pkg.bench_workloads();
if (only) {
  const bad = only.find((id) => !ids.includes(id));
  if (bad) {
    console.error(`--only: no workload named '${bad}'; the workloads are ${ids.join(', ')}`);
    process.exit(2);
  }
}
const results = [];
for (const id of ids) {
  if (only && !only.includes(id)) continue;
  pkg.bench_run(id); // warm-up: the JIT tiers up wasm functions on first use
  const times = [];
  let events = 0;
  for (let r = 0; r < repeat; r++) {
    const t0 = performance.now();
    events = pkg.bench_run(id);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const best = times[0];
  const median = times[Math.floor(times.length / 2)];
  results.push({
    id,
    events,
    repeats: repeat,
    best_ms: best,
    median_ms: median,
    best_events_per_s: events / (best / 1e3),
    median_events_per_s: events / (median / 1e3),
  });
}
console.log(JSON.stringify({ workloads: results, memory_bytes: exports.memory.buffer.byteLength }));
