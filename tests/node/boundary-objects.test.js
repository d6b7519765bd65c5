// @ts-check
// The objects that cross the wasm boundary (web/src/js.rs: to_js through
// serde-wasm-bindgen, to_js_by_text through JSON text where that measured
// faster) are exactly what `JSON.parse` gives for the JSON text the same
// module writes for the same value (the CLI's text), keys in order: the
// summary and the log lines' events over every scenario of
// scenarios/corpus/, an experiment's report, the same in a player module
// as in the tools module. A hand-picked seed beyond 2^53 comes out
// rounded, as `JSON.parse` rounds it.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { loadWasm, ROOT } from '../../scripts/build/wasm-node.mjs';

const CORPUS = join(ROOT, 'scenarios', 'corpus');
const files = readdirSync(CORPUS).filter((f) => f.endsWith('.json')).sort();

/** @type {any} */
let tools;
/** @type {any} */
let player;
before(async () => {
  ({ pkg: tools } = await loadWasm());
  ({ pkg: player } = await loadWasm(undefined, 'election_player_bully'));
});

test('the summary and events are the objects of their JSON text', () => {
  assert.ok(files.length >= 50, `only ${files.length} scenarios in scenarios/corpus`);
  for (const file of files) {
    const pg = new tools.Playground(readFileSync(join(CORPUS, file), 'utf8'));
    pg.run_until_ms(Math.min(pg.horizon_ms(), 20000));
    // Keys in the same order too: the page writes some of these back out.
    // The summary file is `run --json`'s object: the summary, then its
    // captions (which summary() does not carry).
    const { captions, ...summary } = JSON.parse(pg.summary_json());
    assert.equal(JSON.stringify(pg.summary()), JSON.stringify(summary), `${file}: summary()`);
    assert.equal(captions[0].at_ms, 0, `${file}: captions`);
    const trace = JSON.parse(pg.trace_json()).trace;
    const n = Math.min(trace.length, 200);
    const lines = pg.events(0, n);
    // A trace file entry is the event with its time (`at_us`) beside it.
    assert.deepEqual(
      lines.map((/** @type {any} */ l) => ({ at_us: Math.round(l.at_ms * 1000), ...l.event })),
      trace.slice(0, n),
      `${file}: events(0, ${n})`,
    );
    pg.free();
  }
});

test('a player module gives the tools module objects', () => {
  const text = JSON.stringify({ algorithm: 'bully', nodes: 6, faults: [{ at_ms: 3000, crash: 'leader' }] });
  const a = new player.Playground(text);
  const b = new tools.Playground(text);
  a.run_until_ms(8000);
  b.run_until_ms(8000);
  assert.equal(a.scenario_json(), b.scenario_json());
  assert.deepEqual(a.summary(), b.summary());
  assert.deepEqual(a.events_since(0), b.events_since(0));
  assert.deepEqual(a.inspect(2), b.inspect(2));
});

test('an experiment report is the object of its JSON text', () => {
  for (const spec of [
    { scenario: { algorithm: 'raft', nodes: 5 }, seeds: '1..6' },
    { scenario: { algorithm: 'raft', nodes: 5 }, seeds: '1..4', algorithms: ['raft', 'bully'], param: 'nodes=3,5' },
  ]) {
    const runner = new tools.ExperimentRunner(JSON.stringify(spec));
    const records = [];
    for (let i = 0; i < runner.run_count(); i++) records.push(runner.run(i));
    const json = `[${records.join(',')}]`;
    assert.equal(JSON.stringify(runner.report(json)), JSON.stringify(JSON.parse(runner.report_json(json))), JSON.stringify(spec));
    assert.throws(() => runner.report('[{}]'), (/** @type {any} */ e) => e.field === 'records');
  }
});

test('a seed beyond 2^53 comes out rounded, as JSON.parse rounds it', () => {
  const text = '{"algorithm": "bully", "nodes": 4, "seed": 18446744073709551615}';
  for (const pkg of [tools, player]) {
    const pg = new pkg.Playground(text);
    pg.run_until_ms(2000);
    assert.equal(pg.seed(), '18446744073709551615');
    assert.equal(pg.summary().seed, 18446744073709551615);
  }
  // Through serde-wasm-bindgen (to_js): the report's seed range.
  const spec = { scenario: { algorithm: 'bully', nodes: 4 }, seeds: '18446744073709551614..18446744073709551615' };
  const runner = new tools.ExperimentRunner(JSON.stringify(spec));
  const json = `[${runner.run(0)},${runner.run(1)}]`;
  const report = runner.report(json);
  assert.deepEqual(report, JSON.parse(runner.report_json(json)));
  assert.equal(typeof report.seeds.from, 'number');
});
