// @ts-check
// Lessons across the wasm boundary (web/src/lessons.rs; the format:
// docs/lessons.md): in the tools module and in every module with a player, a
// lesson file round-trips through lesson_link and lesson_from_link to the
// lesson lesson_check gives; lesson_scenario adds the steps' faults;
// lesson_from_run moves a scenario's faults into steps; and a bad lesson
// or a damaged link throws an Error whose `field` names what is wrong.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { loadWasm, ROOT } from '../../scripts/build/wasm-node.mjs';

const PKG = join(ROOT, 'www', 'pkg');
const LESSON = readFileSync(join(ROOT, 'lessons', 'bully-partition.json'), 'utf8');

/** @type {Map<string, any>} module name -> the started module */
const modules = new Map();
before(async () => {
  const table = await import(pathToFileURL(join(PKG, 'modules.js')).href);
  // Every module with a player (web/Cargo.toml `player`): all but the
  // sweeps module, which runs headless.
  for (const name of Object.keys(table.RUNS)) {
    if (name !== table.PANELS.sweeps) modules.set(name, (await loadWasm(PKG, name)).pkg);
  }
});

/**
 * The `field` of the Error `fn` throws.
 * @param {() => unknown} fn
 * @returns {string}
 */
function fieldOf(fn) {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof Error, `${e} is an Error`);
    return /** @type {any} */ (e).field;
  }
  assert.fail('did not throw');
}

test('a lesson round-trips through its #l= link in every module', () => {
  assert.ok(modules.size >= 2, `modules: ${[...modules.keys()]}`);
  for (const [name, wasm] of modules) {
    const checked = wasm.lesson_check(LESSON);
    const lesson = JSON.parse(checked);
    assert.equal(lesson.lesson, 1, name);
    assert.equal(lesson.title, 'Bully under a partition: split brain', name);
    assert.deepEqual(lesson.steps[1].fault, { partition: [[0, 1, 2]] }, name);
    const link = wasm.lesson_link(LESSON);
    assert.match(link, /^#l=1\.[A-Za-z0-9_-]+$/, name);
    assert.equal(wasm.lesson_from_link(link), checked, `${name}: the fragment`);
    assert.equal(wasm.lesson_from_link(`https://example.org/play/?predict=1${link}`), checked, `${name}: a whole address`);
    assert.equal(wasm.lesson_link(checked), link, `${name}: the canonical form has the same link`);
  }
});

test('lesson_scenario runs the steps faults; lesson_from_run makes steps of a run faults', () => {
  const wasm = modules.get('election_web');
  const scenario = JSON.parse(wasm.lesson_scenario(LESSON));
  assert.deepEqual(
    scenario.faults,
    [{ at_ms: 500, partition: [[0, 1, 2]] }, { at_ms: 2500, heal: true }],
  );
  const made = JSON.parse(wasm.lesson_from_run(JSON.stringify(scenario)));
  assert.deepEqual(made.steps.map((/** @type {{at_ms: number}} */ s) => s.at_ms), [0, 500, 2500]);
  assert.ok(made.steps.every((/** @type {{text: string}} */ s) => s.text === ''));
  assert.deepEqual(made.scenario.faults, []);
  // The made lesson runs exactly the scenario it came from.
  assert.equal(wasm.lesson_scenario(JSON.stringify(made)), wasm.lesson_scenario(LESSON));
});

test('a bad lesson or link throws an Error naming the field', () => {
  for (const [, wasm] of modules) {
    const bad = JSON.parse(LESSON);
    bad.steps[2].question = { kind: 'who-wins' };
    assert.equal(fieldOf(() => wasm.lesson_check(JSON.stringify(bad))), 'steps[2].question.kind');
    bad.steps[2].question = { kind: 'leader' };
    bad.scenario.nodes = 0;
    assert.equal(fieldOf(() => wasm.lesson_link(JSON.stringify(bad))), 'scenario.nodes');
    assert.equal(fieldOf(() => wasm.lesson_from_link('#l=1.AAAA')), 'l');
    assert.equal(fieldOf(() => wasm.lesson_from_link('#s=1.abc')), 'l');
    assert.equal(fieldOf(() => wasm.lesson_from_run('{"nodes": -1}')), 'nodes');
  }
});
