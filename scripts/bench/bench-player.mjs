// @ts-check
// The page's wasm modules on the same played runs: the player module of
// the run's algorithm family (`election_player_<family>`, which the page
// plays its runs in; www/pkg/modules.js says which) against the tools
// module (`election_web`, which scripts/bench/bench.sh and bench-ab.mjs
// time against native code). Both run the same Rust engine; this checks
// that the player's build of it is as fast, so that the tools module's
// wasm/native ratio holds for the page. Each run makes a Playground from a
// page address and plays it to its end (`run_to_end`, what "To end"
// does), timed by this process's CPU time, the modules interleaved (so a
// burst of other load hits both alike). Prints the median and minimum
// CPU ms of each, and the player's median over the tools module's.
//
//   node scripts/bench/bench-player.mjs [--repeat N] [DIR]   (DIR default www/pkg)
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../build/wasm-node.mjs';

const args = process.argv.slice(2);
let repeat = 9;
const at = args.indexOf('--repeat');
if (at >= 0) {
  repeat = Number(args[at + 1]);
  args.splice(at, 2);
  if (!Number.isInteger(repeat) || repeat < 1) {
    console.error('--repeat: a whole number of runs, at least 1');
    process.exit(2);
  }
}
const dir = path.resolve(args[0] ?? path.join(ROOT, 'www/pkg'));

/**
 * @param {string} name election_player_<family> or election_web
 * @returns {Promise<any>} the module, started
 */
async function load(name) {
  const pkg = await import(path.join(dir, `${name}.js`));
  pkg.initSync({ module: readFileSync(path.join(dir, `${name}_bg.wasm`)) });
  return pkg;
}

/** Page addresses played to their end. */
const RUNS = [
  ['Chang-Roberts n=1000, descending ring, all start', 'algorithm=chang-roberts&nodes=1000&ring=descending&start=all'],
  ['Raft n=256, 2 s', 'algorithm=raft&nodes=256&until_ms=2000'],
  ['Bully n=200, all start', 'algorithm=bully&nodes=200&start=all'],
];

/** @type {{ALGORITHM_MODULE: Record<string, string>}} */
const table = await import(path.join(dir, 'modules.js'));
const tools = await load('election_web');
/** @type {Map<string, any>} player module name -> the module */
const players = new Map();
for (const [, query] of RUNS) {
  const name = table.ALGORITHM_MODULE[new URLSearchParams(query).get('algorithm') ?? ''];
  if (!players.has(name)) players.set(name, await load(name));
}
/** @type {Record<string, Record<string, number[]>>} */
const times = {};
/** @type {Record<string, string>} */
const hashes = {};
for (let r = 0; r < repeat; r++) {
  for (const [label, query] of RUNS) {
    const player = players.get(table.ALGORITHM_MODULE[new URLSearchParams(query).get('algorithm') ?? '']);
    for (const [name, pkg] of Object.entries({ player, tools })) {
      const before = process.cpuUsage();
      const pg = pkg.Playground.from_url(query, '');
      pg.run_to_end();
      const used = process.cpuUsage(before);
      const hash = pg.trace_hash();
      pg.free();
      const key = `${label}`;
      if (hashes[key] && hashes[key] !== hash) {
        console.error(`${label}: the ${name} module's trace hash ${hash} differs from ${hashes[key]}`);
        process.exit(1);
      }
      hashes[key] = hash;
      ((times[label] ??= {})[name] ??= []).push((used.user + used.system) / 1000);
    }
  }
}
const median = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`CPU ms per run (${repeat} runs each, interleaved), median / min; load ${(await import('node:os')).loadavg()[0].toFixed(1)}`);
for (const [label] of RUNS) {
  const t = times[label];
  console.log(
    `${label.padEnd(50)} player ${median(t.player).toFixed(1)} / ${Math.min(...t.player).toFixed(1)}   ` +
      `tools ${median(t.tools).toFixed(1)} / ${Math.min(...t.tools).toFixed(1)}   player/tools ${(median(t.player) / median(t.tools)).toFixed(2)}`,
  );
}
