// @ts-check
// Issue 18's speed budget for scripted algorithms: a scripted run of about
// 100,000 events under one second in the page. Times, in Node against the
// built tools module (www/pkg/election_web*), the Chang-Roberts template as
// a script on a descending ring of 446 nodes, all starting (130,009
// events, each a call into the interpreter): as the page plays it (a
// recording Playground run to its end) and as a headless run
// (`run_summary`, what compare mode and experiments do). Prints one JSON
// object; the native figure is `election bench --only script-cr446-desc`.
//
//   node scripts/bench/bench-script.mjs [--repeat N]

import { benchArgs } from './bench-args.mjs';
import { loadWasm } from '../build/wasm-node.mjs';

const { repeat } = benchArgs(process.argv.slice(2), {
  repeat: 5,
  usage: 'bench-script.mjs [--repeat N]',
  positional: false,
});

const { pkg } = await loadWasm();
const template = pkg.script_templates().find((/** @type {{id: string}} */ t) => t.id === 'chang-roberts');
const scenario = JSON.stringify({
  algorithm: 'script',
  script: template.source,
  nodes: 446,
  ring: 'descending',
  start: 'all',
});

/**
 * Median and best wall time of `repeat` runs of `run` (after one warm-up).
 * @param {() => number} run returns the run's events
 */
function time(run) {
  run();
  const times = [];
  let events = 0;
  for (let r = 0; r < repeat; r++) {
    const t0 = performance.now();
    events = run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  return { events, best_ms: times[0], median_ms: median, median_events_per_s: events / (median / 1e3) };
}

const page = time(() => {
  const p = new pkg.Playground(scenario);
  p.run_to_end();
  const events = p.summary().events;
  p.free();
  return events;
});
const headless = time(() => pkg.run_summary(scenario).events);
console.log(JSON.stringify({ workload: 'script-cr446-desc', repeats: repeat, page, headless }));
