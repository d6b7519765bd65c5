// @ts-check
/**
 * Loads the failure finder (panel.js, its workers, the wasm sweeps
 * module, shared/panel-wasm.js) the first time its section in the Faults
 * panel is opened, so the page pays nothing for it until then.
 * @module finder/open
 */

import { pageReady } from '../shared/lazy-panel.js';
import { isScripted, sweepsFor } from '../shared/panel-wasm.js';

const details = /** @type {HTMLDetailsElement | null} */ (document.getElementById('finder'));

if (details) {
  /** @type {Promise<void> | null} */
  let loaded = null;
  details.addEventListener('toggle', () => {
    if (!details.open || loaded) return;
    // The form's code and the wasm sweeps module load together from the
    // click (a search waits for the module); for a scripted run, the
    // lab's module, which the lab has loaded already.
    loaded = pageReady()
      .then(() => {
        sweepsFor(isScripted()).catch(() => {});
        return import('./panel.js');
      })
      .then((m) => {
        m.createFinder();
        details.dataset.loaded = 'true';
      })
      .catch((e) => {
        loaded = null;
        const status = document.getElementById('finder-status');
        if (status) status.textContent = `The finder could not load: ${e instanceof Error ? e.message : String(e)}`;
      });
  });
}
