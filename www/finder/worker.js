// @ts-check
/**
 * A Web Worker of the failure finder: starts the wasm module the page
 * compiled (posted to it first, shared/worker-wasm.js: nothing fetched), builds the search once (`FailureFinder`), checks the run indices
 * it is handed and shrinks a failure when asked. It decides nothing:
 * which runs, and which failure is shrunk, is the pool's business
 * (pool.js); what a schedule, a failure and shrinking are, the core's.
 *
 * Messages in:  {type: 'wasm', module: WebAssembly.Module, glue: 'sweeps' | 'lab'}   (first; shared/worker-wasm.js)
 *               {type: 'start', request: string}
 *               {type: 'check', from: number, to: number}   (to excluded)
 *               {type: 'shrink', index: number}
 * Messages out: {type: 'ready'}
 *               {type: 'checked', from: number, to: number, failed: number[]}
 *               {type: 'shrunk', json: string}
 *               {type: 'error', message: string}
 * @module finder/worker
 */

import { workerWasm } from '../shared/worker-wasm.js';
import { messageOf } from '../shared/dom.js';

/** @type {import('../pkg/election_sweeps.js').FailureFinder | null} */
let finder = null;
const wasm = workerWasm();

self.onmessage = async (/** @type {MessageEvent} */ event) => {
  const msg = event.data;
  if (wasm.take(msg)) return;
  try {
    const { FailureFinder } = await wasm.ready();
    if (msg.type === 'start') {
      finder?.free();
      finder = new FailureFinder(msg.request);
      self.postMessage({ type: 'ready' });
    } else if (msg.type === 'check') {
      if (!finder) throw new Error('check before start');
      /** @type {number[]} */
      const failed = [];
      for (let i = msg.from; i < msg.to; i += 1) if (finder.check(i) !== '') failed.push(i);
      self.postMessage({ type: 'checked', from: msg.from, to: msg.to, failed });
    } else if (msg.type === 'shrink') {
      if (!finder) throw new Error('shrink before start');
      self.postMessage({ type: 'shrunk', json: finder.shrink(msg.index) });
    }
  } catch (e) {
    self.postMessage({ type: 'error', message: messageOf(e) });
  }
};
