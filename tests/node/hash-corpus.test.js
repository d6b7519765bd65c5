// @ts-check
// Native = wasm over a corpus: every scenario in scenarios/corpus/ (at
// least 50, every algorithm, with faults and network noise; written by
// scripts/build/gen-corpus.py) is run by the native CLI (`election run --json`)
// and by the wasm build (www/pkg loaded in Node, `run_summary`), and the
// two summaries must be identical, trace hash first. A mismatch names the
// scenario file. Needs no browser: the wasm runs in Node's V8.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { loadWasm } from '../../scripts/build/wasm-node.mjs';
import { cliRun, REPO_ROOT } from '../browser/reference.js';

const CORPUS = join(REPO_ROOT, 'scenarios', 'corpus');
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
});

test('native and wasm give identical summaries and trace hashes for every corpus scenario', () => {
  const mismatches = [];
  for (const f of files) {
    const file = join(CORPUS, f);
    const native = cliRun(['--scenario', file]);
    const wasm = pkg.run_summary(readFileSync(file, 'utf8'));
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
