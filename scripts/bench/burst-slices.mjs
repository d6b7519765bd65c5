// @ts-check
// Runs the pathological 1024-node Bully burst in the wasm build under
// Node, in slices as the page does (`run_until_ms_within`, each call
// sized to take about a target time, its event count at most doubling),
// and prints the calls that took longest: what a page's frame cannot cut.
// Not a test; a tool for the core's long single calls without a browser's
// noise.
//
// Usage: node scripts/bench/burst-slices.mjs [target ms per call, default 1]
// (ELECTION_PKG_DIR picks another build, see scripts/build/wasm-node.mjs).
import { loadWasm } from '../build/wasm-node.mjs';

const target = Number(process.argv[2] || 1);
const { pkg } = await loadWasm();
const pg = pkg.Playground.from_url('?algorithm=bully&nodes=1024&seed=1&start=all&at=0', '');
/** @type {[number, number, number, number][]} took, events asked, now before, in flight */
const calls = [];
let perCall = 2000;
const started = performance.now();
while (pg.now_ms() < 40) {
  const now = pg.now_ms();
  const t0 = performance.now();
  pg.run_until_ms_within(40, perCall);
  const took = performance.now() - t0;
  calls.push([took, perCall, now, 0]);
  const want = (perCall * target) / Math.max(took, 0.05);
  perCall = Math.round(Math.min(200_000, Math.max(1, Math.min(2 * perCall, (perCall + want) / 2))));
}
const total = performance.now() - started;
const sorted = calls.map((c) => c[0]).sort((a, b) => a - b);
const q = (/** @type {number} */ p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].toFixed(2);
console.log(
  `${calls.length} calls to 40 ms in ${total.toFixed(0)} ms; per call p50 ${q(0.5)}, p95 ${q(0.95)}, p99 ${q(0.99)}, max ${q(1)} ms; over 4 ms: ${sorted.filter((t) => t > 4).length}`,
);
for (const [took, asked, now] of calls.slice().sort((a, b) => b[0] - a[0]).slice(0, 8)) {
  console.log(`  ${took.toFixed(2)} ms: ${asked} events asked, from ${now.toFixed(3)} ms`);
}
