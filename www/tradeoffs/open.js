// @ts-check
/**
 * Opens and closes the trade-offs panel from its header button, or at
 * once when the address has `tradeoffs=1`. The panel's code and its
 * workers load only the first time it opens (shared/lazy-panel.js).
 * @module tradeoffs/open
 */

import { lazyPanel } from '../shared/lazy-panel.js';

const button = /** @type {HTMLButtonElement | null} */ (document.getElementById('tradeoffs-open'));
const section = document.getElementById('tradeoffs');
if (button && section) {
  const panel = lazyPanel(button, section, (s, close) => import('./panel.js').then((m) => m.createPanel(s, close)), 'the trade-offs');
  if (new URLSearchParams(window.location.search).get('tradeoffs') === '1') panel.open();
}
