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
    // The table shows as soon as the panel's code is in; its wasm module
    // loads then (the rows are measured once it is in).
    (s, close) => pageReady().then(() => import('./panel.js').then((m) => m.createPanel(s, close, sweepsWasm()))),
    'the trade-offs',
  );
  if (new URLSearchParams(window.location.search).get('tradeoffs') === '1') panel.open();
}
