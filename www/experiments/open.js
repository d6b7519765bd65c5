// @ts-check
/**
 * Opens and closes the Experiments panel from its header button. The
 * panel's code, the workers, the wasm sweeps module (shared/panel-wasm.js,
 * loaded beside the code) and the chart library load only the first
 * time it opens (shared/lazy-panel.js).
 * @module experiments/open
 */

import { lazyPanel, pageReady } from '../shared/lazy-panel.js';
import { sweepsWasm } from '../shared/panel-wasm.js';

const button = /** @type {HTMLButtonElement | null} */ (document.getElementById('experiments-open'));
const section = document.getElementById('experiments');
if (button && section) {
  lazyPanel(
    button,
    section,
    // The panel shows as soon as its code is in; its wasm module loads
    // then (Run waits for it).
    (s, close) => pageReady().then(() => import('./panel.js').then((m) => m.createPanel(s, close, sweepsWasm()))),
    'the experiments',
  );
}
