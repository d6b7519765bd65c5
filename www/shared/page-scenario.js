// @ts-check
/**
 * The scenario the page is showing now, for modules loaded apart from
 * stage/page.js (the Experiments panel): the address names where a run began,
 * but faults made by clicking since then live only in the playground
 * until Copy link. stage/page.js registers the source; others ask for it.
 * The lab (lab/panel.js) also loads its script as the single view's run
 * and watches that run (`providePageRun`).
 * @module page-scenario
 */

/** @type {(() => string) | null} */
let source = null;

/**
 * Registers what returns the current scenario's JSON (the core's text).
 * @param {() => string} current
 */
export function providePageScenario(current) {
  source = current;
}

/**
 * The current scenario as the core writes it, clicked faults included;
 * null when no single-view run is on the page (compare mode, embed, or
 * before the page started).
 * @returns {string | null}
 */
export function pageScenarioJson() {
  return source ? source() : null;
}

/**
 * The single view's run, for the lab: `model` (read it, `onChange`) and
 * `load`, which shows another playground (of either wasm module) in
 * every view, paused at its start, with its link in the address.
 * @typedef {object} PageRun
 * @property {import('../player/model.js').Model} model
 * @property {(pg: any) => void} load
 */

/** @type {PageRun | null} */
let run = null;

/**
 * Registers the single view's run (stage/page.js).
 * @param {PageRun} page
 */
export function providePageRun(page) {
  run = page;
}

/**
 * The single view's run; null before the page started and in an embed.
 * @returns {PageRun | null}
 */
export function pageRun() {
  return run;
}
