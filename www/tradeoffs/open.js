// @ts-check
/**
 * Opens and closes the trade-offs panel from its header button, or at
 * once when the address has `tradeoffs=1`. The panel's code, its
 * workers and the wasm sweeps module (shared/panel-wasm.js, loaded beside
 * the code) load only the first time it opens (shared/lazy-panel.js).
 * @module tradeoffs/open
 */

import { lazyPanel, pageReady } from '../shared/lazy-panel.js';
import { sweepsWasm } from '../shared/panel-wasm.js';

const button = /** @type {HTMLButtonElement | null} */ (document.getElementById('tradeoffs-open'));
const section = document.getElementById('tradeoffs');
if (button && section) {
  const panel = lazyPanel(
    button,
    section,
    // The panel's code and its wasm module load together from the click
    // (the rows are measured once the module is in).
    (s, close) =>
      pageReady().then(() => {
        const sweeps = sweepsWasm();
        return import('./panel.js').then((m) => m.createPanel(s, close, sweeps));
      }),
    'the trade-offs',
  );
  if (new URLSearchParams(window.location.search).get('tradeoffs') === '1') panel.open();
}
