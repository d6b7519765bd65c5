// @ts-check
/**
 * How every entry of the page starts (www/main.js, standalone/entry.js):
 * the appearance, the wasm module the address's scenario needs
 * (shared/player-wasm.js; on a standalone page from the inline bytes,
 * nothing fetched) and the core's names, then the stage the address asks
 * for: the embed's (`?embed=1`, loaded only then) or the full page's
 * (stage/page.js). The entry names the variants' code (the embed, compare
 * mode, the standalone download), so the stage imports none of them. A
 * failure to start is said on the page.
 * @module stage/start
 */

import { setupAppearance } from '../shared/appearance.js';
import { messageOf, showProblems } from '../shared/dom.js';
import { learnNames } from '../shared/names.js';
import { firstModule } from '../shared/player-wasm.js';
import { isEmbed } from '../shared/url.js';
import { startPage } from './page.js';

/**
 * What an entry gives the stage.
 * @typedef {import('./page.js').PageOptions & {embed: EmbedLoader}} Entry
 */

/**
 * Loads the embed (embed/embed.js) for `?embed=1`.
 * @typedef {() => Promise<{startEmbed: (wasm: import('../shared/player-wasm.js').PlayerWasm) => Promise<void>}>} EmbedLoader
 */

/**
 * Starts the page the address asks for.
 * @param {Entry} entry
 */
async function start(entry) {
  // `?embed=1`: the compact figure for an iframe instead.
  const embed = isEmbed(window.location.search);
  if (embed) document.body.classList.add('embed');
  setupAppearance();
  // The wasm module the address's scenario needs. Its static functions
  // (names, lists, parameters) serve every run, whatever module a later
  // run is made in.
  const first = await firstModule(window.location.search, window.location.hash);
  const wasm = await first.wasm;
  // Role codes and property names, from the core (every view reads them).
  learnNames(wasm);
  if (embed) {
    await (await entry.embed()).startEmbed(wasm);
    return;
  }
  await startPage(wasm, first.name, entry);
}

/**
 * Starts the playground; a failure is shown on the page.
 * @param {Entry} entry
 */
export function startPlayground(entry) {
  start(entry).catch((e) => {
    try {
      showProblems([`The playground could not start: ${messageOf(e)}`]);
    } catch {
      document.body.textContent = `The playground could not start: ${messageOf(e)}`;
    }
  });
}
