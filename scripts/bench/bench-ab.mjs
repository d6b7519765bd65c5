// @ts-check
// Compares wasm builds on the benchmark workloads (core/tools/src/workloads.rs)
// on a shared, busy machine: the builds run interleaved (one run of each
// in turn, so a burst of other load hits them alike) and each run is
// timed by this process's CPU time (process.cpuUsage: user + system) as
// well as by wall time. CPU time leaves out the time other processes
// held the CPU, which is most of the spread in scripts/bench/bench.sh's wall
// times when others build or test; cache sharing still shows in it.
// Prints one line per workload and build: median and minimum of each.
//
//   node scripts/bench/bench-ab.mjs [--repeat N] [--only id,id] DIR [DIR ...]
//
// Each DIR is a wasm-bindgen output directory (election_web.js and
// election_web_bg.wasm), e.g. www/pkg and a copy of an earlier build.

import path from 'node:path';
import { benchArgs } from './bench-args.mjs';
import { loadWasm } from '../build/wasm-node.mjs';

const { repeat, only, rest } = benchArgs(process.argv.slice(2), {
  repeat: 15,
  usage: 'bench-ab.mjs [--repeat N] [--only id,id] DIR [DIR ...]',
  positional: true,
});
const dirs = rest.map((d) => path.resolve(d));
if (dirs.length === 0) {
  console.error('give at least one build directory (with election_web.js and election_web_bg.wasm)');
  process.exit(2);
}

const builds = [];
for (const dir of dirs) {
  let pkg;
  try {
    ({ pkg } = await loadWasm(dir));
  } catch (e) {
    console.error(`${dir}: ${e instanceof Error ? e.message : e}`);
    process.exit(2);
  }
  builds.push({ dir, pkg });
}

/** @type {string[]} */
const ids = builds[0].pkg.bench_workloads();
if (only) {
  const bad = only.find((id) => !ids.includes(id));
  if (bad) {
    console.error(`--only: no workload named '${bad}'; the workloads are ${ids.join(', ')}`);
    process.exit(2);
  }
}

/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const label = (/** @type {string} */ dir) => path.relative(process.cwd(), dir) || '.';
const width = Math.max(...dirs.map((d) => label(d).length));
for (const id of ids) {
  if (only && !only.includes(id)) continue;
  // Warm-up: the JIT tiers up wasm functions on first use.
  for (const b of builds) b.pkg.bench_run(id);
  const cpu = builds.map(() => /** @type {number[]} */ ([]));
  const wall = builds.map(() => /** @type {number[]} */ ([]));
  for (let r = 0; r < repeat; r++) {
    builds.forEach((b, i) => {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      b.pkg.bench_run(id);
      const t1 = performance.now();
      const c = process.cpuUsage(c0);
      cpu[i].push((c.user + c.system) / 1000);
      wall[i].push(t1 - t0);
    });
  }
  builds.forEach((b, i) => {
    console.log(
      `${id.padEnd(12)} ${label(b.dir).padEnd(width)}  cpu ms median ${median(cpu[i]).toFixed(2).padStart(7)}` +
        ` min ${Math.min(...cpu[i]).toFixed(2).padStart(7)}   wall ms median ${median(wall[i]).toFixed(2).padStart(7)}` +
        ` min ${Math.min(...wall[i]).toFixed(2).padStart(7)}`,
    );
  });
}
