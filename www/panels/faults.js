// @ts-check
/**
 * The Faults panel: break the run now, at the current simulated time.
 * Every action becomes one scenario fault object (`{pause: 3, for_ms:
 * 500}`, the same JSON as a scenario file's `faults` entries, without
 * `at_ms`) handed to the page, which injects it into the core. The core
 * validates every value and names the field when one is wrong; this panel
 * only reads the inputs and never judges a value itself, except that a
 * partition needs at least one node ticked (an empty side is a slip, not a
 * fault). A refused value is shown under the input it came from, in plain
 * words (field-errors.js), and the input keeps what was typed.
 *
 * The node the panel acts on follows the node last pointed at or focused
 * on the cluster, and can be chosen in its select. One side of a
 * partition is ticked in a list or picked by shift-clicking nodes.
 * @module faults
 */
import { el } from '../shared/dom.js';
import { bannerLine, clearFieldErrors, coreError, lastKey, showAtField } from './field-errors.js';

/**
 * Which input of each form a refused field came from, by the last part of
 * the field's path (a fault made here is checked as the scenario's
 * `faults[k]`, so the core names e.g. `faults[5].network.drop`).
 * @type {Record<string, Record<string, string>>}
 */
const FIELD_INPUTS = {
  'form-pause': { for_ms: 'pause-ms', pause: 'fault-node' },
  'form-slow': { extra_ms: 'slow-ms', slow: 'fault-node' },
  'form-flaky': { period_ms: 'flaky-period', down_ms: 'flaky-down', for_ms: 'flaky-for', flaky: 'fault-node' },
  'form-clock': { offset_ms: 'clock-offset', drift: 'clock-drift', clock: 'fault-node' },
  'form-link': { cut: 'cut-to', uncut: 'cut-to' },
  'form-network': {
    'latency_ms[0]': 'net-latency-lo',
    'latency_ms[1]': 'net-latency-hi',
    latency_ms: 'net-latency-hi',
    drop: 'net-drop',
    duplicate: 'net-duplicate',
    fifo: 'net-fifo',
  },
  'form-partition': { partition: 'side-a' },
};

/** @param {string} id */
const input = (id) => /** @type {HTMLInputElement} */ (el(id));
/** @param {string} id */
const button = (id) => /** @type {HTMLButtonElement} */ (el(id));
/** @param {string} id */
const select = (id) => /** @type {HTMLSelectElement} */ (el(id));

/**
 * What an input holds, for the core to check: a number when it reads as
 * one, else the text as typed (which the core rejects, naming the field).
 * @param {HTMLInputElement} field
 * @returns {number | string}
 */
export function valueOf(field) {
  const text = field.value.trim();
  const n = Number(text);
  return text !== '' && Number.isFinite(n) ? n : text;
}

/**
 * What the panel needs from the page.
 * @typedef {object} FaultHooks
 * @property {(fault: object) => void} inject add the fault now; throws the
 *   core's error when it refuses it (the panel shows why)
 * @property {(message: string) => void} report show a problem
 * @property {(id: number) => void} choose a node was chosen in the select
 * @property {(picked: ReadonlySet<number>) => void} picked the nodes picked
 *   for side A changed
 */

export class FaultsPanel {
  /** @param {FaultHooks} hooks */
  constructor(hooks) {
    this.hooks = hooks;
    /** The panel, whose errors a new attempt clears. @private */
    this.root = el('fault-node').closest('section') ?? document.body;
    this.node = select('fault-node');
    this.cutTo = select('cut-to');
    this.sideList = el('side-a');
    /** Node count the lists were built for. @private */
    this.count = -1;
    /** Nodes ticked for side A. @private @type {Set<number>} */
    this.side = new Set();

    this.node.addEventListener('change', () => {
      this.nameButtons();
      this.hooks.choose(this.chosen());
    });
    button('fault-crash').addEventListener('click', () => this.apply({ crash: this.chosen() }, null));
    button('fault-recover').addEventListener('click', () => this.apply({ recover: this.chosen() }, null));
    this.onSubmit('form-pause', () => ({ pause: this.chosen(), for_ms: valueOf(input('pause-ms')) }));
    this.onSubmit('form-slow', () => ({ slow: this.chosen(), extra_ms: valueOf(input('slow-ms')) }));
    this.onSubmit('form-flaky', () => {
      /** @type {Record<string, unknown>} */
      const fault = {
        flaky: this.chosen(),
        period_ms: valueOf(input('flaky-period')),
        down_ms: valueOf(input('flaky-down')),
      };
      // Blank: flaky until the end of the run.
      if (input('flaky-for').value.trim() !== '') fault.for_ms = valueOf(input('flaky-for'));
      return fault;
    });
    this.onSubmit('form-clock', () => ({
      clock: this.chosen(),
      offset_ms: valueOf(input('clock-offset')),
      drift: valueOf(input('clock-drift')),
    }));
    this.onSubmit('form-link', () => ({ cut: [this.chosen(), Number(this.cutTo.value)] }));
    button('fault-uncut').addEventListener('click', () =>
      this.apply({ uncut: [this.chosen(), Number(this.cutTo.value)] }, 'form-link'),
    );
    this.onSubmit('form-partition', () => {
      if (this.side.size === 0) {
        this.hooks.report(
          'Partition: tick the nodes of side A first (or shift-click them on the cluster); the rest form side B.',
        );
        return null;
      }
      return { partition: [[...this.side].sort((a, b) => a - b)] };
    });
    button('fault-heal').addEventListener('click', () => this.apply({ heal: true }, null));
    button('side-clear').addEventListener('click', () => this.setSide(new Set()));
    this.onSubmit('form-network', () => ({
      network: {
        latency_ms: [valueOf(input('net-latency-lo')), valueOf(input('net-latency-hi'))],
        drop: valueOf(input('net-drop')),
        duplicate: valueOf(input('net-duplicate')),
        fifo: input('net-fifo').checked,
      },
    }));
  }

  /** @returns {number} the node the panel acts on */
  chosen() {
    return Number(this.node.value);
  }

  /**
   * Makes `id` the node the panel acts on (the node last pointed at).
   * @param {number} id
   */
  choose(id) {
    if (id < 0 || id >= this.count || this.chosen() === id) return;
    this.node.value = String(id);
    this.nameButtons();
  }

  /**
   * Ticks or unticks `id` for side A (a shift-click on the cluster).
   * @param {number} id
   */
  toggleSide(id) {
    if (id < 0 || id >= this.count) return;
    const next = new Set(this.side);
    if (!next.delete(id)) next.add(id);
    this.setSide(next);
  }

  /**
   * Shows the current scenario's network (as of now) in the network form:
   * its `network`, or the last `network` fault that has happened.
   * @param {import('../player/model.js').Playground} pg
   */
  fill(pg) {
    const scenario = JSON.parse(pg.scenario_json());
    const now = pg.now_ms();
    /** @type {{latency_ms: [number, number], drop: number, duplicate: number, fifo: boolean}} */
    let net = scenario.network;
    let latest = -1;
    for (const f of scenario.faults ?? []) {
      if (f.network && f.at_ms <= now && f.at_ms >= latest) {
        net = f.network;
        latest = f.at_ms;
      }
    }
    input('net-latency-lo').value = String(net.latency_ms[0]);
    input('net-latency-hi').value = String(net.latency_ms[1]);
    input('net-drop').value = String(net.drop);
    input('net-duplicate').value = String(net.duplicate);
    input('net-fifo').checked = net.fifo;
  }

  /**
   * Rebuilds the node lists when the number of nodes changed.
   * @param {import('../player/model.js').Snapshot} s
   */
  render(s) {
    const n = s.nodes.length;
    if (n === this.count) return;
    const keep = this.chosen();
    this.count = n;
    const names = s.nodes.map((node) => `n${node.id}`);
    const options = () =>
      names.map((name, id) => {
        const option = document.createElement('option');
        option.value = String(id);
        option.textContent = name;
        return option;
      });
    this.node.replaceChildren(...options());
    this.cutTo.replaceChildren(...options());
    this.node.value = String(keep >= 0 && keep < n ? keep : 0);
    this.cutTo.value = String(n > 1 ? 1 : 0);
    this.sideList.replaceChildren(
      ...names.map((name, id) => {
        const label = document.createElement('label');
        const box = document.createElement('input');
        box.type = 'checkbox';
        box.value = String(id);
        box.dataset.testid = `side-${id}`;
        box.addEventListener('change', () => {
          const next = new Set(this.side);
          if (box.checked) next.add(id);
          else next.delete(id);
          this.setSide(next);
        });
        label.append(box, ` ${name}`);
        return label;
      }),
    );
    this.setSide(new Set());
    this.nameButtons();
  }

  /**
   * Calls `make` on submit and injects the fault it returns (if any).
   * @private
   * @param {string} formId
   * @param {() => object | null} make
   */
  onSubmit(formId, make) {
    el(formId).addEventListener('submit', (e) => {
      e.preventDefault();
      const fault = make();
      if (fault) this.apply(fault, formId);
    });
  }

  /**
   * Injects `fault`; when the core refuses it, shows why under the input
   * of `formId` the field came from (and a line in the page's banner).
   * @private
   * @param {object} fault
   * @param {string | null} formId the form it was read from
   */
  apply(fault, formId) {
    if (this.count <= 0) return;
    clearFieldErrors(this.root);
    try {
      this.hooks.inject(fault);
    } catch (e) {
      this.refused(e, formId);
      return;
    }
    if ('partition' in fault) this.setSide(new Set());
  }

  /**
   * Shows a refused fault's error at its input, or in the banner alone
   * when no input of the form holds the field.
   * @private
   * @param {unknown} e
   * @param {string | null} formId
   */
  refused(e, formId) {
    const err = coreError(e);
    const id = formId === null || err.field === '' ? undefined : FIELD_INPUTS[formId]?.[lastKey(err.field)];
    const target = id === undefined ? null : document.getElementById(id);
    if (!target || !formId) {
      this.hooks.report(err.message);
      return;
    }
    // The message goes after the input's unit ("ms"), or after the label
    // a checkbox sits in.
    const next = target.nextElementSibling;
    const after = target.parentElement instanceof HTMLLabelElement ? target.parentElement : next instanceof HTMLSpanElement ? next : target;
    showAtField(target, err, after);
    const legend = el(formId).querySelector('legend')?.textContent ?? 'Faults';
    this.hooks.report(bannerLine(legend.replace(/\s*\(.*\)$/, ''), err));
  }

  /**
   * @private
   * @param {Set<number>} side
   */
  setSide(side) {
    this.side = side;
    for (const box of this.sideList.querySelectorAll('input')) {
      box.checked = side.has(Number(box.value));
    }
    const ids = [...side].sort((a, b) => a - b);
    el('side-count').textContent =
      ids.length === 0
        ? 'Side A: none ticked yet.'
        : ids.length <= 12
          ? `Side A: ${ids.map((id) => `n${id}`).join(', ')}.`
          : `Side A: ${ids.length} nodes.`;
    this.hooks.picked(side);
  }

  /** Names the node in the buttons: "Crash n3". @private */
  nameButtons() {
    const name = `n${this.chosen()}`;
    button('fault-crash').textContent = `Crash ${name}`;
    button('fault-recover').textContent = `Recover ${name}`;
    button('fault-pause').textContent = `Pause ${name}`;
    button('fault-slow').textContent = `Slow ${name}`;
    button('fault-flaky').textContent = `Make ${name} flaky`;
    button('fault-clock').textContent = `Set ${name}'s clock`;
    el('cut-from').textContent = name;
  }
}
