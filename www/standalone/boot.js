// @ts-check
/**
 * The standalone page's own start (www/standalone/entry.js runs it before
 * the page, stage/start.js): keeps the page's text as the template for "Download as a
 * standalone page" before anything changes the markup, and hides what
 * needs a site, each with a short note: the Experiments, Trade-offs and
 * Find a failure panels (they run in Web Workers, which a browser does
 * not start from a file) and the links that would point to this file
 * (Copy link, Copy embed code, the same in compare mode, the embedding
 * docs). The single view, its player, faults, the fault editor, presets,
 * compare mode, exports and import all work from the file.
 * @module standalone/boot
 */

import { useWasmSource } from '../shared/player-wasm.js';
import { isStandalone, keepOwnTemplate, wasmInput } from './inlined.js';

/** Ids of the controls a single file cannot offer. */
const SITE_ONLY = ['experiments-open', 'tradeoffs-open', 'lab-open', 'finder', 'share', 'share-status', 'copy-embed', 'compare-share', 'compare-copy-embed'];

/**
 * A note paragraph.
 * @param {string} text
 * @param {string} testId
 * @returns {HTMLParagraphElement}
 */
function note(text, testId) {
  const p = document.createElement('p');
  p.className = 'note';
  p.dataset.testid = testId;
  p.textContent = text;
  return p;
}

if (isStandalone()) {
  keepOwnTemplate(`<!doctype html>\n${document.documentElement.outerHTML}\n`);
  // The wasm is the inline block's: nothing is fetched.
  useWasmSource(wasmInput);
  for (const id of SITE_ONLY) {
    const node = document.getElementById(id);
    if (node) node.hidden = true;
  }
  document.querySelector('a[href="docs/embed.html"]')?.closest('p')?.setAttribute('hidden', '');
  document
    .querySelector('.tagline')
    ?.after(
      note(
        'A single-file copy: this scenario runs here with no network. Experiments, Trade-offs and Find a failure need the website (they run in background workers, which a browser does not start from a file).',
        'standalone-note',
      ),
    );
  document
    .getElementById('share-title')
    ?.after(note('To share this run, send the file itself, or download it again below at the moment shown.', 'standalone-share-note'));
}
