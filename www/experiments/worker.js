// @ts-check
/**
 * A Web Worker of the Experiments panel: loads the same wasm core as the
 * page, builds the experiment once, and runs the run indices it is handed,
 * sending back each run's record as the JSON text the core wrote. It
 * decides nothing: which runs, and in which order they are reported, is
 * the pool's business (pool.js); what a run is, the core's.
 *
 * Messages in:  {type: 'start', spec: string}
 *               {type: 'run', from: number, to: number}   (to excluded)
 * Messages out: {type: 'ready'}
 *               {type: 'records', from: number, records: string[]}
 *               {type: 'error', message: string}
 * @module experiments/worker
 */

import init, { ExperimentRunner } from '../pkg/election_web.js';
import { messageOf } from '../shared/dom.js';

/** @type {ExperimentRunner | null} */
let runner = null;
const ready = init();

self.onmessage = async (/** @type {MessageEvent} */ event) => {
  const msg = event.data;
  try {
    await ready;
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
