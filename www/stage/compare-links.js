// @ts-check
/**
 * The addresses of the stage's comparison in the full page (compare
 * mode): the address that leaves it for the single view at the same time,
 * the one that opens it from the picker, the share link of this moment
 * and the embed target of "Copy embed code". The address is the source of
 * truth: entering and leaving load such an address (`navigate`), and
 * Share and Copy embed code write one, so what is on screen can always be
 * shared and reloaded. Compare mode's entry (compare/compare.js) wires
 * them to its buttons.
 * @module stage/compare-links
 */

import { targetOf } from '../shared/embed-code.js';
import { pageReady } from '../shared/lazy-panel.js';
import { toolsPlayground } from './runs.js';

/** @typedef {import('./runs.js').CompareRuns} CompareRuns */

/**
 * The single view on the same scenario at the same time: faults made here
 * go with the scenario, in a share link.
 * @param {CompareRuns} runs
 * @param {string} baseAlgorithm the algorithm of the scenario compared
 * @returns {URL}
 */
export function leaveAddress(runs, baseAlgorithm) {
  runs.sync();
  const url = new URL(window.location.href);
  url.searchParams.delete('compare');
  url.searchParams.delete('at');
  if (runs.nowMs > 0) url.searchParams.set('at', String(runs.nowMs));
  const first = runs.runs[0];
  if (first && first.model.playground.fault_count() > 0) {
    const back = toolsPlayground(first).for_algorithm(baseAlgorithm);
    url.hash = back.share_fragment();
    back.free();
  }
  return url;
}

/**
 * Compare mode on the single view's scenario at its moment with `ids`.
 * @param {import('../player/model.js').Model} single
 * @param {string[]} ids
 * @returns {URL}
 */
export function pickedAddress(single, ids) {
  const pg = single.playground;
  // Finish the instant, so the address opens exactly what is shown.
  pg.run_until_ms(pg.now_ms());
  const url = new URL(window.location.pathname, window.location.href);
  const preset = new URLSearchParams(window.location.search).get('preset');
  url.searchParams.set('compare', ids.join(','));
  if (preset !== null) url.searchParams.set('preset', preset);
  if (pg.now_ms() > 0) url.searchParams.set('at', String(pg.now_ms()));
  url.hash = pg.share_fragment();
  return url;
}

/**
 * Every run's instant finished (so an address opens exactly what is
 * shown), and the scenario compared, faults made here included, as a run
 * of its own algorithm (freed here after `use`).
 * @template T
 * @param {CompareRuns} runs paused
 * @param {string} baseAlgorithm
 * @param {(base: import('../pkg/election_compare.js').Playground) => T} use
 * @returns {T}
 */
function withBase(runs, baseAlgorithm, use) {
  for (const run of runs.runs) run.model.playground.run_until_ms(runs.nowMs);
  const base = toolsPlayground(runs.runs[0]).for_algorithm(baseAlgorithm);
  try {
    return use(base);
  } finally {
    base.free();
  }
}

/**
 * This comparison at this moment, for "Copy embed code".
 * @param {CompareRuns} runs paused
 * @param {string} baseAlgorithm
 * @param {{id: string, name: string}[]} algorithms
 * @returns {import('../shared/embed-code.js').EmbedTarget}
 */
export function embedTargetOf(runs, baseAlgorithm, algorithms) {
  const target = withBase(runs, baseAlgorithm, (base) => targetOf(base, algorithms, runs.runs.map((r) => r.id)));
  return { ...target, atMs: runs.nowMs, toMs: runs.nowMs > runs.endMs() ? runs.nowMs : null };
}

/**
 * This comparison with every fault made here, opening paused at this
 * moment.
 * @param {CompareRuns} runs paused
 * @param {string} baseAlgorithm
 * @returns {URL}
 */
export function shareAddress(runs, baseAlgorithm) {
  const url = new URL(window.location.pathname, window.location.href);
  url.searchParams.set('compare', runs.runs.map((r) => r.id).join(','));
  if (runs.nowMs > 0) url.searchParams.set('at', String(runs.nowMs));
  url.hash = withBase(runs, baseAlgorithm, (base) => base.share_fragment());
  url.search = url.search.replace(/%2C/gi, ',');
  return url;
}

/**
 * Opens `url` (compare mode's Compare and Leave): in this page, by
 * pushing it to the history and reading it as Back and Forward do
 * (stage/page.js, reopen on popstate), so compare mode opens without
 * loading the page again; the page is not ready (body[data-ready]) until
 * it stands there, and then the element `focusId` takes the focus
 * (the button pressed is hidden by the change). Where the history cannot
 * take the address (a page opened from a file whose browser refuses it),
 * the address is loaded.
 * @param {URL} url
 * @param {string} [focusId]
 */
export function navigate(url, focusId) {
  // Commas read better than %2C in `compare=bully,raft`.
  url.search = url.search.replace(/%2C/gi, ',');
  if (url.href === window.location.href) {
    window.location.reload();
    return;
  }
  try {
    window.history.pushState(null, '', url.href);
  } catch {
    window.location.assign(url.href);
    return;
  }
  // At the top, where a page load would show it.
  window.scrollTo(0, 0);
  window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  // Once the page stands there (reopen turned body[data-ready] off).
  if (focusId) pageReady().then(() => document.getElementById(focusId)?.focus({ preventScroll: true }));
}
