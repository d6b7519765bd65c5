// @ts-check
/**
 * The trade-offs panel: the textbook's design trade-offs table measured
 * by the core (`election tradeoffs`), in Web Workers, each algorithm's
 * row shown as it is done, every figure a link to the run behind it.
 * The sizes, seeds and partition schedules can be changed; a bad value is
 * named next to its input. Measuring starts when the panel first opens.
 * @module tradeoffs/panel
 */

import { startWorker } from '../shared/panel-wasm.js';
import { ALGORITHMS } from '../pkg/panel-data.js';
import { h, setText } from '../shared/dom.js';
import { clearFieldErrors, showAtField } from '../panels/field-errors.js';
import { headings, pendingRow, rowElement, whyRows } from './table.js';
import { addScrollCue } from '../shared/scroll-cue.js';

/** Most workers measuring at once. */
const MAX_WORKERS = 4;

/**
 * Builds the panel inside `section`.
 * @param {HTMLElement} section
 * @param {() => void} close
 * @param {Promise<import('../shared/panel-wasm.js').Sweeps>} sweeps the sweeps
 *   module (shared/panel-wasm.js), loading beside the panel
 *   (tradeoffs/open.js), with its compiled module for the workers: the
 *   table shows at once, each row pending until measured
 * @returns {Promise<{focus: () => void}>}
 */
export async function createPanel(section, close, sweeps) {
  const algorithms = ALGORITHMS;
  const title = h('h2', { id: 'tradeoffs-title', tabindex: -1 }, 'Trade-offs, measured');
  const closeButton = h('button', { type: 'button', 'data-testid': 'tradeoffs-close' }, 'Close trade-offs');
  closeButton.addEventListener('click', close);

  const field = (/** @type {string} */ name, /** @type {string} */ label, /** @type {string} */ value, /** @type {string} */ hint) => {
    const input = /** @type {HTMLInputElement} */ (
      h('input', { id: `tradeoffs-${name}`, name, type: 'text', value, spellcheck: 'false', autocomplete: 'off', 'data-testid': `tradeoffs-${name}` })
    );
    const box = h('label', { class: 'tradeoffs-field' }, `${label} `, input, h('span', { class: 'note' }, hint));
    return { input, box };
  };
  const nodes = field('nodes', 'Sizes', '8,64', 'nodes, two or more');
  const seeds = field('seeds', 'Seeds', '1..5', 'each figure is the mean');
  const schedules = field('partition_schedules', 'Partition schedules', '200', 'per algorithm');
  const measure = /** @type {HTMLButtonElement} */ (h('button', { type: 'submit', 'data-testid': 'tradeoffs-measure' }, 'Measure'));
  const cancel = /** @type {HTMLButtonElement} */ (h('button', { type: 'button', 'data-testid': 'tradeoffs-cancel', disabled: '' }, 'Cancel'));
  const form = /** @type {HTMLFormElement} */ (h('form', { class: 'tradeoffs-form' }, nodes.box, seeds.box, schedules.box, measure, cancel));
  const status = h('p', { class: 'note', role: 'status', 'data-testid': 'tradeoffs-status' });
  const head = h('tr');
  /**
   * The headings for what is being measured (the core's table).
   * @param {import('./table.js').TableSpec} t
   */
  const showHeadings = (t) =>
    head.replaceChildren(...headings(t).map((c) => h('th', c.title ? { scope: 'col', title: c.title } : { scope: 'col' }, c.text)));
  const body = h('tbody');
  const table = h('table', { class: 'tradeoffs-table', 'data-testid': 'tradeoffs-table' }, h('thead', {}, head), body);
  const wrap = h('div', { class: 'table-wrap', role: 'region', 'aria-label': 'The trade-off table', tabindex: '0' }, table);
  section.replaceChildren(
    h('div', { class: 'exp-head' }, title, closeButton),
    h(
      'p',
      { class: 'note' },
      'The design trade-offs table of the course material, measured by the simulator: messages per election at each size and the growth law that fits them, ' +
        'latency in network round trips (a fixed 10 ms delay), whether a random partition can break the safety each algorithm claims (the failure finder), ' +
        'and what a node that keeps crashing and coming back does to the leadership. The claim is written before each measurement; every figure opens the run behind it. ' +
        'The same table: ',
      h('code', {}, 'election tradeoffs --markdown'),
      '.',
    ),
    form,
    status,
    wrap,
  );
  // On a phone most columns are to the right: say so, as compare's table does.
  addScrollCue(wrap, 'tradeoffs-scroll-hint');

  /** @type {Worker[]} */
  let workers = [];
  const stop = () => {
    for (const w of workers) w.terminate();
    workers = [];
    measure.disabled = false;
    cancel.disabled = true;
  };

  /** The measuring code once in. @type {import('../shared/panel-wasm.js').Sweeps | null} */
  let loaded = null;
  sweeps.then(
    (s) => {
      loaded = s;
    },
    () => {},
  );
  /** Which run of the table is the latest (one started while the wasm loads gives way). */
  let turn = 0;
  const run = async () => {
    stop();
    const mine = ++turn;
    clearFieldErrors(form);
    const numbers = nodes.input.value.split(',').map((t) => t.trim());
    const spec = JSON.stringify({
      nodes: numbers.map((t) => (/^\d+$/.test(t) ? Number(t) : t)),
      seeds: seeds.input.value.trim(),
      partition_schedules: /^\d+$/.test(schedules.input.value.trim()) ? Number(schedules.input.value.trim()) : schedules.input.value,
    });
    // The first time, the rows wait for the measuring code (loading
    // since the panel opened), pending.
    const early = loaded === null;
    if (early) {
      body.replaceChildren(...algorithms.map((a) => pendingRow(a.id, a.name)));
      setText(status, 'Loading the measuring code…');
      try {
        await sweeps;
      } catch (e) {
        setText(status, `Measuring failed: ${e instanceof Error ? e.message : String(e)}`);
        return;
      }
      if (mine !== turn) return;
    }
    const ready = /** @type {import('../shared/panel-wasm.js').Sweeps} */ (loaded);
    try {
      showHeadings(ready.wasm.tradeoffs_table(spec));
    } catch (e) {
      if (early) body.replaceChildren();
      const err = /** @type {{field?: string, detail?: string}} */ (e);
      const input = { nodes: nodes.input, seeds: seeds.input, partition_schedules: schedules.input }[err.field ?? ''];
      const shown = { field: err.field ?? '', detail: err.detail ?? String(e), message: String(e) };
      if (input) showAtField(input, shown);
      setText(status, 'Not measured: see the marked field.');
      return;
    }
    body.replaceChildren(...algorithms.map((a) => pendingRow(a.id, a.name)));
    const count = Math.max(1, Math.min(MAX_WORKERS, (navigator.hardwareConcurrency || 2) - 1, algorithms.length));
    let done = 0;
    setText(status, `Measuring 0 of ${algorithms.length} algorithms…`);
    measure.disabled = true;
    cancel.disabled = false;
    for (let w = 0; w < count; w += 1) {
      const worker = startWorker(new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: `tradeoffs-${w}` }), ready);
      worker.onmessage = (/** @type {MessageEvent} */ event) => {
        const msg = event.data;
        if (msg.type === 'row') {
          body.querySelector(`tr[data-algorithm="${msg.id}"]`)?.replaceWith(rowElement(msg.row), ...whyRows(msg.row));
          done += 1;
          if (done === algorithms.length) {
            stop();
            setText(status, `Measured ${done} algorithms at ${numbers.join(' and ')} nodes over seeds ${seeds.input.value.trim()}.`);
          } else setText(status, `Measuring ${done} of ${algorithms.length} algorithms…`);
        } else if (msg.type === 'error') {
          stop();
          setText(status, `Measuring failed: ${msg.message}`);
        }
      };
      worker.onerror = (e) => {
        stop();
        setText(status, `Measuring failed: ${e.message}`);
      };
      worker.postMessage({ type: 'measure', spec, ids: algorithms.filter((_, i) => i % count === w).map((a) => a.id) });
      workers.push(worker);
    }
  };

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    run();
  });
  cancel.addEventListener('click', () => {
    stop();
    setText(status, 'Cancelled; the rows measured so far stay.');
    for (const row of body.querySelectorAll('tr.pending')) row.remove();
  });
  run();
  return { focus: () => title.focus() };
}
