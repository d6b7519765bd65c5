// @ts-check
/**
 * Compare mode's entry, on the stage's comparison in the full page
 * (stage/compare-page.js) and its addresses (stage/compare-links.js):
 * `?compare=bully,raft,chang-roberts` plus the scenario in the rest of the
 * address (query parameters, a `#s=` share link or `preset=`) opens
 * compare mode, `at=` (or `at=end`) puts its shared clock there; entering
 * it from the picker and leaving it load such an address, and Share and
 * Copy embed code write one. It loads on first use (stage/compare-picker.js,
 * which keeps the picker) and runs on the wasm compare module
 * (shared/panel-wasm.js, the compare module): the single view's run crosses as its scenario
 * JSON.
 * @module compare
 */

import { el, messageOf } from '../shared/dom.js';
import { wireEmbedCode } from '../shared/embed-code.js';
import { compareParam } from '../shared/url.js';
import { PageComparison } from '../stage/compare-page.js';
import { embedTargetOf, leaveAddress, navigate, pickedAddress, shareAddress } from '../stage/compare-links.js';

/** @typedef {import('../stage/compare-page.js').CompareHooks} CompareHooks */
/** @typedef {import('../stage/runs.js').CompareRuns} CompareRuns */

export class CompareMode extends PageComparison {
  /**
   * @param {typeof import('../pkg/election_compare.js')} wasm
   * @param {{id: string, name: string}[]} algorithms every algorithm, in display order
   * @param {CompareHooks} hooks
   */
  constructor(wasm, algorithms, hooks) {
    super(wasm, algorithms, hooks);
    el('compare-leave').addEventListener('click', () => navigate(leaveAddress(this.current(), this.baseAlgorithm), 'compare-open'));
    el('compare-share').addEventListener('click', () => this.share());
    const field = /** @type {HTMLTextAreaElement} */ (el('compare-embed-code'));
    wireEmbedCode({ button: el('compare-copy-embed'), field, status: this.shareStatus }, () =>
      embedTargetOf(this.paused(), this.baseAlgorithm, this.algorithms),
    );
  }

  /**
   * Opens compare mode when the address asks for it (`compare=`), on the
   * single view's scenario; a bad list is reported, naming the parameter,
   * and the single view stays.
   * @param {import('../shared/url.js').PageRequest} request
   * @param {string[]} problems filled with what went wrong
   */
  open(request, problems) {
    if (this.active) this.close();
    const text = compareParam(request.query);
    if (text === null) return;
    try {
      // Paused, as the single view opens: the page waits for Play.
      this.enter(this.wasm.compare_ids(text), request.at, false);
    } catch (e) {
      problems.push(`URL parameter \`compare\`: ${messageOf(e)}. Showing one algorithm instead.`);
      // Paused, as with any other problem in the address.
      this.hooks.single().setPlaying(false);
    }
  }

  /** Opens compare mode on the current scenario with the ticked algorithms, by loading its address. */
  openPicked() {
    const ids = [...this.picker.querySelectorAll('input[type=checkbox]:checked')].map(
      (box) => /** @type {HTMLInputElement} */ (box).value,
    );
    try {
      this.wasm.compare_ids(ids.join(','));
    } catch (e) {
      this.hooks.report(`Compare: ${messageOf(e)}`);
      return;
    }
    navigate(pickedAddress(this.hooks.single(), ids), 'compare-title');
  }

  /** @private @returns {CompareRuns} the open runs */
  current() {
    return /** @type {CompareRuns} */ (this.runs);
  }

  /** @private @returns {CompareRuns} the open runs, paused at this moment */
  paused() {
    this.setPlaying(false);
    return this.current();
  }

  /**
   * Puts this comparison, with every fault made here, into the address
   * (opening paused at this moment) and copies it.
   * @private
   */
  async share() {
    const url = shareAddress(this.paused(), this.baseAlgorithm);
    history.replaceState(null, '', url);
    try {
      await navigator.clipboard.writeText(url.href);
      this.shareStatus.textContent = 'Link copied. It opens this comparison at this moment.';
    } catch {
      this.shareStatus.textContent = 'The link is in the address bar (copying was not allowed).';
    }
  }
}
