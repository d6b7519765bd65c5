// @ts-check
/**
 * The fault timeline editor: every fault of the scenario (scheduled in
 * the file or made by clicking) as a marker on a strip under the
 * scrubber and as a row in a list, where it can be moved to another time
 * (drag the marker, press its arrow keys, or type the time) or deleted;
 * and a small form that adds one (kind, node or the leader, time,
 * parameters) without writing JSON.
 *
 * An edit changes the scenario's `faults` array and nothing else; the page
 * then builds a new run from the edited scenario (the core validates it,
 * naming the field when a value is wrong, and the current run stays),
 * reopens it at the same moment and puts it into the share link. The
 * editor never judges a value itself; a refused one is shown in plain
 * words under the input it came from (the add form's parameter, or the
 * row's time), and the input keeps what was typed.
 * @module fault-editor
 */

import { valueOf } from './faults.js';
import { niceStep } from '../player/timeline.js';
import { h } from '../shared/dom.js';
import { bannerLine, clearFieldErrors, coreError, lastKey, showAtField } from './field-errors.js';

/**
 * One scenario fault object, as in the scenario file.
 * @typedef {Record<string, unknown> & {at_ms: number}} FaultJson
 */

/**
 * What the editor needs from the page.
 * @typedef {object} EditorHooks
 * @property {import('../player/model.js').Model} model
 * @property {() => number} scale the scrubber's full length, ms
 * @property {(faults: object[]) => void} rebuild run the current
 *   scenario with these faults instead, at the current time; throws the
 *   core's error when it refuses them (the current run stays)
 * @property {(message: string) => void} report show a line in the page's
 *   error banner
 */

/**
 * A parameter field of a fault kind: JSON key, label, default value.
 * @typedef {[string, string, string]} ParamSpec
 */

/**
 * The fault kinds the form offers: what they act on and their parameters
 * (the same keys and defaults as the Faults panel).
 * @type {Record<string, {target: 'node' | 'link' | 'side' | 'none', params: ParamSpec[]}>}
 */
const KINDS = {
  crash: { target: 'node', params: [] },
  recover: { target: 'node', params: [] },
  pause: { target: 'node', params: [['for_ms', 'for (ms)', '500']] },
  slow: { target: 'node', params: [['extra_ms', 'extra per message (ms)', '20']] },
  flaky: {
    target: 'node',
    params: [
      ['period_ms', 'every (ms)', '400'],
      ['down_ms', 'down (ms)', '100'],
      ['for_ms', 'for (ms, blank: to the end)', '2000'],
    ],
  },
  clock: {
    target: 'node',
    params: [
      ['offset_ms', 'offset (ms)', '300'],
      ['drift', 'drift (0.05 = 5% fast)', '0.05'],
    ],
  },
  partition: { target: 'side', params: [] },
  heal: { target: 'none', params: [] },
  cut: { target: 'link', params: [] },
  uncut: { target: 'link', params: [] },
  network: {
    target: 'none',
    params: [
      ['latency_lo', 'latency from (ms)', '5'],
      ['latency_hi', 'latency to (ms)', '10'],
      ['drop', 'drop (0 to 1)', '0'],
      ['duplicate', 'duplicate (0 to 1)', '0'],
    ],
  },
};

/**
 * The kind of a fault object: its key other than `at_ms` that names a
 * fault (`crash`, `pause`, ...).
 * @param {Record<string, unknown>} fault
 * @returns {string}
 */
export function kindOf(fault) {
  return Object.keys(fault).find((k) => k in KINDS) ?? '?';
}

/**
 * A value in a few characters: node ids as `n3`, lists as `[0, 1]`.
 * @param {unknown} v
 * @returns {string}
 */
function short(v) {
  if (Array.isArray(v)) return `[${v.map(short).join(', ')}]`;
  if (v !== null && typeof v === 'object') {
    return Object.entries(v)
      .map(([k, x]) => `${k} ${short(x)}`)
      .join(', ');
  }
  return String(v);
}

/**
 * A fault without its time, in words: `pause n3 · for_ms 500`.
 * @param {Record<string, unknown>} fault
 * @returns {string}
 */
export function faultText(fault) {
  const kind = kindOf(fault);
  const target = fault[kind];
  let head = kind;
  if (typeof target === 'number') head += ` n${target}`;
  else if (target === 'leader') head += ' the leader';
  else if ((kind === 'cut' || kind === 'uncut') && Array.isArray(target)) head += ` n${target[0]} → n${target[1]}`;
  else if (kind === 'partition') head += ` ${short(target)} | the rest`;
  else if (kind === 'network') head += ` ${short(target)}`;
  const params = Object.entries(fault)
    .filter(([k]) => k !== 'at_ms' && k !== kind)
    .map(([k, v]) => `${k} ${short(v)}`);
  return [head, ...params].join(' · ');
}

/**
 * Node ids as a list of numbers where they read as numbers: `0, 1 2` is
 * `[0, 1, 2]` (anything else is kept as typed for the core to name).
 * @param {string} text
 * @returns {(number | string)[]}
 */
function idList(text) {
  return text
    .split(/[\s,]+/)
    .filter((t) => t !== '')
    .map((t) => (/^\d+$/.test(t) ? Number(t) : t));
}

export class FaultEditor {
  /**
   * Builds the editor in `root` (under the scrubber: index.html's, with
   * the strip and the closed list, or an empty element).
   * @param {HTMLElement} root
   * @param {EditorHooks} hooks
   */
  constructor(root, hooks) {
    this.hooks = hooks;
    root.classList.add('fault-editor');
    // The strip and the closed "Fault timeline" are in index.html's markup
    // (the first paint has the page's final layout, issue 30); made here
    // where they are not.
    this.strip = /** @type {HTMLElement} */ (
      root.querySelector(':scope > .fe-strip') ??
      h('div', {
        class: 'fe-strip',
        role: 'group',
        'aria-label': 'Scheduled faults on the time axis: drag a marker or use its arrow keys to move it',
        'data-testid': 'fault-strip',
      })
    );
    this.details = /** @type {HTMLDetailsElement} */ (root.querySelector(':scope > details.fe-details') ?? h('details', { class: 'fe-details' }));
    this.summary = /** @type {HTMLElement} */ (this.details.querySelector(':scope > summary') ?? h('summary', {}, 'Fault timeline'));
    this.list = h('ol', { class: 'fe-list', 'data-testid': 'fault-list', 'aria-label': 'Scheduled faults' });
    this.empty = h('p', { class: 'note' }, 'No faults yet: add one below, or make one in the Faults panel.');

    // The form's controls.
    this.kind = h('select', { id: 'fe-kind', 'data-testid': 'fault-kind' });
    for (const kind of Object.keys(KINDS)) this.kind.append(h('option', { value: kind }, kind));
    this.target = h('select', { id: 'fe-target', 'data-testid': 'fault-target' });
    this.to = h('select', { id: 'fe-to', 'data-testid': 'fault-to' });
    this.side = h('input', { id: 'fe-side', type: 'text', inputmode: 'numeric', placeholder: '0, 1, 2', 'data-testid': 'fault-side' });
    this.at = h('input', { id: 'fe-at', type: 'number', step: 'any', inputmode: 'decimal', min: '0', placeholder: 'now', 'data-testid': 'fault-at' });
    this.params = h('div', { class: 'fe-params' });
    this.targetLabel = h('label', { for: 'fe-target' }, 'Node');
    this.targetField = this.field(this.targetLabel, this.target);
    this.toField = this.field(h('label', { for: 'fe-to' }, 'to'), this.to);
    this.sideField = this.field(h('label', { for: 'fe-side' }, 'Side A (ids; the rest is side B)'), this.side);

    this.details.append(this.summary, this.list, this.empty, this.buildForm());
    if (!this.strip.isConnected) root.append(this.strip, this.details);

    /** What the list was built from. @private */
    this.key = '';
    /** @private @type {FaultJson[]} */
    this.faults = [];
    /** Node count the target lists were built for. @private */
    this.nodeCount = -1;
    /** Where the focus goes after the next rebuild. @private @type {{index: number, what: 'marker' | 'time'} | null} */
    this.refocus = null;
    /** A marker being dragged. @private @type {{index: number, x0: number, moved: boolean, ms: number} | null} */
    this.drag = null;
    /** Whether the last press on a marker dragged it (its click is not a click). @private */
    this.dragged = false;
    /** ms across the strip (the scrubber's scale). @private */
    this.scale = 1;
  }

  /** @private @returns {HTMLFormElement} */
  buildForm() {
    const form = h('form', { class: 'fe-add', 'data-testid': 'fault-add' });
    const set = h('fieldset');
    set.append(h('legend', {}, 'Add a fault'));
    const add = h('button', { type: 'submit', 'data-testid': 'fault-add-button' }, 'Add fault');
    set.append(
      this.field(h('label', { for: 'fe-kind' }, 'Kind'), this.kind),
      this.targetField,
      this.toField,
      this.sideField,
      this.field(h('label', { for: 'fe-at' }, 'At (ms, blank: now)'), this.at),
      this.params,
      add,
    );
    form.append(set);
    this.kind.addEventListener('change', () => this.showKind());
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.add();
    });
    this.showKind();
    return form;
  }

  /**
   * A label and its control, kept together.
   * @private
   * @param {HTMLLabelElement} label
   * @param {HTMLElement} control
   */
  field(label, control) {
    const wrap = h('span', { class: 'fe-field' });
    wrap.append(label, control);
    return wrap;
  }

  /** Shows the target and parameter fields of the chosen kind. @private */
  showKind() {
    const spec = KINDS[this.kind.value];
    this.targetField.hidden = spec.target === 'none' || spec.target === 'side';
    this.targetLabel.textContent = spec.target === 'link' ? 'From' : 'Node';
    this.toField.hidden = spec.target !== 'link';
    this.sideField.hidden = spec.target !== 'side';
    // A link runs between two nodes; "the leader" is for node faults only.
    const leader = this.target.querySelector('option[value="leader"]');
    if (leader instanceof HTMLOptionElement) {
      leader.hidden = spec.target === 'link';
      if (spec.target === 'link' && this.target.value === 'leader') this.target.value = '0';
    }
    this.params.replaceChildren(
      ...spec.params.map(([key, label, value]) => {
        const input = h('input', { id: `fe-p-${key}`, type: 'number', step: 'any', inputmode: 'decimal', 'data-param': key });
        input.value = value;
        return this.field(h('label', { for: `fe-p-${key}` }, label), input);
      }),
    );
  }

  /** Reads the form into a fault and adds it. @private */
  add() {
    const kind = this.kind.value;
    const spec = KINDS[kind];
    const atText = this.at.value.trim();
    /** @type {Record<string, unknown>} */
    const fault = { at_ms: atText === '' ? this.hooks.model.nowMs : valueOf(this.at) };
    /** @type {Record<string, number | string>} */
    const p = {};
    for (const input of this.params.querySelectorAll('input')) {
      if (input.value.trim() !== '') p[input.dataset.param ?? ''] = valueOf(input);
    }
    const node = this.target.value === 'leader' ? 'leader' : Number(this.target.value);
    if (spec.target === 'node') fault[kind] = node;
    else if (spec.target === 'link') fault[kind] = [node, Number(this.to.value)];
    else if (spec.target === 'side') fault[kind] = [idList(this.side.value)];
    else if (kind === 'heal') fault[kind] = true;
    if (kind === 'network') {
      /** @type {Record<string, unknown>} */
      const net = {};
      if ('latency_lo' in p || 'latency_hi' in p) net.latency_ms = [p.latency_lo ?? '', p.latency_hi ?? ''];
      if ('drop' in p) net.drop = p.drop;
      if ('duplicate' in p) net.duplicate = p.duplicate;
      fault.network = net;
    } else {
      Object.assign(fault, p);
    }
    if (this.tryRebuild([...this.faults, fault])) this.at.value = '';
  }

  /**
   * Runs the scenario with `faults`; when the core refuses them, shows
   * why under the input the field came from.
   * @private
   * @param {object[]} faults
   * @returns {boolean} whether the run was rebuilt
   */
  tryRebuild(faults) {
    clearFieldErrors(this.details);
    try {
      this.hooks.rebuild(faults);
      return true;
    } catch (e) {
      const err = coreError(e);
      const target = this.inputFor(err.field);
      if (target) {
        if (target.closest('li')) this.details.open = true;
        showAtField(target, err, target.closest('.fe-field, .fe-when') ?? target);
        this.hooks.report(`${bannerLine('Fault timeline', err)} The run is unchanged.`);
      } else {
        this.hooks.report(`Fault timeline: ${err.message}. The run is unchanged.`);
      }
      return false;
    }
  }

  /**
   * The input a refused field came from: `faults[i].at_ms` of a listed
   * fault is its row's time; a field of the fault being added is the add
   * form's input for it.
   * @private
   * @param {string} field
   * @returns {HTMLElement | null}
   */
  inputFor(field) {
    const m = /^faults\[(\d+)\]\.?(.*)$/.exec(field);
    if (!m) return null;
    const index = Number(m[1]);
    const key = lastKey(m[2]);
    if (index < this.faults.length) {
      if (key !== 'at_ms') return null;
      const time = this.list.querySelector(`li[data-index="${index}"] input`);
      return time instanceof HTMLElement ? time : null;
    }
    if (key === 'at_ms') return this.at;
    if (key === 'partition') return this.side;
    if (key === 'cut' || key === 'uncut') return this.to;
    if (key in KINDS) return this.target;
    const param = { 'latency_ms[0]': 'latency_lo', 'latency_ms[1]': 'latency_hi', latency_ms: 'latency_hi' }[key] ?? key;
    const input = this.params.querySelector(`input[data-param="${param}"]`);
    return input instanceof HTMLElement ? input : null;
  }

  /**
   * Moves fault `index` to `ms`.
   * @param {number} index
   * @param {number | string} ms
   * @param {'marker' | 'time'} focus where the focus returns
   */
  move(index, ms, focus) {
    const faults = this.faults.map((f, i) => (i === index ? { ...f, at_ms: ms } : f));
    this.refocus = { index, what: focus };
    if (!this.tryRebuild(faults)) this.refocus = null;
  }

  /**
   * Deletes fault `index`.
   * @param {number} index
   */
  remove(index) {
    const faults = this.faults.filter((_, i) => i !== index);
    this.refocus = faults.length > 0 ? { index: Math.min(index, faults.length - 1), what: 'time' } : null;
    if (!this.tryRebuild(faults)) this.refocus = null;
  }

  /** Brings the strip, the list and the form up to date (cheap when nothing changed). */
  render() {
    const model = this.hooks.model;
    const pg = model.playground;
    const scale = Math.max(this.hooks.scale(), 1);
    if (this.drag) return;
    // The scenario changes only with a new run or a new fault (both bump
    // the revision); reading it is skipped otherwise.
    const key = `${model.revision}|${pg.fault_count()}`;
    if (key !== this.key) {
      this.key = key;
      // Nodes change only with a new run (a new revision), so the node
      // rows are not read every frame.
      const nodes = model.nodeTotal();
      if (nodes !== this.nodeCount) this.fillTargets(nodes);
      this.scale = scale;
      this.faults = JSON.parse(pg.scenario_json()).faults ?? [];
      this.build();
    } else if (scale !== this.scale) {
      this.scale = scale;
      this.place();
    }
  }

  /** Puts the markers where their times are on the scrubber's scale. @private */
  place() {
    for (const marker of this.strip.querySelectorAll('.fe-marker')) {
      const f = this.faults[Number(/** @type {HTMLElement} */ (marker).dataset.index)];
      if (f) /** @type {HTMLElement} */ (marker).style.setProperty('left', `${Math.min(100, (100 * f.at_ms) / this.scale)}%`);
    }
  }

  /**
   * The node choices of the form.
   * @private
   * @param {number} nodes
   */
  fillTargets(nodes) {
    this.nodeCount = nodes;
    const keep = this.target.value;
    const keepTo = this.to.value;
    const ids = Array.from({ length: nodes }, (_, i) => h('option', { value: String(i) }, `n${i}`));
    this.target.replaceChildren(h('option', { value: 'leader' }, 'the leader (at that time)'), ...ids);
    this.to.replaceChildren(...ids.map((o) => /** @type {HTMLOptionElement} */ (o.cloneNode(true))));
    this.target.value = keep !== '' && (keep === 'leader' || Number(keep) < nodes) ? keep : 'leader';
    this.to.value = keepTo !== '' && Number(keepTo) < nodes ? keepTo : String(Math.min(1, nodes - 1));
    this.showKind();
  }

  /**
   * Rebuilds the markers and the rows from `this.faults`.
   * @private
   */
  build() {
    const scale = this.scale;
    const n = this.faults.length;
    this.summary.textContent = `Fault timeline: ${n} fault${n === 1 ? '' : 's'}`;
    this.empty.hidden = n > 0;
    // Rows in time order (ties in scenario order, as the engine applies them).
    const order = this.faults.map((_, i) => i).sort((a, b) => this.faults[a].at_ms - this.faults[b].at_ms || a - b);
    this.strip.replaceChildren(
      ...order.map((i) => {
        const f = this.faults[i];
        const words = `${faultText(f)} at ${f.at_ms} ms`;
        const marker = h('button', {
          type: 'button',
          class: `fe-marker fe-${kindOf(f)}`,
          'data-index': String(i),
          'data-testid': 'fault-marker',
          'aria-label': `${words}. Arrow keys move it, Delete removes it.`,
          title: words,
        });
        marker.style.setProperty('left', `${Math.min(100, (100 * f.at_ms) / scale)}%`);
        this.wireMarker(marker, i);
        return marker;
      }),
    );
    this.list.replaceChildren(
      ...order.map((i) => {
        const f = this.faults[i];
        const row = h('li', { 'data-testid': 'fault-row', 'data-index': String(i) });
        const text = h('span', { class: 'fe-text', 'data-testid': 'fault-text' }, faultText(f));
        const id = `fe-time-${i}`;
        const time = h('input', {
          id,
          type: 'number',
          step: 'any',
          min: '0',
          inputmode: 'decimal',
          'data-testid': 'fault-time',
        });
        time.value = String(f.at_ms);
        time.addEventListener('change', () => this.move(i, valueOf(time), 'time'));
        const del = h('button', { type: 'button', 'data-testid': 'fault-delete', 'aria-label': `Delete ${faultText(f)} at ${f.at_ms} ms` }, 'Delete');
        del.addEventListener('click', () => this.remove(i));
        const when = h('span', { class: 'fe-when' });
        when.append(h('label', { for: id }, 'at'), time, h('span', {}, 'ms'));
        row.append(text, when, del);
        return row;
      }),
    );
    const again = this.refocus;
    this.refocus = null;
    if (again) {
      const sel = again.what === 'marker' ? `.fe-marker[data-index="${again.index}"]` : `li[data-index="${again.index}"] input`;
      const target = (again.what === 'marker' ? this.strip : this.list).querySelector(sel);
      if (again.what === 'time') this.details.open = true;
      if (target instanceof HTMLElement) target.focus();
    }
  }

  /**
   * Dragging and keys of one marker.
   * @private
   * @param {HTMLButtonElement} marker
   * @param {number} index
   */
  wireMarker(marker, index) {
    const msAt = (/** @type {number} */ clientX) => {
      const scale = this.scale;
      const box = this.strip.getBoundingClientRect();
      const share = Math.min(1, Math.max(0, (clientX - box.left) / Math.max(box.width, 1)));
      return Math.round(share * scale);
    };
    marker.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      marker.setPointerCapture(e.pointerId);
      this.drag = { index, x0: e.clientX, moved: false, ms: this.faults[index].at_ms };
    });
    marker.addEventListener('pointermove', (e) => {
      const d = this.drag;
      if (!d || d.index !== index) return;
      if (Math.abs(e.clientX - d.x0) > 3) d.moved = true;
      if (!d.moved) return;
      d.ms = msAt(e.clientX);
      marker.style.setProperty('left', `${(100 * d.ms) / this.scale}%`);
      marker.title = `${faultText(this.faults[index])} at ${d.ms} ms`;
    });
    const end = () => {
      const d = this.drag;
      this.drag = null;
      if (!d || d.index !== index) return;
      this.dragged = d.moved;
      if (d.moved) this.move(index, d.ms, 'marker');
    };
    marker.addEventListener('pointerup', end);
    marker.addEventListener('pointercancel', () => {
      this.drag = null;
      this.key = '';
    });
    marker.addEventListener('click', () => {
      // A click without a drag: edit it in the list.
      if (this.dragged) {
        this.dragged = false;
        return;
      }
      this.details.open = true;
      const input = this.list.querySelector(`li[data-index="${index}"] input`);
      if (input instanceof HTMLElement) input.focus();
    });
    marker.addEventListener('keydown', (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const step = niceStep(this.scale / 50);
      const at = this.faults[index].at_ms;
      if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
        const to = e.key === 'ArrowLeft' ? Math.max(0, at - step) : at + step;
        this.move(index, Math.round(to * 1000) / 1000, 'marker');
      } else if (e.key === 'Delete' || e.key === 'Backspace') {
        this.remove(index);
      } else {
        return;
      }
      // Not also a page shortcut (→ steps the run).
      e.preventDefault();
      e.stopPropagation();
    });
  }
}
