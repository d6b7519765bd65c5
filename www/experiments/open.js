// @ts-check
/**
 * Opens and closes the Experiments panel from its header button. The
 * panel's code, the workers and the chart library load only the first
 * time it opens (shared/lazy-panel.js).
 * @module experiments/open
 */

import { lazyPanel } from '../shared/lazy-panel.js';

const button = /** @type {HTMLButtonElement | null} */ (document.getElementById('experiments-open'));
const section = document.getElementById('experiments');
if (button && section) {
  lazyPanel(button, section, (s, close) => import('./panel.js').then((m) => m.createPanel(s, close)), 'the experiments');
}
