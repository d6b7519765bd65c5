// @ts-check
/**
 * "Download as a standalone page", loaded on first use
 * (standalone/control.js): the template (this page's own text on a
 * standalone page; on the site `standalone.html` beside the page, or
 * `dist/standalone.html` when the repository root is served), filled with
 * the run shown and saved as `<algorithm>-<seed>.html`.
 * @module standalone/make
 */

import { saveText } from '../shared/download.js';
import { fillTemplate, isTemplate } from './fill.js';
import { ownTemplate } from './inlined.js';

/** Where the template may be, relative to the page: the built site, then a development checkout's build. */
const TEMPLATE_URLS = ['standalone.html', 'dist/standalone.html'];

/** What to say when no template is found. */
export const NO_TEMPLATE =
  'The standalone template (standalone.html) is not on this server. Build it with `node scripts/build/standalone.mjs` ' +
  '(after `bash scripts/build/build-wasm.sh`) or build the whole site with `./scripts/build-site.sh`, then reload.';

/**
 * The template's text.
 * @returns {Promise<string>}
 */
async function template() {
  const own = ownTemplate();
  if (own !== null) return own;
  for (const url of TEMPLATE_URLS) {
    /** @type {Response} */
    let response;
    try {
      response = await fetch(new URL(url, document.baseURI), { cache: 'no-cache' });
    } catch {
      continue;
    }
    if (!response.ok) continue;
    const text = await response.text();
    if (isTemplate(text)) return text;
  }
  throw new Error(NO_TEMPLATE);
}

/**
 * Makes and saves the file; returns its name.
 * @param {import('./fill.js').Lesson & {algorithm: string, seed: string}} lesson
 * @returns {Promise<string>}
 */
export async function makeStandalone(lesson) {
  const html = fillTemplate(await template(), lesson);
  const name = `${lesson.algorithm}-${lesson.seed}.html`;
  saveText(html, name, 'text/html');
  return name;
}
