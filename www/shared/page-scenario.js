// @ts-check
/**
 * The scenario the page is showing now, for modules loaded apart from
 * main.js (the Experiments panel): the address names where a run began,
 * but faults made by clicking since then live only in the playground
 * until Copy link. main.js registers the source; others ask for it.
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
