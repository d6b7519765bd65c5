// @ts-check
/**
 * Opens and closes the Experiments panel from its header button. The
 * panel's code, the workers and the chart library load only the first
 * time it opens, so the page pays nothing for them until then.
 * @module experiments/open
 */

const button = /** @type {HTMLButtonElement | null} */ (document.getElementById('experiments-open'));
const section = document.getElementById('experiments');

/** @type {Promise<{focus: () => void}> | null} */
let panel = null;

/** Hides the panel and gives the focus back to its button. */
function close() {
  if (!section || !button) return;
  section.hidden = true;
  button.setAttribute('aria-expanded', 'false');
  button.focus();
}

if (button && section) {
  button.addEventListener('click', () => {
    if (!section.hidden) {
      close();
      return;
    }
    section.hidden = false;
    button.setAttribute('aria-expanded', 'true');
    panel ??= import('./panel.js').then((m) => m.createPanel(section, close));
    panel
      .then((p) => p.focus())
      .catch((e) => {
        panel = null;
        section.replaceChildren(`The experiments could not load: ${e instanceof Error ? e.message : String(e)}`);
      });
  });
}
