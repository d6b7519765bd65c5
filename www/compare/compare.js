// @ts-check
/**
 * Compare mode's entry, on the stage's comparison in the full page
 * (stage/compare-page.js): the address. It is the source of truth:
 * `?compare=bully,raft,chang-roberts` plus the scenario in the rest of the
 * address (query parameters, a `#s=` share link or `preset=`) opens
 * compare mode, `at=` (or `at=end`) puts its shared clock there; entering
 * it from the picker and leaving it load such an address, and Share and
 * Copy embed code write one, so what is on screen can always be shared
 * and reloaded. It loads on first use (stage/compare-picker.js, which keeps the
 * picker) and runs on the wasm tools module (shared/tools-wasm.js): the
 * single view's run crosses as its scenario JSON.
 * @module compare
 */

import { el, messageOf } from '../shared/dom.js';
import { targetOf, wireEmbedCode } from '../shared/embed-code.js';
import { compareParam } from '../shared/url.js';
import { toolsPlayground } from '../stage/runs.js';
import { PageComparison } from '../stage/compare-page.js';

/** @typedef {import('../stage/compare-page.js').CompareHooks} CompareHooks */

export class CompareMode extends PageComparison {
  /**
   * @param {typeof import('../pkg/election_web.js')} wasm
   * @param {{id: string, name: string}[]} algorithms every algorithm, in display order
   * @param {CompareHooks} hooks
   */
  constructor(wasm, algorithms, hooks) {
    super(wasm, algorithms, hooks);
    el('compare-leave').addEventListener('click', () => this.leave());
    el('compare-share').addEventListener('click', () => this.share());
    wireEmbedCode(
      {
        button: el('compare-copy-embed'),
        field: /** @type {HTMLTextAreaElement} */ (el('compare-embed-code')),
        status: this.shareStatus,
      },
      () => this.embedTarget(),
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
      const ids = this.wasm.compare_ids(text);
      // Paused, as the single view opens: the page waits for Play.
      this.enter(ids, request.at, false);
    } catch (e) {
      problems.push(`URL parameter \`compare\`: ${messageOf(e)}. Showing one algorithm instead.`);
      // Paused, as with any other problem in the address.
      this.hooks.single().setPlaying(false);
    }
  }

  /** Leaves compare mode: loads the single view on the same scenario at the same time. */
  leave() {
    const runs = /** @type {import('../stage/runs.js').CompareRuns} */ (this.runs);
    runs.sync();
    const url = new URL(window.location.href);
    url.searchParams.delete('compare');
    url.searchParams.delete('at');
    if (runs.nowMs > 0) url.searchParams.set('at', String(runs.nowMs));
    const first = runs.runs[0];
    if (first && first.model.playground.fault_count() > 0) {
      // The faults made here go with the scenario, in a share link.
      const back = toolsPlayground(first).for_algorithm(this.baseAlgorithm);
      url.hash = back.share_fragment();
      back.free();
    }
    navigate(url);
  }

  /**
   * Opens compare mode on the current scenario with the ticked algorithms,
   * by loading its address.
   */
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
    const single = this.hooks.single();
    const pg = single.playground;
    // Finish the instant, so the address opens exactly what is shown.
    pg.run_until_ms(pg.now_ms());
    const url = new URL(window.location.pathname, window.location.href);
    const preset = new URLSearchParams(window.location.search).get('preset');
    url.searchParams.set('compare', ids.join(','));
    if (preset !== null) url.searchParams.set('preset', preset);
    if (pg.now_ms() > 0) url.searchParams.set('at', String(pg.now_ms()));
    url.hash = pg.share_fragment();
    navigate(url);
  }

  /**
   * This moment, paused, every run's instant finished (so an address opens
   * exactly what is shown), and the scenario compared, faults made here
   * included, as a run of its own algorithm (the caller frees it).
   * @private
   */
  here() {
    const runs = /** @type {import('../stage/runs.js').CompareRuns} */ (this.runs);
    this.setPlaying(false);
    for (const run of runs.runs) run.model.playground.run_until_ms(runs.nowMs);
    return { runs, base: toolsPlayground(runs.runs[0]).for_algorithm(this.baseAlgorithm) };
  }

  /**
   * This comparison at this moment, paused, for "Copy embed code".
   * @private
   * @returns {import('../shared/embed-code.js').EmbedTarget}
   */
  embedTarget() {
    const { runs, base } = this.here();
    const target = targetOf(base, this.algorithms, runs.runs.map((r) => r.id));
    base.free();
    return { ...target, atMs: runs.nowMs, toMs: runs.nowMs > runs.endMs() ? runs.nowMs : null };
  }

  /**
   * Puts this comparison, with every fault made here, into the address
   * (opening paused at this moment) and copies it.
   * @private
   */
  async share() {
    const { runs, base } = this.here();
    const url = new URL(window.location.pathname, window.location.href);
    url.searchParams.set('compare', runs.runs.map((r) => r.id).join(','));
    if (runs.nowMs > 0) url.searchParams.set('at', String(runs.nowMs));
    url.hash = base.share_fragment();
    base.free();
    url.search = url.search.replace(/%2C/gi, ',');
    history.replaceState(null, '', url);
    try {
      await navigator.clipboard.writeText(url.href);
      this.shareStatus.textContent = 'Link copied. It opens this comparison at this moment.';
    } catch {
      this.shareStatus.textContent = 'The link is in the address bar (copying was not allowed).';
    }
  }
}

/**
 * Loads `url`; when only its fragment differs from the current address
 * (which would not reload the page), reloads.
 * @param {URL} url
 */
function navigate(url) {
  // Commas read better than %2C in `compare=bully,raft`.
  url.search = url.search.replace(/%2C/gi, ',');
  const here = new URL(window.location.href);
  const sameDocument = here.pathname === url.pathname && here.search === url.search;
  window.location.assign(url.href);
  if (sameDocument) window.location.reload();
}
