// @ts-check
/**
 * Opens and closes the Experiments panel from its header button. The
 * panel's code, the workers, the wasm sweeps module (shared/panel-wasm.js,
 * loaded beside the code) and the chart library load only the first
 * time it opens (shared/lazy-panel.js).
 * @module experiments/open
 */

import { lazyPanel, pageReady } from '../shared/lazy-panel.js';
import { isScripted, sweepsFor } from '../shared/panel-wasm.js';

const button = /** @type {HTMLButtonElement | null} */ (document.getElementById('experiments-open'));
const section = document.getElementById('experiments');
if (button && section) {
  lazyPanel(
    button,
    section,
    // The panel's code and its wasm module load together from the click
    // (Run waits for the module): the sweeps module, or for a scripted
    // run the lab's, which the lab has loaded already.
    (s, close) =>
      pageReady().then(() => {
        const sweeps = sweepsFor(isScripted());
        return import('./panel.js').then((m) => m.createPanel(s, close, sweeps));
      }),
    'the experiments',
  );
}
