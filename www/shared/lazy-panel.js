// @ts-check
/**
 * A header button that opens and closes a panel whose code loads only
 * the first time it opens (the Experiments and Trade-offs panels), so
 * the page pays nothing for it until then; and the wait for the page's
 * own start-up, which such code needs (it loads the wasm).
 * @module shared/lazy-panel
 */

/**
 * Resolves once the page's own start-up is done (`data-ready` on body).
 * @returns {Promise<void>}
 */
export function pageReady() {
  return new Promise((resolve) => {
    if (document.body.dataset.ready === 'true') {
      resolve();
      return;
    }
    const observer = new MutationObserver(() => {
      if (document.body.dataset.ready === 'true') {
        observer.disconnect();
        resolve();
      }
    });
    observer.observe(document.body, { attributes: true, attributeFilter: ['data-ready'] });
  });
}

/**
 * Wires `button` to show and hide `section`, building the panel with
 * `load` the first time (a failure is said in the section, and the next
 * opening tries again).
 * @param {HTMLButtonElement} button
 * @param {HTMLElement} section
 * @param {(section: HTMLElement, close: () => void) => Promise<{focus: () => void}>} load
 * @param {string} what the panel's name in words ("the experiments")
 * @returns {{open: () => void, close: () => void}}
 */
export function lazyPanel(button, section, load, what) {
  /** @type {Promise<{focus: () => void}> | null} */
  let panel = null;
  const close = () => {
    section.hidden = true;
    button.setAttribute('aria-expanded', 'false');
    button.focus();
  };
  const open = () => {
    section.hidden = false;
    button.setAttribute('aria-expanded', 'true');
    panel ??= load(section, close);
    panel
      .then((p) => p.focus())
      .catch((e) => {
        panel = null;
        section.replaceChildren(`${what.charAt(0).toUpperCase()}${what.slice(1)} could not load: ${e instanceof Error ? e.message : String(e)}`);
      });
  };
  button.addEventListener('click', () => (section.hidden ? open() : close()));
  return { open, close };
}
