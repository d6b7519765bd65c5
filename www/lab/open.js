// @ts-check
/**
 * Opens and closes the lab (write an election algorithm as a script)
 * from its header button; at once when the address has `lab=1` or
 * `template=<id>` (a teacher's exercise link), and when the page opens a
 * link whose scenario is a script. The lab's code, the editor and the
 * lab's wasm module (side by side) load only the first time it opens
 * (shared/lazy-panel.js); this file is all the first render carries.
 * @module lab/open
 */

import { lazyPanel, pageReady } from '../shared/lazy-panel.js';
import { labWasm } from '../shared/panel-wasm.js';
import { pageRun } from '../shared/page-scenario.js';
import { TEMPLATE_ID } from '../shared/url.js';

const button = /** @type {HTMLButtonElement | null} */ (document.getElementById('lab-open'));
const section = document.getElementById('lab');
if (button && section) {
  const panel = lazyPanel(
    button,
    section,
    // The lab's code (with CodeMirror), then its wasm module: the editor
    // shows as soon as the code is in (lab/panel.js), which would share
    // the link with the 600 KB wasm if asked for together.
    (s, close) => pageReady().then(() => import('./panel.js').then((m) => m.createLab(s, close, labWasm()))),
    'the lab',
  );
  const params = new URLSearchParams(window.location.search);
  // A bad value is said by the page (shared/url.js readAddress).
  if (params.get('lab')?.trim() === '1' || TEMPLATE_ID.test(params.get('template') ?? '')) panel.open();
  // A script's link (pasted, Back, a counterexample of the finder) opens
  // the lab with the script in the editor: at start-up, and after the
  // address changes, once the page has built its run.
  let fromAddress = true;
  const reopened = () => {
    fromAddress = true;
  };
  window.addEventListener('popstate', reopened);
  window.addEventListener('hashchange', reopened);
  pageReady().then(() => {
    const run = pageRun();
    if (!run) return;
    let revision = -1;
    const look = () => {
      if (!fromAddress || run.model.revision === revision) return;
      revision = run.model.revision;
      fromAddress = false;
      if (section.hidden && run.model.playground.algorithm() === 'script') panel.open();
    };
    run.model.onChange(look);
    look();
  });
}
