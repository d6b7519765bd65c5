// @ts-check
/**
 * Compare mode's part of the first render: the picker (the algorithm
 * checkboxes and the Compare button of the single view) and the wait for
 * the rest. Compare mode itself (its entry, compare/compare.js, on
 * stage/compare-page.js: its runs, views and table), which the page's
 * entry names (`load`), and the wasm compare module it runs on
 * (shared/panel-wasm.js, its compare module) load the first time they are needed: an address
 * with `compare=`, or the Compare button (a click made while they load is
 * acted on once they are in).
 * @module stage/compare-picker
 */

import { setText } from '../shared/dom.js';
import { compareFor, compareWasm, isScripted } from '../shared/panel-wasm.js';
import { compareParam } from '../shared/url.js';

/**
 * Compare mode as the page sees it (compare/compare.js `CompareMode`).
 * @typedef {object} CompareMode
 * @property {boolean} active whether compare mode is on
 * @property {(request: import('../shared/url.js').PageRequest, problems: string[]) => void} open
 *   opens it when the address asks for it, closes it when not
 * @property {() => void} openPicked opens it with the ticked algorithms
 * @property {() => void} render draws it again
 * @property {(wasm: import('../shared/panel-wasm.js').CompareWasm) => void} useWasm
 *   makes the next comparisons in another module (the tools module, for a
 *   scripted run)
 */

/**
 * Loads compare mode (the entry's `compare`).
 * @typedef {() => Promise<{CompareMode: new (
 *   wasm: import('../shared/panel-wasm.js').CompareWasm,
 *   algorithms: {id: string, name: string}[],
 *   hooks: import('./compare-page.js').CompareHooks,
 * ) => CompareMode}>} CompareLoader
 */

export class LazyCompare {
  /**
   * @param {{id: string, name: string}[]} algorithms every algorithm, in display order
   * @param {import('./compare-page.js').CompareHooks} hooks
   * @param {CompareLoader} loader compare mode's code
   */
  constructor(algorithms, hooks, loader) {
    /** @private */
    this.loader = loader;
    /** @private */
    this.algorithms = algorithms;
    /** @private */
    this.hooks = hooks;
    /** Compare mode, once loaded. @type {CompareMode | null} */
    this.mode = null;
    /** @private @type {Promise<CompareMode> | null} */
    this.loading = null;
    /** @private */
    this.picker = /** @type {HTMLElement} */ (document.getElementById('compare-picker'));
    /** @private */
    this.pickStatus = /** @type {HTMLElement} */ (document.getElementById('compare-pick-status'));
    this.buildPicker();
    const button = /** @type {HTMLElement} */ (document.getElementById('compare-open'));
    button.addEventListener('click', () => {
      this.load().then(
        (mode) => mode.openPicked(),
        (e) => this.failed(e),
      );
    });
  }

  /**
   * Compare mode, loading it (and the compare module) the first time.
   * @private
   * @returns {Promise<CompareMode>}
   */
  load() {
    this.loading ??= Promise.all([this.loader(), compareWasm()]).then(([m, tools]) => {
      this.mode = new m.CompareMode(tools, this.algorithms, this.hooks);
      return this.mode;
    });
    this.loading.catch(() => {
      this.loading = null;
    });
    // A scripted run compares where scripts run: the tools module
    // (shared/panel-wasm.js), loaded then.
    return this.loading.then(async (mode) => {
      if (isScripted(this.hooks.single().playground.scenario_json())) mode.useWasm(await compareFor(true));
      return mode;
    });
  }

  /**
   * @private
   * @param {unknown} e
   */
  failed(e) {
    this.hooks.report(`Compare mode could not load: ${e instanceof Error ? e.message : String(e)}`);
  }

  /** Whether compare mode is on. */
  get active() {
    return this.mode?.active ?? false;
  }

  /**
   * Opens compare mode when the address asks for it (`compare=`), or
   * closes it when it is open and the address does not; see
   * CompareMode.open. Resolves once done, with whether `problems` grew
   * (a bad list, or compare mode could not load).
   * @param {import('../shared/url.js').PageRequest} request
   * @param {string[]} problems filled with what went wrong
   * @returns {Promise<boolean>}
   */
  open(request, problems) {
    const before = problems.length;
    if (!this.mode && compareParam(request.query) === null && !this.loading) return Promise.resolve(false);
    return this.load().then(
      (mode) => {
        mode.open(request, problems);
        return problems.length > before;
      },
      (e) => {
        problems.push(`Compare mode could not load: ${e instanceof Error ? e.message : String(e)}`);
        return true;
      },
    );
  }

  /** Draws compare mode again (a new appearance), when it is loaded. */
  render() {
    this.mode?.render();
  }

  /**
   * The algorithm checkboxes of the picker; the count is checked by the
   * core when Compare is pressed.
   * @private
   */
  buildPicker() {
    const boxes = this.algorithms.map((a) => {
      const label = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.value = a.id;
      box.name = 'compare';
      label.append(box, ` ${a.name}`);
      return label;
    });
    this.picker.replaceChildren(...boxes);
    this.picker.addEventListener('change', () => this.describePick());
    this.describePick();
  }

  /** @private */
  describePick() {
    const n = this.picker.querySelectorAll('input:checked').length;
    setText(
      this.pickStatus,
      n >= 2 && n <= 4 ? `${n} ticked.` : `${n} ticked; tick 2 to 4 algorithms.`,
    );
  }

  /**
   * Ticks the single view's algorithm in the picker (a natural first pick).
   * @param {string} algorithm
   */
  suggest(algorithm) {
    for (const box of this.picker.querySelectorAll('input')) {
      const input = /** @type {HTMLInputElement} */ (box);
      if (this.picker.querySelectorAll('input:checked').length === 0 && input.value === algorithm) {
        input.checked = true;
      }
    }
    this.describePick();
  }
}
