// @ts-check
// The wasm player modules, one per algorithm family (scripts/build/build-wasm.sh;
// web/src/lib.rs, module docs): each lists every algorithm but
// runs only its family's, as the table it wrote says (www/pkg/modules.js);
// a scenario of another family (or a script) gives an Error on field
// `algorithm` whose `needs` names the algorithm, so the page can load the
// module that runs it; and a player module's run of every corpus scenario
// of its family is the tools module's run (same trace hash), which the hash
// corpus test checks against the native CLI. The panels' modules (compare,
// sweeps, lab; www/shared/panel-wasm.js) run what the table says too.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { loadWasm, ROOT } from '../../scripts/build/wasm-node.mjs';

const PKG = join(ROOT, 'www', 'pkg');
const CORPUS = join(ROOT, 'scenarios', 'corpus');

/** @type {{TOOLS: string, PANELS: Record<string, string>, ALGORITHM_MODULE: Record<string, string>, RUNS: Record<string, string[]>}} */
let table;
/** @type {Map<string, any>} module name -> the started module */
const modules = new Map();
before(async () => {
  table = await import(pathToFileURL(join(PKG, 'modules.js')).href);
  for (const name of Object.keys(table.RUNS)) modules.set(name, (await loadWasm(PKG, name)).pkg);
});

/** The player modules: neither the tools module nor a panel's (compare, sweeps, lab). */
const isPlayer = (/** @type {string} */ name) => name !== table.TOOLS && !Object.values(table.PANELS).includes(name);

test('every module lists every algorithm and runs what the table says; each algorithm is in one player module', () => {
  const tools = modules.get(table.TOOLS);
  const all = tools.algorithms().map((/** @type {{id: string}} */ a) => a.id);
  const players = [...modules.keys()].filter(isPlayer);
  assert.ok(players.length >= 2, `player modules: ${players}`);
  for (const [name, wasm] of modules) {
    assert.deepEqual(wasm.algorithms().map((/** @type {{id: string}} */ a) => a.id), all, `${name} lists every algorithm`);
    assert.deepEqual(wasm.runnable_algorithms(), table.RUNS[name], `${name} runs what modules.js says`);
  }
  assert.deepEqual(table.RUNS[table.TOOLS], [...all, 'script']);
  assert.deepEqual(players.flatMap((n) => table.RUNS[n]).sort(), [...all].sort());
  // The panels' modules (web/Cargo.toml): compare and the sweeps run every
  // algorithm, the lab's scripts only, and a script runs there.
  assert.deepEqual(table.RUNS[table.PANELS.compare], all);
  assert.deepEqual(table.RUNS[table.PANELS.sweeps], all);
  assert.deepEqual(table.RUNS[table.PANELS.lab], ['script']);
  assert.equal(table.ALGORITHM_MODULE.script, table.PANELS.lab);
});

test('a scenario a player module does not run is an Error naming the algorithm it needs', () => {
  for (const [name, wasm] of modules) {
    if (!isPlayer(name)) continue;
    const other = Object.keys(table.ALGORITHM_MODULE).find((id) => id !== 'script' && table.ALGORITHM_MODULE[id] !== name);
    assert.ok(other);
    assert.throws(
      () => wasm.Playground.from_url(`?algorithm=${other}&nodes=5`, ''),
      (/** @type {any} */ e) => {
        assert.equal(e.field, 'algorithm');
        assert.equal(e.needs, other);
        assert.match(e.message, new RegExp(`"${other}" is not in this build`));
        return true;
      },
      `${name} refuses ${other}`,
    );
    // The settings of a run may name another family: the scenario is made
    // here, the run where it runs.
    const own = table.RUNS[name][0];
    const pg = wasm.Playground.from_url(`?algorithm=${own}&nodes=5`, '');
    const text = pg.settings_json(`algorithm=${other}&nodes=6`);
    pg.free();
    const there = modules.get(table.ALGORITHM_MODULE[other]).Playground;
    const moved = new there(text);
    assert.equal(moved.algorithm(), other);
    assert.equal(JSON.parse(moved.scenario_json()).nodes, 6);
    moved.free();
    const script = JSON.parse(readFileSync(join(CORPUS, 'script-bully-clean.json'), 'utf8'));
    assert.throws(
      () => new wasm.Playground(JSON.stringify(script)),
      (/** @type {any} */ e) => e.field === 'algorithm' && e.needs === 'script',
      `${name} refuses a script`,
    );
  }
});

test('the lab\'s module refuses a built-in algorithm, and the compare and sweeps modules a script, naming the module they need', () => {
  const lab = modules.get(table.PANELS.lab);
  assert.throws(
    () => lab.Playground.from_url('?algorithm=bully&nodes=5', ''),
    (/** @type {any} */ e) => e.field === 'algorithm' && e.needs === 'bully',
  );
  const script = readFileSync(join(CORPUS, 'script-bully-clean.json'), 'utf8');
  assert.throws(
    () => new (modules.get(table.PANELS.compare).Playground)(script),
    (/** @type {any} */ e) => e.field === 'algorithm' && e.needs === 'script',
    `${table.PANELS.compare} refuses a script`,
  );
  // The sweeps module has no Playground (web/Cargo.toml `player`): its runs are headless.
  const sweeps = modules.get(table.PANELS.sweeps);
  assert.equal(sweeps.Playground, undefined);
  assert.throws(
    () => sweeps.run_summary(script),
    (/** @type {any} */ e) => e.field === 'algorithm' && e.needs === 'script',
    `${table.PANELS.sweeps} refuses a script`,
  );
  assert.equal(
    sweeps.address_scenario_json('?preset=raft-split-votes', ''),
    modules.get(table.TOOLS).Playground.from_preset_url('?preset=raft-split-votes', '').scenario_json(),
  );
  const run = new lab.Playground(script);
  assert.equal(run.algorithm(), 'script');
  run.free();
});

test("a player module's run of each corpus scenario of its family is the tools module's run", () => {
  const tools = modules.get(table.TOOLS);
  let checked = 0;
  for (const file of readdirSync(CORPUS).filter((f) => f.endsWith('.json')).sort()) {
    const text = readFileSync(join(CORPUS, file), 'utf8');
    const name = table.ALGORITHM_MODULE[JSON.parse(text).algorithm];
    if (name === table.TOOLS) continue;
    const hash = (/** @type {any} */ wasm) => {
      const pg = new wasm.Playground(text);
      pg.run_to_end();
      const h = pg.trace_hash();
      pg.free();
      return h;
    };
    assert.equal(hash(modules.get(name)), hash(tools), `${file} in ${name}`);
    checked += 1;
  }
  assert.ok(checked >= 30, `${checked} scenarios checked`);
});
