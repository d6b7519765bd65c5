// @ts-check
/**
 * A Web Worker of the Experiments panel: starts the wasm module the page
 * compiled (posted to it first, shared/worker-wasm.js: nothing fetched), builds the experiment once, and runs the run indices it is handed,
 * sending back each run's record as the JSON text the core wrote. It
 * decides nothing: which runs, and in which order they are reported, is
 * the pool's business (pool.js); what a run is, the core's.
 *
 * Messages in:  {type: 'wasm', module: WebAssembly.Module, glue: 'sweeps' | 'lab'}   (first; shared/worker-wasm.js)
 *               {type: 'start', spec: string}
 *               {type: 'run', from: number, to: number}   (to excluded)
 * Messages out: {type: 'ready'}
 *               {type: 'records', from: number, records: string[]}
 *               {type: 'error', message: string}
 * @module experiments/worker
 */

import { workerWasm } from '../shared/worker-wasm.js';
import { messageOf } from '../shared/dom.js';

/** @type {import('../pkg/election_sweeps.js').ExperimentRunner | null} */
let runner = null;
const wasm = workerWasm();

self.onmessage = async (/** @type {MessageEvent} */ event) => {
  const msg = event.data;
  if (wasm.take(msg)) return;
  try {
    const { ExperimentRunner } = await wasm.ready();
    if (msg.type === 'start') {
      runner?.free();
      runner = new ExperimentRunner(msg.spec);
      self.postMessage({ type: 'ready' });
    } else if (msg.type === 'run') {
      if (!runner) throw new Error('run before start');
      /** @type {string[]} */
      const records = [];
      for (let i = msg.from; i < msg.to; i += 1) records.push(runner.run(i));
      self.postMessage({ type: 'records', from: msg.from, records });
    }
  } catch (e) {
    self.postMessage({ type: 'error', message: messageOf(e) });
  }
};
