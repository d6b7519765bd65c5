// @ts-check
/**
 * Opens and closes the trade-offs panel from its header button (or at
 * once when the address has `tradeoffs=1`). The panel's code and its
 * workers load only the first time it opens.
 * @module tradeoffs/open
 */

const button = /** @type {HTMLButtonElement | null} */ (document.getElementById('tradeoffs-open'));
const section = document.getElementById('tradeoffs');

/** @type {Promise<{focus: () => void}> | null} */
let panel = null;

/** Hides the panel and gives the focus back to its button. */
function close() {
  if (!section || !button) return;
  section.hidden = true;
  button.setAttribute('aria-expanded', 'false');
  button.focus();
}

/** Shows the panel (loading it the first time). */
function open() {
  if (!section || !button) return;
  section.hidden = false;
  button.setAttribute('aria-expanded', 'true');
  panel ??= import('./panel.js').then((m) => m.createPanel(section, close));
  panel
    .then((p) => p.focus())
    .catch((e) => {
      panel = null;
      section.replaceChildren(`The trade-offs could not load: ${e instanceof Error ? e.message : String(e)}`);
    });
}

if (button && section) {
  button.addEventListener('click', () => (section.hidden ? open() : close()));
  if (new URLSearchParams(window.location.search).get('tradeoffs') === '1') open();
}

export {};
