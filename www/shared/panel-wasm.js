// @ts-check
/**
 * The panels' wasm modules (web/Cargo.toml features; scripts/build/build-wasm.sh),
 * each loaded and started the first time something asks for it, so a panel
 * downloads only its part (issue 30: every panel used to pay for the whole
 * tools module, 850 KB gzip):
 *
 * | module | what | for |
 * |---|---|---|
 * | `www/pkg/election_compare.js` | compare mode (`compare_ids`, `for_algorithm`, `compare_figures`), the exports; every family | compare mode and its embed (stage/compare-picker.js, embed/compare-embed.js), trace, summary and CSV exports (panels/export.js) |
 * | `www/pkg/election_sweeps.js` | experiments, the failure finder, the trade-off table; every family | their panels and their Web Workers |
 * | `www/pkg/election_lab.js` | scripted algorithms (Rhai): templates, checks, runs, and the sweeps' and the exports' functions; no built-in family | the lab (lab/panel.js); a script's run (shared/player-wasm.js, `ALGORITHM_MODULE.script`); a scripted run's experiments, failure search and exports, and their workers |
 *
 * The first render loads none of them (shared/player-wasm.js, What the
 * first render loads). A module's workers get the page's compiled
 * `WebAssembly.Module` (posted to them first, `startWorker`), so one
 * download and one compilation serve the page and every worker. The
 * modules share nothing at run time with the player modules: a run
 * crosses as its scenario JSON. A failed load is tried again next time.
 *
 * A script (the lab's) runs only where Rhai is: an experiment, a failure
 * search or an export of a scripted run are made in the lab's module,
 * which the lab has loaded already (`sweepsFor`, `exportsFor`); compare
 * mode of a scripted run, which puts built-in algorithms beside it, in
 * the tools module (`www/pkg/election_web.js`, every panel's functions
 * and scripts), loaded then (`compareFor`).
 * @module shared/panel-wasm
 */

import { pageScenarioJson } from './page-scenario.js';

/** @typedef {typeof import('../pkg/election_compare.js')} CompareWasm */
/** @typedef {typeof import('../pkg/election_sweeps.js')} SweepsWasm */
/** @typedef {typeof import('../pkg/election_lab.js')} LabWasm */

/**
 * A load that is tried again when it failed (the network gone).
 * @template T
 * @param {() => Promise<T>} load
 * @returns {() => Promise<T>}
 */
function once(load) {
  /** @type {Promise<T> | null} */
  let loading = null;
  return () => {
    loading ??= load();
    loading.catch(() => {
      loading = null;
    });
    return loading;
  };
}

/**
 * The compiled wasm at `url`, streamed as it downloads where the server
 * names its type, else from its bytes. At low priority. The experiments,
 * the finder and the trade-offs ask for theirs with their code, at the
 * click: on 5 Mbps their panel shows 0.02 s later and a first Run 0.06 to
 * 0.08 s sooner (bench-panels.js, docs/PERFORMANCE.md, Panels); the lab
 * asks once its code is in, so its editor shows before the 600 KB.
 * @param {URL} url
 * @returns {Promise<WebAssembly.Module>}
 */
async function compile(url) {
  const response = await fetch(url, /** @type {RequestInit} */ ({ priority: 'low' }));
  if (!response.ok) throw new Error(`${url.pathname}: ${response.status} ${response.statusText}`);
  if (response.headers.get('Content-Type')?.startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

/**
 * A panel's module, started, with its compiled module for the panels'
 * workers and which glue they start it with (`startWorker`).
 * @typedef {{wasm: SweepsWasm, module: WebAssembly.Module | null, glue: 'sweeps' | 'lab'}} Sweeps
 */

/**
 * Whether a module's glue has started its wasm already: shared/player-wasm.js
 * starts the compare module for a compare link and the lab's for a
 * script's run; on a standalone page every module import is its one
 * inline module, started from the page's bytes. Then nothing is fetched.
 * @param {{runnable_algorithms: () => string[]}} glue
 * @returns {boolean}
 */
function started(glue) {
  try {
    glue.runnable_algorithms();
    return true;
  } catch {
    return false;
  }
}

/** Compare mode's and the exports' module, started. @type {() => Promise<CompareWasm>} */
export const compareWasm = once(async () => {
  const wasm = await import('../pkg/election_compare.js');
  if (started(wasm)) return wasm;
  await wasm.default({ module_or_path: await compile(new URL('../pkg/election_compare_bg.wasm', import.meta.url)) });
  return wasm;
});

/**
 * The sweeps' module (experiments, the failure finder, the trade-offs),
 * started, and its compiled module for the panels' workers.
 * @type {() => Promise<Sweeps>}
 */
export const sweepsWasm = once(async () => {
  const [wasm, module] = await Promise.all([
    import('../pkg/election_sweeps.js'),
    compile(new URL('../pkg/election_sweeps_bg.wasm', import.meta.url)),
  ]);
  await wasm.default({ module_or_path: module });
  return { wasm, module, glue: /** @type {const} */ ('sweeps') };
});

/**
 * The tools module (every panel's functions and scripts), started: for
 * compare mode of a scripted run.
 * @type {() => Promise<typeof import('../pkg/election_web.js')>}
 */
const toolsWasm = once(async () => {
  const wasm = await import('../pkg/election_web.js');
  // (Started already on a standalone page.)
  if (!started(wasm)) await wasm.default({ module_or_path: await compile(new URL('../pkg/election_web_bg.wasm', import.meta.url)) });
  return wasm;
});

/**
 * Whether a scenario (JSON text; by default the page's, clicked faults
 * included) is a script's.
 * @param {string | null} [scenarioJson]
 * @returns {boolean}
 */
export function isScripted(scenarioJson = pageScenarioJson()) {
  if (!scenarioJson) return false;
  try {
    return JSON.parse(scenarioJson).algorithm === 'script';
  } catch {
    return false;
  }
}

/**
 * The module for compare mode: the compare module, or for a scripted run
 * the tools module (a script beside the built-in algorithms).
 * @param {boolean} scripted
 * @returns {Promise<CompareWasm>}
 */
export async function compareFor(scripted) {
  return scripted ? toolsWasm() : compareWasm();
}

/**
 * The module for an export: the compare module, or for a scripted run
 * the lab's.
 * @param {boolean} scripted
 * @returns {Promise<CompareWasm | LabWasm>}
 */
export function exportsFor(scripted) {
  return scripted ? labWasm() : compareWasm();
}

/**
 * The module for an experiment or a failure search: the sweeps module, or
 * for a scripted run the lab's.
 * @param {boolean} scripted
 * @returns {Promise<Sweeps>}
 */
export function sweepsFor(scripted) {
  return scripted ? labSweeps() : sweepsWasm();
}

/** The lab's module, compiled. */
const compileLab = () => compile(new URL('../pkg/election_lab_bg.wasm', import.meta.url));

/** The lab's module, started, and the compiled module it was started with (null: started elsewhere). */
const labParts = once(async () => {
  const wasm = await import('../pkg/election_lab.js');
  if (started(wasm)) return { wasm, module: /** @type {WebAssembly.Module | null} */ (null) };
  const module = await compileLab();
  await wasm.default({ module_or_path: module });
  return { wasm, module };
});

/** The lab's module (scripts), started. @type {() => Promise<LabWasm>} */
export const labWasm = once(async () => (await labParts()).wasm);

/**
 * The lab's module as the sweeps' for a scripted run, with a compiled
 * module for the panels' workers: the one the lab started it with, or,
 * when shared/player-wasm.js started it (a script's link), compiled from
 * the same file again (from the HTTP cache).
 * @type {() => Promise<Sweeps>}
 */
const labSweeps = once(async () => {
  const parts = await labParts();
  const module = parts.module ?? (await compileLab());
  return { wasm: parts.wasm, module, glue: /** @type {const} */ ('lab') };
});

/**
 * Hands a panel's Web Worker the page's compiled module: its first
 * message (the worker starts its copy of that module's glue with it,
 * fetching nothing; experiments/worker.js, finder/worker.js,
 * tradeoffs/worker.js, with shared/worker-wasm.js).
 * @param {Worker} worker
 * @param {Sweeps} sweeps
 * @returns {Worker}
 */
export function startWorker(worker, sweeps) {
  if (!sweeps.module) throw new Error('this page has no wasm module for workers');
  worker.postMessage({ type: 'wasm', module: sweeps.module, glue: sweeps.glue });
  return worker;
}

