// @ts-check
// Native = wasm over a corpus: every scenario in scenarios/corpus/ (at
// least 50, every algorithm, with faults and network noise; written by
// scripts/build/gen-corpus.py) is run by the native CLI (`election run --json`)
// and by the wasm build (www/pkg loaded in Node, `run_summary`), and the
// two summaries must be identical, trace hash first. A mismatch names the
// scenario file. Needs no browser: the wasm runs in Node's V8. Scripted
// scenarios (`"algorithm": "script"`) are in it too; one stops with a
// script error, which the CLI reports with exit code 2 after printing the
// summary (its `script_error` must match as well). The captions `run
// --json` prints must equal the wasm's (`Playground.story_json()`).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { loadWasm } from '../../scripts/build/wasm-node.mjs';
import { cliRun, REPO_ROOT } from '../browser/reference.js';

const CORPUS = join(REPO_ROOT, 'scenarios', 'corpus');

/**
 * `election run --scenario FILE --json`, also when a script error stops
 * the run (exit code 2, the summary still printed).
 * @param {string} file
 * @returns {any}
 */
function nativeRun(file) {
  try {
    return cliRun(['--scenario', file]);
  } catch (e) {
    const err = /** @type {{status?: number, stdout?: string}} */ (e);
    if (err.status === 2 && err.stdout) {
      const summary = JSON.parse(err.stdout);
      if (summary.script_error) return summary;
    }
    throw e;
  }
}
const files = readdirSync(CORPUS).filter((f) => f.endsWith('.json')).sort();

/** @type {any} */
let pkg;
before(async () => {
  ({ pkg } = await loadWasm());
});

test('the corpus has at least 50 scenarios and covers every algorithm', () => {
  assert.ok(files.length >= 50, `only ${files.length} scenarios in scenarios/corpus/`);
  const covered = new Set(files.map((f) => JSON.parse(readFileSync(join(CORPUS, f), 'utf8')).algorithm));
  const ids = pkg.algorithms().map((/** @type {{id: string}} */ a) => a.id);
  const missing = ids.filter((/** @type {string} */ id) => !covered.has(id));
  assert.deepEqual(missing, [], `algorithms without a corpus scenario: ${missing.join(', ')}`);
  const withFaults = files.filter((f) => (JSON.parse(readFileSync(join(CORPUS, f), 'utf8')).faults ?? []).length > 0);
  assert.ok(withFaults.length >= 40, `only ${withFaults.length} corpus scenarios have faults`);
  const scripted = files.filter((f) => JSON.parse(readFileSync(join(CORPUS, f), 'utf8')).algorithm === 'script');
  assert.ok(scripted.length >= 10, `only ${scripted.length} scripted corpus scenarios`);
});

test('native and wasm give identical summaries and trace hashes for every corpus scenario', () => {
  const mismatches = [];
  for (const f of files) {
    const file = join(CORPUS, f);
    // `run --json` carries the captions beside the summary: the wasm's
    // story of the same scenario must have the same ones.
    const { captions, ...native } = nativeRun(file);
    const text = readFileSync(file, 'utf8');
    const wasm = pkg.run_summary(text);
    const playground = new pkg.Playground(text);
    const told = JSON.parse(playground.story_json()).captions;
    playground.free();
    try {
      assert.deepStrictEqual(told, captions);
    } catch (e) {
      mismatches.push(`scenarios/corpus/${f}: the captions differ: ${String(e).slice(0, 400)}`);
    }
    if (native.trace_hash !== wasm.trace_hash) {
      mismatches.push(`scenarios/corpus/${f}: trace hash native ${native.trace_hash}, wasm ${wasm.trace_hash}`);
      continue;
    }
    try {
      assert.deepStrictEqual(wasm, native);
    } catch (e) {
      mismatches.push(`scenarios/corpus/${f}: same trace hash but the summaries differ: ${String(e).slice(0, 400)}`);
    }
  }
  assert.deepEqual(mismatches, [], `native != wasm:\n${mismatches.join('\n')}`);
});
