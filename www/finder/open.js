// @ts-check
/**
 * Loads the failure finder (panel.js, its workers) the first time its
 * section in the Faults panel is opened, so the page pays nothing for it
 * until then.
 * @module finder/open
 */

const details = /** @type {HTMLDetailsElement | null} */ (document.getElementById('finder'));

/** Resolves once the page's own start-up (which loads the wasm) is done. */
function pageReady() {
  return new Promise((resolve) => {
    if (document.body.dataset.ready === 'true') {
      resolve(undefined);
      return;
    }
    const observer = new MutationObserver(() => {
      if (document.body.dataset.ready === 'true') {
        observer.disconnect();
        resolve(undefined);
      }
    });
    observer.observe(document.body, { attributes: true, attributeFilter: ['data-ready'] });
  });
}

if (details) {
  /** @type {Promise<void> | null} */
  let loaded = null;
  details.addEventListener('toggle', () => {
    if (!details.open || loaded) return;
    loaded = pageReady()
      .then(() => import('./panel.js'))
      .then((m) => {
        m.createFinder();
        details.dataset.loaded = 'true';
      })
      .catch((e) => {
        loaded = null;
        const status = document.getElementById('finder-status');
        if (status) status.textContent = `The finder could not load: ${e instanceof Error ? e.message : String(e)}`;
      });
  });
}
