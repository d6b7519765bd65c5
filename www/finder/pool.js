// @ts-check
/**
 * The failure finder's module Web Workers: every run index of a search
 * goes out in small chunks to whichever worker is free, the failing
 * indices come back, and then one worker shrinks the lowest failing one
 * (as `election check` shrinks the lowest failing seed, so both find the
 * same counterexample however the workers are scheduled). Cancel ends
 * the workers at once (one still loading, once it has loaded:
 * experiments/pool.js `endWorkers`).
 * @module finder/pool
 */

import { Cancelled, endWorkers } from '../experiments/pool.js';
import { startWorker } from '../shared/panel-wasm.js';

export { Cancelled };

/**
 * @typedef {object} Progress
 * @property {number} done runs checked
 * @property {number} total runs in the search
 * @property {number} failures failing runs so far
 */

/**
 * @typedef {object} Outcome
 * @property {number} failures failing runs
 * @property {number | null} first the lowest failing run index
 */

export class FinderPool {
  /**
   * @param {number} size how many workers
   * @param {import('../shared/panel-wasm.js').Sweeps | null} wasm the
   *   compiled module handed to each worker (shared/panel-wasm.js
   *   `startWorker`); the panel sets it before a search (another for a
   *   scripted run's)
   */
  constructor(size, wasm) {
    this.size = Math.max(1, Math.floor(size));
    this.wasm = wasm;
    /** The workers that have said they are ready. @type {Set<Worker>} */
    this.loaded = new Set();
    /** @type {Worker[]} */
    this.workers = [];
    /** @type {(() => void) | null} */
    this.abort = null;
  }

  /**
   * Starts `count` workers on `request`; `onMessage` gets each message
   * but `ready` (which calls `onReady`).
   * @param {string} request
   * @param {number} count
   * @param {(w: Worker) => void} onReady
   * @param {(w: Worker, msg: any) => void} onMessage
   * @param {(e: Error) => void} fail
   */
  spawn(request, count, onReady, onMessage, fail) {
    for (let i = 0; i < count; i += 1) {
      if (!this.wasm) throw new Error('the finder\'s wasm module is not in');
      const w = startWorker(new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: `finder-${i}` }), this.wasm);
      w.onmessage = (event) => {
        const msg = event.data;
        if (msg.type === 'ready') {
          this.loaded.add(w);
          onReady(w);
        }
        else if (msg.type === 'error') fail(new Error(msg.message));
        else onMessage(w, msg);
      };
      w.onerror = (event) => {
        event.preventDefault();
        fail(new Error(`a worker failed: ${event.message || 'could not load the core'}`));
      };
      w.postMessage({ type: 'start', request });
      this.workers.push(w);
    }
  }

  /**
   * Runs `work` with the workers; settles when it calls `done`, or
   * rejects with `Cancelled` on cancel. The workers end either way.
   * @template T
   * @param {(done: (error: Error | null, value?: T) => void) => void} work
   * @returns {Promise<T>}
   */
  session(work) {
    this.cancel();
    return new Promise((resolve, reject) => {
      const done = (/** @type {Error | null} */ error, /** @type {any} */ value = undefined) => {
        if (this.abort === null) return;
        this.abort = null;
        endWorkers(this.workers, this.loaded);
        this.workers = [];
        this.loaded.clear();
        if (error) reject(error);
        else resolve(value);
      };
      this.abort = () => done(new Cancelled());
      work(done);
    });
  }

  /**
   * Checks every run of the search `request` (the core's finder request).
   * @param {string} request
   * @param {number} total number of runs (the core's `run_count`)
   * @param {(p: Progress) => void} onProgress called after each chunk
   * @returns {Promise<Outcome>}
   */
  search(request, total, onProgress) {
    return this.session((done) => {
      const count = Math.min(this.size, Math.max(1, total));
      const chunk = Math.max(1, Math.min(32, Math.ceil(total / (count * 16))));
      let next = 0;
      let checked = 0;
      let failures = 0;
      /** @type {number | null} */
      let first = null;
      /** @param {Worker} w */
      const feed = (w) => {
        if (next >= total) return;
        const from = next;
        next = Math.min(total, next + chunk);
        w.postMessage({ type: 'check', from, to: next });
      };
      this.spawn(request, count, feed, (w, msg) => {
        if (msg.type !== 'checked') return;
        for (const i of msg.failed) {
          failures += 1;
          if (first === null || i < first) first = i;
        }
        checked += msg.to - msg.from;
        onProgress({ done: checked, total, failures });
        if (checked >= total) done(null, { failures, first });
        else feed(w);
      }, (e) => done(e));
    });
  }

  /**
   * Shrinks the failure of run `index`: the counterexample JSON text.
   * @param {string} request
   * @param {number} index
   * @returns {Promise<string>}
   */
  shrink(request, index) {
    return this.session((done) => {
      this.spawn(
        request,
        1,
        (w) => w.postMessage({ type: 'shrink', index }),
        (_w, msg) => {
          if (msg.type === 'shrunk') done(null, msg.json);
        },
        (e) => done(e),
      );
    });
  }

  /** Stops a search or a shrink in progress (its promise rejects with `Cancelled`). */
  cancel() {
    this.abort?.();
  }

  /** Whether a search or a shrink is in progress. */
  get busy() {
    return this.abort !== null;
  }
}
