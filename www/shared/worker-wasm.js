// @ts-check
/**
 * In a panel's Web Worker (experiments/worker.js, finder/worker.js,
 * tradeoffs/worker.js): its wasm, started from the compiled module the
 * page posts as the worker's first message (shared/panel-wasm.js
 * `startWorker`), with the glue of that module: the sweeps module's, or
 * for a scripted run the lab module's (built with the sweeps' functions).
 * Nothing is fetched here.
 * @module shared/worker-wasm
 */

/** @typedef {typeof import('../pkg/election_sweeps.js')} SweepsWasm */

/**
 * The worker's wasm once started: give it every message; the first
 * (`{type: 'wasm', module, glue}`) starts it and is used up (true).
 * @returns {{take: (msg: any) => boolean, ready: () => Promise<SweepsWasm>}}
 */
export function workerWasm() {
  /** @type {Promise<SweepsWasm> | null} */
  let started = null;
  return {
    take(msg) {
      if (msg?.type !== 'wasm') return false;
      started = (async () => {
        const glue = msg.glue === 'lab' ? await import('../pkg/election_lab.js') : await import('../pkg/election_sweeps.js');
        await glue.default({ module_or_path: msg.module });
        return /** @type {SweepsWasm} */ (glue);
      })();
      return true;
    },
    ready() {
      if (!started) return Promise.reject(new Error('a panel worker was sent work before its wasm module'));
      return started;
    },
  };
}
