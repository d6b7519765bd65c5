// @ts-check
/**
 * A Web Worker of the trade-offs panel: starts the wasm module the page
 * compiled (posted to it first, shared/worker-wasm.js: nothing fetched) and measures the rows it is handed (`tradeoffs_row`, the core's
 * `election_core::tradeoffs::measure_row`), sending each back as it is
 * done. It decides nothing: what a row is, the core's; in which order
 * they are shown, the panel's.
 *
 * Messages in:  {type: 'wasm', module: WebAssembly.Module, glue: 'sweeps' | 'lab'}   (first; shared/worker-wasm.js)
 *               {type: 'measure', spec: string, ids: string[]}
 * Messages out: {type: 'row', id: string, row: object}
 *               {type: 'error', message: string, field: string, detail: string}
 * @module tradeoffs/worker
 */

import { workerWasm } from '../shared/worker-wasm.js';
import { coreErrorOf } from './errors.js';

const wasm = workerWasm();

self.onmessage = async (/** @type {MessageEvent} */ event) => {
  const msg = event.data;
  if (wasm.take(msg)) return;
  try {
    const { tradeoffs_row } = await wasm.ready();
    if (msg.type !== 'measure') return;
    for (const id of msg.ids) {
      self.postMessage({ type: 'row', id, row: tradeoffs_row(msg.spec, id) });
    }
  } catch (e) {
    self.postMessage({ type: 'error', ...coreErrorOf(e) });
  }
};
