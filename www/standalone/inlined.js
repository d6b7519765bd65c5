// @ts-check
/**
 * What a standalone page carries inline (scripts/build/standalone.mjs, top
 * comment): scripts/build/standalone.mjs writes the data blocks, `election
 * html` and "Download as a standalone page" fill the scenario
 * one. Whether this page is one, the wasm bytes, the request its scenario
 * block makes, and the page's own text kept as the template for a new
 * file. On the site none of the blocks exists and every function here
 * says so (and costs nothing).
 *
 * ## Booting a standalone page
 *
 * - **Booting** (`www/standalone/inlined.js`, used by `stage/page-run.js` on
 *   the site
 *   too, where it finds no blocks and changes nothing): `init` gets the
 *   inflated bytes (`DecompressionStream`: Chromium 80, Firefox 113,
 *   Safari 16.4; only Chromium is tested) instead of fetching the wasm;
 *   while the address names nothing, the request is the block's scenario
 *   with its `at` and `preset`, read as the address's would be; once the
 *   page writes a link into the address (a fault, an import, compare mode)
 *   the address wins, as on the site, and Back to the bare file opens the
 *   block's scenario again. Nothing is fetched (the browser test records
 *   every request). `boot.js` hides what a file cannot do, with a short
 *   note: Experiments, Trade-offs and Find a failure (they run in Web
 *   Workers, which browsers do not start from `file://`; their code is not
 *   in the bundle), and the links that would point at the file (Copy link,
 *   Copy embed code, compare mode's two, the embedding docs). The cluster
 *   view draws on the main thread: `cluster/layers.js` starts no worker on
 *   a `data-standalone` page. The player, faults, the fault editor, the
 *   preset picker (the presets are in the wasm), compare mode, exports and
 *   import work as on the site.
 * @module standalone/inlined
 */

import { base64Bytes } from '../shared/base64.js';
import { readAddress } from '../shared/url.js';

/** Id of the data block with the wasm (base64; `data-encoding="gzip"`: of the gzip of it). */
export const WASM_BLOCK = 'standalone-wasm';
/** Id of the data block with the scenario JSON (`data-at`: the moment; `data-preset`: the narration;
 * `data-lesson`: a lesson's `#l=` link, whose steps the page shows). */
export const SCENARIO_BLOCK = 'standalone-scenario';

/** The page's text as it opened, on a standalone page. @type {string | null} */
let own = null;

/**
 * Whether this page is a standalone file (its wasm is inline).
 * @returns {boolean}
 */
export function isStandalone() {
  return typeof document !== 'undefined' && document.getElementById(WASM_BLOCK) !== null;
}

/**
 * What the wasm-bindgen `init` takes: the inline module's bytes on a
 * standalone page, nothing on the site (init fetches the file then).
 * Nothing is fetched here: the bytes are decoded from the data block and,
 * when gzip-compressed, inflated by the browser's DecompressionStream.
 * @returns {Promise<{module_or_path: BufferSource} | undefined>}
 */
export async function wasmInput() {
  const block = document.getElementById(WASM_BLOCK);
  if (!block) return undefined;
  const bytes = base64Bytes((block.textContent ?? '').trim());
  if (block.dataset.encoding !== 'gzip') return { module_or_path: bytes };
  const inflated = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return { module_or_path: await new Response(inflated).arrayBuffer() };
}

/**
 * The request a standalone page opens with: while its address names
 * nothing (as the file opens; Back to there), the inline scenario at its
 * moment (`data-at`, read as the address's `at` is) with the narration of
 * `data-preset`; once the page has written a link into the address (a
 * fault, an import), what the address asks, as on the site. Elsewhere
 * `request` unchanged.
 * @param {import('../shared/url.js').PageRequest} request what the address asks
 * @param {string[]} scenarioParams the query parameters the core reads
 * @returns {import('../shared/url.js').PageRequest}
 */
export function standaloneRequest(request, scenarioParams) {
  const block = document.getElementById(SCENARIO_BLOCK);
  if (!block || !isStandalone() || request.query !== '' || (request.fragment !== '' && request.fragment !== '#')) {
    return request;
  }
  const params = new URLSearchParams();
  if (block.dataset.preset) params.set('preset', block.dataset.preset);
  if (block.dataset.at) params.set('at', block.dataset.at);
  const search = params.size > 0 ? `?${params}` : '';
  const inline = readAddress(scenarioParams, /** @type {Location} */ ({ search, hash: '' }));
  const text = (block.textContent ?? '').trim();
  if (text === '') return inline;
  // A lesson's page (`data-lesson`, its `#l=` link): its steps beside its
  // scenario (the block's text, the lesson's run).
  return block.dataset.lesson ? { ...inline, scenario: text, lesson: block.dataset.lesson } : { ...inline, scenario: text };
}

/**
 * Keeps the page's own text (called once, before anything changes the
 * markup), the template of a new standalone file.
 * @param {string} text
 */
export function keepOwnTemplate(text) {
  own = text;
}

/**
 * The page's own text on a standalone page (see keepOwnTemplate), else null.
 * @returns {string | null}
 */
export function ownTemplate() {
  return own;
}
