// @ts-check
// Compares wasm builds on the calls whose structured values cross the
// wasm boundary (web/src/js.rs, to_js): reading the scenario, the summary,
// a page of log lines, a node's inspection and an experiment's report.
// Like bench-ab.mjs it runs the builds interleaved (one batch of each in
// turn, so a burst of other load hits them alike) and times each batch by
// this process's CPU time (process.cpuUsage: user + system); it prints the
// median and minimum microseconds per call of each call and build.
//
//   node scripts/bench/bench-boundary.mjs [--repeat N] [--only id,id] DIR [DIR ...]
//
// Each DIR is a wasm build (www/pkg, or a copy of an earlier one) with the
// player module election_player_bully and the tools module election_web.
// A call a build does not have (`scenario()`, `report()` before they
// existed) is read the way that build's page read it: `JSON.parse` of the
// text (`scenario_json()`, `report_json()`).

import path from 'node:path';
import { benchArgs } from './bench-args.mjs';
import { loadWasm } from '../build/wasm-node.mjs';

const { repeat, only, rest } = benchArgs(process.argv.slice(2), {
  repeat: 21,
  usage: 'bench-boundary.mjs [--repeat N] [--only id,id] DIR [DIR ...]',
  positional: true,
});
const dirs = rest.map((d) => path.resolve(d));
if (dirs.length === 0) {
  console.error('give at least one build directory (with election_player_bully.js and election_web.js)');
  process.exit(2);
}

// The default page's scenario with a crash, run to 30 s: its log has the
// election, the crash and the next election.
const SCENARIO = JSON.stringify({
  algorithm: 'bully',
  nodes: 8,
  faults: [{ at_ms: 20000, crash: 'leader' }],
});
const EXPERIMENT = JSON.stringify({
  scenario: { algorithm: 'raft', nodes: 5 },
  seeds: '1..20',
  algorithms: ['raft', 'bully'],
  param: 'nodes=3,5',
});

const builds = [];
for (const dir of dirs) {
  let player, tools;
  try {
    ({ pkg: player } = await loadWasm(dir, 'election_player_bully'));
    ({ pkg: tools } = await loadWasm(dir, 'election_web'));
  } catch (e) {
    console.error(`${dir}: ${e instanceof Error ? e.message : e}`);
    process.exit(2);
  }
  const pg = new player.Playground(SCENARIO);
  pg.run_until_ms(30000);
  const runner = new tools.ExperimentRunner(EXPERIMENT);
  const theory = new tools.ExperimentRunner(JSON.stringify({ scenario: { algorithm: 'lelann' }, seeds: '1..2', param: 'nodes=4,8,16' }));
  const cmp = new tools.Playground(SCENARIO);
  cmp.run_until_ms(30000);
  const records = [];
  for (let i = 0; i < runner.run_count(); i++) records.push(runner.run(i));
  const recordsJson = `[${records.join(',')}]`;
  /** @type {Record<string, () => unknown>} */
  const calls = {
    scenario: pg.scenario ? () => pg.scenario() : () => JSON.parse(pg.scenario_json()),
    summary: () => pg.summary(),
    events: () => pg.events(0, 200),
    inspect: () => pg.inspect(0),
    violations: () => pg.violations(),
    algorithms: () => player.algorithms(),
    groups: () => runner.groups(),
    properties: () => player.properties(),
    timers: () => player.timer_classes(),
    presets: () => player.presets(),
    templates: () => tools.script_templates(),
    script_check: () => tools.script_check('fn on_start() { let x = ; }'),
    experiments: () => tools.experiment_presets(),
    compare: () => cmp.compare_figures(),
    theory: () => theory.theory(),
    tradeoffs: () => tools.tradeoffs_table('{}'),
    report: runner.report
      ? () => runner.report(recordsJson)
      : () => JSON.parse(runner.report_json(recordsJson)),
  };
  builds.push({ dir, calls });
}

/** Calls per timed batch, so that a batch takes some milliseconds. */
const BATCH = { scenario: 2000, summary: 2000, events: 50, inspect: 2000, violations: 2000, algorithms: 200, groups: 2000, properties: 2000, timers: 2000, presets: 200, templates: 200, script_check: 200, experiments: 50, compare: 2000, theory: 200, tradeoffs: 50, report: 50 };
/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const label = (/** @type {string} */ dir) => path.relative(process.cwd(), dir) || '.';
const width = Math.max(...dirs.map((d) => label(d).length));
for (const [id, n] of Object.entries(BATCH)) {
  if (only && !only.includes(id)) continue;
  // Warm-up: the JIT tiers up the wasm and the glue on first use.
  for (const b of builds) for (let i = 0; i < n; i++) b.calls[id]();
  const cpu = builds.map(() => /** @type {number[]} */ ([]));
  for (let r = 0; r < repeat; r++) {
    builds.forEach((b, i) => {
      const c0 = process.cpuUsage();
      for (let k = 0; k < n; k++) b.calls[id]();
      const c = process.cpuUsage(c0);
      cpu[i].push((c.user + c.system) / n);
    });
  }
  builds.forEach((b, i) => {
    console.log(
      `${id.padEnd(12)} ${label(b.dir).padEnd(width)}  cpu us/call median ${median(cpu[i]).toFixed(1).padStart(8)}` +
        ` min ${Math.min(...cpu[i]).toFixed(1).padStart(8)}`,
    );
  });
}
