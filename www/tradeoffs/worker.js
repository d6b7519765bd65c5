// @ts-check
/**
 * A Web Worker of the trade-offs panel: loads the same wasm core as the
 * page and measures the rows it is handed (`tradeoffs_row`, the core's
 * `election_core::tradeoffs::measure_row`), sending each back as it is
 * done. It decides nothing: what a row is, the core's; in which order
 * they are shown, the panel's.
 *
 * Messages in:  {type: 'measure', spec: string, ids: string[]}
 * Messages out: {type: 'row', id: string, row: object}
 *               {type: 'error', message: string, field: string, detail: string}
 * @module tradeoffs/worker
 */

import init, { tradeoffs_row } from '../pkg/election_web.js';
import { coreErrorOf } from './errors.js';

const ready = init();

self.onmessage = async (/** @type {MessageEvent} */ event) => {
  const msg = event.data;
  try {
    await ready;
    if (msg.type !== 'measure') return;
    for (const id of msg.ids) {
      self.postMessage({ type: 'row', id, row: tradeoffs_row(msg.spec, id) });
    }
  } catch (e) {
    self.postMessage({ type: 'error', ...coreErrorOf(e) });
  }
};
