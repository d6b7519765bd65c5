// Static check (issue 15): the page's modules (www/**/*.js, the wasm glue
// in www/pkg and vendored files aside) import each other without a cycle.
// A cycle makes the order modules run in depend on which one is loaded
// first, and ties two views into one: spacetime.js and spacetime-live.js
// once imported each other. Edges are static imports and re-exports
// (`import ... from './x.js'`, `export ... from`, `import './x.js'`) and
// module workers (`new URL('./x.js', import.meta.url)`); JSDoc type
// imports (`import('./x.js').T`) are types only and are not followed.
// No browser needed.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { pageModules } from './page-modules.js';
import { REPO_ROOT } from '../browser/reference.js';

const WWW = join(REPO_ROOT, 'www');

/** Static imports and re-exports, at the start of a line. */
const STATIC = /^(?:import|export)\s+(?:[\w*{}\s,$]+?\s+from\s*)?['"]([^'"]+)['"]/gm;
/** A module worker's (or any module-relative) script. */
const WORKER = /new\s+URL\s*\(\s*['"]([^'"]+\.m?js)['"]\s*,\s*import\.meta\.url/g;

/**
 * The local modules a module's text refers to, resolved against its path
 * (bare and absolute-URL specifiers are not local and are left out).
 * @param {string} path
 * @param {string} text
 * @returns {string[]}
 */
export function referencesOf(path, text) {
  /** @type {string[]} */
  const out = [];
  for (const pattern of [STATIC, WORKER]) {
    for (const m of text.matchAll(pattern)) {
      if (m[1].startsWith('.')) out.push(resolve(dirname(path), m[1]));
    }
  }
  return out;
}

/**
 * The first cycle found in a graph, as the list of its nodes with the
 * first repeated at the end; null when there is none.
 * @param {Map<string, string[]>} graph node -> the nodes it refers to
 * @returns {string[] | null}
 */
export function findCycle(graph) {
  /** @type {Map<string, 'open' | 'done'>} */
  const state = new Map();
  /** @type {string[]} */
  const stack = [];
  /**
   * @param {string} node
   * @returns {string[] | null}
   */
  const visit = (node) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const s = state.get(next);
      if (s === 'open') return [...stack.slice(stack.indexOf(next)), next];
      if (s === undefined) {
        const found = visit(next);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of [...graph.keys()].sort()) {
    if (state.has(node)) continue;
    const found = visit(node);
    if (found) return found;
  }
  return null;
}

test('the page modules import each other without a cycle', () => {
  const modules = pageModules();
  assert.ok(modules.length >= 30, `page modules found: ${modules.length}`);
  /** @type {Map<string, string[]>} */
  const graph = new Map();
  /** @type {string[]} */
  const missing = [];
  for (const path of modules) {
    const refs = referencesOf(path, readFileSync(path, 'utf8'));
    for (const ref of refs) if (!existsSync(ref)) missing.push(`${relative(REPO_ROOT, path)} -> ${relative(REPO_ROOT, ref)}`);
    graph.set(path, refs);
  }
  assert.deepEqual(missing, [], 'every imported module exists');
  const cycle = findCycle(graph);
  assert.equal(
    cycle === null ? null : cycle.map((p) => relative(WWW, p)).join(' -> '),
    null,
    'a cycle of imports (move what both need into a module of its own)',
  );
});

test('the check finds imports, workers and cycles', () => {
  const text = [
    "import { a } from './a.js';",
    'import {',
    '  b,',
    "} from '../shared/b.js';",
    "import './side.js';",
    "export { c } from './c.js';",
    "import init, * as wasm from './pkg/w.js';",
    "const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });",
    "/** @param {import('./types.js').T} t */",
    "const s = 'import x from \"./not.js\"';",
  ].join('\n');
  const refs = referencesOf('/r/www/v/m.js', text).sort();
  assert.deepEqual(refs, [
    '/r/www/shared/b.js',
    '/r/www/v/a.js',
    '/r/www/v/c.js',
    '/r/www/v/pkg/w.js',
    '/r/www/v/side.js',
    '/r/www/v/worker.js',
  ]);
  const graph = new Map([
    ['a', ['b']],
    ['b', ['c', 'd']],
    ['c', []],
    ['d', ['b']],
  ]);
  assert.deepEqual(findCycle(graph), ['b', 'd', 'b']);
  graph.set('d', []);
  assert.equal(findCycle(graph), null);
});
