// @ts-check
/**
 * A `#s=` share link's scenario read in the page, without the wasm: the
 * link (`s=1.<base64url of the raw-deflated scenario JSON>`, core
 * src/share.rs) inflated by the browser's own `DecompressionStream`, at
 * most as far as the core reads a scenario. For what must be known before
 * the wasm is in (which module to load, shared/player-wasm.js
 * `moduleForLink`; the first picture, first/scenario.js); the core reads
 * the link in full later, and says what is wrong with it.
 * @module shared/share-link
 */

import { base64Bytes } from './base64.js';

/** The most scenario text a share link is inflated to here: the core's
 * `MAX_SCENARIO_BYTES`, 64 KiB. */
const MAX_LINK_BYTES = 64 * 1024;

/**
 * The scenario object of the address fragment's `s=` link, or null when
 * there is none or it cannot be read here (no `DecompressionStream`, a
 * damaged or oversized link, not JSON).
 * @param {string} fragment `location.hash`
 * @returns {Promise<Record<string, unknown> | null>}
 */
export async function linkScenario(fragment) {
  const link = new URLSearchParams(fragment.replace(/^#/, '')).get('s');
  const data = link?.startsWith('1.') ? link.slice(2) : null;
  if (!data || typeof DecompressionStream === 'undefined') return null;
  try {
    const stream = new Blob([base64Bytes(data, true)]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
    // No further than the core reads a scenario (a hostile link may
    // inflate a thousandfold).
    const reader = stream.getReader();
    const utf8 = new TextDecoder();
    let text = '';
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > MAX_LINK_BYTES) {
        await reader.cancel();
        return null;
      }
      text += utf8.decode(value, { stream: true });
    }
    const scenario = JSON.parse(text + utf8.decode());
    return scenario !== null && typeof scenario === 'object' && !Array.isArray(scenario) ? scenario : null;
  } catch {
    return null;
  }
}
