// @ts-check
/**
 * "Find a failure" (the Faults panel's finder): random fault schedules
 * of the ticked kinds over a seed range, checked in Web Workers with
 * progress and Cancel; the lowest failing seed is shrunk to a minimal
 * scenario and opened in the single view at the moment of the
 * violation, with a line saying what failed and what the shrink tried
 * (the smallest failure of the property across seeds and start sets,
 * core/tools/src/check/search.rs). The same search as
 * `election check`: the request is the core's, and so are the schedules,
 * the checks and the shrinking (wasm `FailureFinder`); this module reads
 * the form, hands out run indices and shows what came back.
 * @module finder/panel
 */

import { sweepsFor } from '../shared/panel-wasm.js';
import { ALGORITHMS, FAULT_KINDS } from '../pkg/panel-data.js';

import { messageOf, setText } from '../shared/dom.js';
import { propertyLabel } from '../shared/names.js';
import { pageScenarioJson } from '../shared/page-scenario.js';
import { Cancelled, FinderPool } from './pool.js';

/** The finder's own property: no settled leader soon after the faults. */
const LIVENESS = 'leader_after_faults';

/**
 * @typedef {object} Counterexample the core's `counterexample` JSON
 * @property {number} seed
 * @property {string} property
 * @property {string} detail
 * @property {number} at_ms
 * @property {any} scenario
 * @property {string} link `?at=<ms>#s=1.<data>`
 * @property {number} runs the shrink's and the search's runs
 * @property {string} tried what the shrink and the search tried, in words
 */

/**
 * An element of the finder's markup (index.html) by id.
 * @template {HTMLElement} T
 * @param {string} id
 * @returns {T}
 */
function part(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error(`the page has no #${id}`);
  return /** @type {T} */ (node);
}

/**
 * A property's name for people.
 * @param {string} id
 * @returns {string}
 */
function propertyName(id) {
  return id === LIVENESS ? 'No leader soon after the last fault' : propertyLabel(id);
}

/**
 * Opens a counterexample's link in the single view: the address changes
 * as a new history entry (Back returns) and the page reopens from it as
 * for a link pasted into the address bar (stage/page.js listens to popstate).
 * @param {string} link
 */
function openLink(link) {
  const url = new URL(`${window.location.pathname}${link}`, window.location.href);
  history.pushState(null, '', url);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

/**
 * Fills the finder's form (from what the build wrote, www/pkg/panel-data.js)
 * and wires its buttons; a search waits for its wasm module, which
 * finder/open.js has started loading.
 */
export function createFinder() {
  const root = part('finder');
  const form = /** @type {HTMLFormElement} */ (part('finder-form'));
  const algorithm = /** @type {HTMLSelectElement} */ (part('finder-algorithm'));
  const kinds = part('finder-kinds');
  const seeds = /** @type {HTMLInputElement} */ (part('finder-seeds'));
  const seedsError = part('finder-seeds-error');
  const liveness = /** @type {HTMLInputElement} */ (part('finder-liveness'));
  const fromPage = /** @type {HTMLInputElement} */ (part('finder-page-scenario'));
  const run = /** @type {HTMLButtonElement} */ (part('finder-run'));
  const cancel = /** @type {HTMLButtonElement} */ (part('finder-cancel'));
  const progress = /** @type {HTMLProgressElement} */ (part('finder-progress'));
  const status = part('finder-status');
  const openAgain = /** @type {HTMLButtonElement} */ (part('finder-open'));

  const current = pageScenarioJson();
  const pageAlgorithm = current ? JSON.parse(current).algorithm : '';
  for (const a of ALGORITHMS) {
    algorithm.append(new Option(a.name, a.id, false, a.id === pageAlgorithm));
  }
  // A script on the page (the lab's, or a link's) is one more algorithm
  // to check, offered (and picked) while the page shows one.
  const scriptOption = new Option("The page's script (lab)", 'script');
  /** @returns {string | null} the page's script, if it shows one */
  const pageScript = () => {
    const s = JSON.parse(pageScenarioJson() ?? 'null');
    return s && s.algorithm === 'script' && typeof s.script === 'string' ? s.script : null;
  };
  const syncScript = () => {
    const script = pageScript() !== null;
    if (script && !scriptOption.isConnected) {
      algorithm.prepend(scriptOption);
      algorithm.value = 'script';
    } else if (!script && scriptOption.isConnected) {
      scriptOption.remove();
    }
  };
  syncScript();
  root.addEventListener('toggle', syncScript);
  /** @type {HTMLInputElement[]} */
  const boxes = [];
  for (const name of FAULT_KINDS) {
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.value = name;
    box.checked = name !== 'uncut';
    box.dataset.testid = `finder-kind-${name}`;
    const label = document.createElement('label');
    label.append(box, ` ${name}`);
    kinds.append(label);
    boxes.push(box);
  }

  const pool = new FinderPool(Math.max(1, Math.min(8, navigator.hardwareConcurrency || 2)), null);
  /** @type {Counterexample | null} */
  let found = null;

  /** @param {'idle' | 'running' | 'shrinking' | 'done'} state */
  function setState(state) {
    const busy = state === 'running' || state === 'shrinking';
    run.disabled = busy;
    cancel.disabled = !busy;
    openAgain.hidden = found === null || busy;
    root.dataset.state = state;
  }

  /** @param {string} text */
  function say(text) {
    setText(status, text);
  }

  /** @param {string} text shown next to the seeds (empty: none) */
  function seedsProblem(text) {
    seedsError.hidden = text === '';
    setText(seedsError, text);
    if (text === '') seeds.removeAttribute('aria-invalid');
    else seeds.setAttribute('aria-invalid', 'true');
  }

  /** @returns {string} the core's finder request the form describes */
  function request() {
    const live = liveness.value.trim();
    return JSON.stringify({
      algorithm: algorithm.value,
      script: algorithm.value === 'script' ? (pageScript() ?? undefined) : undefined,
      faults: boxes.filter((b) => b.checked).map((b) => b.value),
      seeds: seeds.value.trim(),
      scenario: fromPage.checked ? JSON.parse(pageScenarioJson() ?? 'null') : null,
      liveness_ms: live === '' ? null : Number(live),
    });
  }

  /** @param {Counterexample} c */
  function show(c) {
    const nodes = c.scenario.nodes;
    const faults = c.scenario.faults.length;
    say(
      `${propertyName(c.property)} (${c.property}) at ${c.at_ms} ms: ${c.detail}. ` +
        `Seed ${c.seed} shrunk to ${nodes} node${nodes === 1 ? '' : 's'} and ${faults} fault${faults === 1 ? '' : 's'} ` +
        `(the scenario's seed ${c.scenario.seed}; ${c.tried}); opened at the violation.`,
    );
    root.dataset.property = c.property;
    root.dataset.scenario = JSON.stringify(c.scenario);
    root.dataset.link = c.link;
  }

  async function start() {
    if (pool.busy) return;
    found = null;
    seedsProblem('');
    delete root.dataset.property;
    delete root.dataset.scenario;
    delete root.dataset.link;
    syncScript();
    let text;
    let total;
    try {
      text = request();
      // A script runs only in the lab's module (shared/panel-wasm.js).
      const asked = JSON.parse(text);
      pool.wasm = await sweepsFor(asked.algorithm === 'script' || asked.scenario?.algorithm === 'script');
      const finder = new pool.wasm.wasm.FailureFinder(text);
      total = finder.run_count();
      finder.free();
    } catch (e) {
      const field = /** @type {{field?: string}} */ (e).field ?? '';
      if (field === 'seeds') seedsProblem(`Seeds: ${/** @type {{detail?: string}} */ (e).detail ?? messageOf(e)}`);
      say(`Not started: ${messageOf(e)}`);
      setState('idle');
      return;
    }
    progress.max = total;
    progress.value = 0;
    setState('running');
    say(`Checking ${total} seeds…`);
    try {
      const outcome = await pool.search(text, total, (p) => {
        progress.value = p.done;
        say(`${p.done} of ${p.total} runs, ${p.failures} failed`);
      });
      if (outcome.first === null) {
        say(`No failure in ${total} runs.`);
        setState('done');
        return;
      }
      say(`${outcome.failures} of ${total} runs failed; shrinking the first…`);
      setState('shrinking');
      const json = await pool.shrink(text, outcome.first);
      found = /** @type {Counterexample} */ (JSON.parse(json));
      show(found);
      setState('done');
      openLink(found.link);
    } catch (e) {
      if (e instanceof Cancelled) say(`Cancelled after ${progress.value} of ${total} runs.`);
      else say(`The search failed: ${messageOf(e)}`);
      setState('idle');
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    start();
  });
  cancel.addEventListener('click', () => pool.cancel());
  openAgain.addEventListener('click', () => {
    if (found) openLink(found.link);
  });
  seeds.addEventListener('input', () => seedsProblem(''));
  setState('idle');
}
