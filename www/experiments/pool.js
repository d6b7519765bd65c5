// @ts-check
/**
 * A pool of module Web Workers (one per core by default) that runs the
 * runs of one experiment. Work goes out in small chunks of run indices to
 * whichever worker is free; each record is stored at its run index, so
 * the result is the same, in the same order, however the workers are
 * scheduled. Cancel ends the workers at once (one still loading, once it
 * has loaded: `endWorkers`).
 * @module experiments/pool
 */

import { startWorker } from '../shared/panel-wasm.js';

/**
 * Ends a pool's workers: at once those that have said they are ready; one
 * still loading its script once it has (ending it then would abort the
 * request, which reads as a failed load).
 * @param {Worker[]} workers
 * @param {Set<Worker>} loaded those that have said they are ready
 */
export function endWorkers(workers, loaded) {
  for (const w of workers) {
    if (loaded.has(w)) {
      w.terminate();
      continue;
    }
    w.onmessage = () => w.terminate();
    w.onerror = () => w.terminate();
  }
}

/** Thrown (as the rejection) when a sweep is cancelled. */
export class Cancelled extends Error {
  constructor() {
    super('cancelled');
    this.name = 'Cancelled';
  }
}

/**
 * @typedef {object} Progress
 * @property {number} done runs finished
 * @property {number} total runs in the experiment
 */

export class WorkerPool {
  /**
   * @param {number} size how many workers
   * @param {import('../shared/panel-wasm.js').Sweeps | null} wasm the
   *   compiled module handed to each worker (shared/panel-wasm.js
   *   `startWorker`); the panel sets it before a run (another for a
   *   scripted run's experiment)
   */
  constructor(size, wasm) {
    this.size = Math.max(1, Math.floor(size));
    this.wasm = wasm;
    /** @type {Worker[]} */
    this.workers = [];
    /** @type {(() => void) | null} */
    this.abort = null;
  }

  /**
   * Runs every run of the experiment `spec` (the core's experiment JSON).
   * @param {string} spec
   * @param {number} total number of runs (the core's `run_count`)
   * @param {(p: Progress) => void} onProgress called after each chunk
   * @returns {Promise<string[]>} the record JSON texts, in run order
   */
  run(spec, total, onProgress) {
    this.cancel();
    const count = Math.min(this.size, Math.max(1, total));
    // Small chunks keep every worker busy to the end and the progress bar
    // moving; large enough that messaging costs little.
    const chunk = Math.max(1, Math.min(64, Math.ceil(total / (count * 16))));
    /** @type {string[]} */
    const records = new Array(total);
    let next = 0;
    let done = 0;
    return new Promise((resolve, reject) => {
      /** The workers that have said they are ready. @type {Set<Worker>} */
      const loaded = new Set();
      const finish = (/** @type {Error | null} */ error) => {
        this.abort = null;
        endWorkers(this.workers, loaded);
        this.workers = [];
        if (error) reject(error);
        else resolve(records);
      };
      this.abort = () => finish(new Cancelled());
      /** @param {Worker} w */
      const feed = (w) => {
        if (next >= total) return;
        const from = next;
        next = Math.min(total, next + chunk);
        w.postMessage({ type: 'run', from, to: next });
      };
      for (let i = 0; i < count; i += 1) {
        if (!this.wasm) throw new Error('the experiments\' wasm module is not in');
        const w = startWorker(new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: `experiment-${i}` }), this.wasm);
        w.onmessage = (event) => {
          const msg = event.data;
          if (msg.type === 'ready') {
            loaded.add(w);
            feed(w);
          } else if (msg.type === 'records') {
            msg.records.forEach((/** @type {string} */ r, /** @type {number} */ k) => {
              records[msg.from + k] = r;
            });
            done += msg.records.length;
            onProgress({ done, total });
            if (done >= total) finish(null);
            else feed(w);
          } else if (msg.type === 'error') {
            finish(new Error(msg.message));
          }
        };
        w.onerror = (event) => {
          event.preventDefault();
          finish(new Error(`a worker failed: ${event.message || 'could not load the core'}`));
        };
        w.postMessage({ type: 'start', spec });
        this.workers.push(w);
      }
      if (total === 0) finish(null);
    });
  }

  /** Stops a sweep in progress (its promise rejects with `Cancelled`). */
  cancel() {
    this.abort?.();
  }

  /** Whether a sweep is in progress. */
  get busy() {
    return this.abort !== null;
  }
}
