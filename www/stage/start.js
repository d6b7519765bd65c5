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
 *
 * ## The stage
 *
 * **The stage** (`www/stage/`) holds 1 to 4 runs, their views and one
 * transport bar, configured by what each entry passes; the entries only
 * make their runs, pick their views and read their address:
 *
 * | entry | lines | on |
 * |---|---|---|
 * | `www/main.js` (index.html) | 17 | `startPlayground({embed, compare, download})`: `stage/start.js` starts the appearance, the first wasm module and the names, then `stage/page.js` (full page: one run, the single view and its panels, the page's bar) or, with `?embed=1`, the embed |
 * | `standalone/entry.js` | 22 | the same start with the standalone page's `request` (its inline scenario) after `boot.js` gave `shared/player-wasm.js` its inline wasm (`useWasmSource`) |
 * | `compare/compare.js` | 102 | `CompareMode extends PageComparison` (`stage/compare-page.js`: the lanes, compare mode's bar, its keys and faults): the address that opens it, and Leave, Share and Copy embed code on the addresses of `stage/compare-links.js` |
 * | `embed/embed.js` | 125 | one `Model` behind a `Clock` (`modelClock`), its view and status line, the host's `load` |
 * | `embed/compare-embed.js` | 120 | a comparison (`runsClock`), its lanes (`EMBED_LANE`) and the compact table |
 *
 * **The bar** is one module, `stage/bar.js`: a `Bar` made from a
 * `BarSpec`, the controls it shows (`play`, `step`, `next`, `restart`,
 * `end`, `speed`, `quiet`, `present`, `keys`, `scrubber`, `faults`) and
 * its chrome. In `page` chrome it adopts the markup index.html already
 * has (the first paint shows the bar before any script runs): the single
 * view's (`#play` … `#timeline`, every control; `keys` makes the
 * shortcuts and their help overlay, player/shortcuts.js) and, with the
 * prefix `compare-`, compare mode's (no next change or keys button; its
 * keys go ahead of the page's, `captureKeys`). In `embed` chrome it
 * builds the compact bar (`controls=` picks play, step, reset, scrubber,
 * speed, faults, in a fixed order; then the time, the status and the
 * open link). Presses go to `BarActions`: a Model (`modelActions`), a
 * comparison's runs (compare-page.js) or a `Transport`
 * (`transportActions`); `render` shows a `BarState`. What stays beside
 * the bar is the page's: the readouts and settings (player/controls.js),
 * the seek jumps and the explored bar (player/timeline.js), presentation
 * mode (player/present.js).
 *
 * In embed chrome both embeds are an `EmbedStage` (`stage/embed-stage.js`):
 * the frame, the bar, the postMessage API on the same `Transport` and the
 * start (`at=`, autoplay, ready). A `Transport` (`stage/transport.js`) keeps an
 * embed's range rules once for both: seeking clamps to `[from, to]`,
 * playing stops at `to` (within `AT_END_MS`) or goes back to `from` with
 * `loop`, a step never passes `to`, `at=` outside the range is named. It
 * moves its runs through a `Clock`, one run's or a comparison's, so a
 * single and a compare embed move time by the same code. Imports go
 * down: the entries import the stage, the stage imports the views
 * (`cluster/`, `panels/`, `player/`), the embed's API (`embed/api.js`) and
 * `shared/`, and `shared/` imports none of them. The stage names no entry:
 * each entry passes in the variants' code (`embed`, `compare`: loaders of
 * the embed and of compare mode; `download`: "Download as a standalone
 * page"; on a standalone page its `request`, and `boot.js` its wasm
 * bytes).
 * @module stage/start
 */

import { dropLoadingNote } from '../first/handoff.js';
import { setupAppearance } from '../shared/appearance.js';
import { messageOf, showProblems } from '../shared/dom.js';
import { learnNames } from '../shared/names.js';
import { firstModule } from '../shared/player-wasm.js';
import { compareParam, isEmbed } from '../shared/url.js';
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
  // The code of what the address asks for beyond the single view (the
  // embed; compare mode) is asked for now, beside the wasm module, not
  // once the module is in: its chunks came 0.05 to 0.1 s after the wasm
  // on 5 Mbps (docs/PERFORMANCE.md, Panels). Compare mode's own load
  // (stage/compare-picker.js) gets the same module, and says if it failed.
  const embedCode = embed ? entry.embed() : null;
  if (!embed && compareParam(window.location.search) !== null) entry.compare().catch(() => {});
  // The wasm module the address's scenario needs. Its static functions
  // (names, lists, parameters) serve every run, whatever module a later
  // run is made in.
  const first = await firstModule(window.location.search, window.location.hash);
  const wasm = await first.wasm;
  // Role codes and property names, from the core (every view reads them).
  learnNames(wasm);
  if (embedCode) {
    await (await embedCode).startEmbed(wasm);
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
    dropLoadingNote();
    try {
      showProblems([`The playground could not start: ${messageOf(e)}`]);
    } catch {
      document.body.textContent = `The playground could not start: ${messageOf(e)}`;
    }
  });
}
