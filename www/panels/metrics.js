// @ts-check
/**
 * The metrics panel, live as the run plays: messages by purpose (election
 * or background, docs/ARCHITECTURE.md, Counting rules) and by kind, time to
 * the first leader, time without a leader and with several (split brain),
 * elections and leader changes, writes to a fenced resource (for the
 * algorithms that have one), and the recovery after the last fault.
 *
 * Every number is the core's own counter, read in one typed array per
 * frame (`Playground.metric_values`), so the panel shows what
 * `election run --json` prints for the same moment: each value element
 * has a `data-testid` (`metric-election`, `metric-leaderless-ms`, ...)
 * and holds the plain number, units beside it.
 * @module metrics
 */

import { kindColour, kindLabel } from '../shared/palette.js';
import { setText } from '../shared/dom.js';

/**
 * Column index of each name in a list of column names.
 * @param {string[]} names
 * @returns {Record<string, number>}
 */
function columns(names) {
  return Object.fromEntries(names.map((name, i) => [name, i]));
}

/**
 * One readout: label, value, unit.
 * @typedef {object} Readout
 * @property {string} field column of the metric row
 * @property {string} testid
 * @property {string} label
 * @property {string} [unit]
 * @property {string} [title] longer explanation
 * @property {string} [none] text when the value is -1
 */

/** @type {{title: string, id: string, items: Readout[]}[]} */
const GROUPS = [
  {
    title: 'Messages',
    id: 'messages',
    items: [
      { field: 'sent', testid: 'metric-sent', label: 'Sent', title: 'Every message a node sent; lost ones count too' },
      { field: 'election', testid: 'metric-election', label: 'for elections', title: 'Messages that exist to choose a leader' },
      { field: 'background', testid: 'metric-background', label: 'background', title: 'Heartbeats, lease renewals, session pings' },
      { field: 'background_rate', testid: 'metric-background-rate', label: 'background per second', unit: '/s' },
      { field: 'delivered', testid: 'metric-delivered', label: 'Delivered' },
      { field: 'dropped', testid: 'metric-dropped', label: 'Lost' },
      { field: 'duplicated', testid: 'metric-duplicated', label: 'Duplicated' },
      { field: 'in_flight', testid: 'metric-in-flight', label: 'On the wire now' },
    ],
  },
  {
    title: 'Leadership',
    id: 'leadership',
    items: [
      { field: 'first_leader_ms', testid: 'metric-first-leader-ms', label: 'First leader after', unit: 'ms', none: 'none yet' },
      { field: 'leaderless_ms', testid: 'metric-leaderless-ms', label: 'Time without a leader', unit: 'ms' },
      { field: 'split_brain_ms', testid: 'metric-split-brain-ms', label: 'Time with several leaders', unit: 'ms', title: 'Split brain: more than one live node leads' },
      { field: 'elections', testid: 'metric-elections', label: 'Elections started', title: 'Each node that starts one counts' },
      { field: 'leader_changes', testid: 'metric-leader-changes', label: 'Leader changes', title: 'Leadership passed to another node (the first leader is not a change)' },
    ],
  },
  {
    title: 'Recovery',
    id: 'recovery',
    items: [
      { field: 'last_fault_ms', testid: 'metric-last-fault-ms', label: 'Last fault at', unit: 'ms', none: 'no fault (from the start)' },
      { field: 'recovery_ms', testid: 'metric-recovery-ms', label: 'Settled again after', unit: 'ms', none: 'not yet', title: 'Until every live node follows its side’s one live leader' },
      { field: 'recovery_election_messages', testid: 'metric-recovery-messages', label: 'Election messages it took', none: 'not yet' },
    ],
  },
  {
    title: 'Writes to the storage service',
    id: 'writes',
    items: [
      { field: 'writes_accepted', testid: 'metric-writes-accepted', label: 'Applied' },
      { field: 'writes_rejected', testid: 'metric-writes-rejected', label: 'Rejected (stale token)', title: 'Fencing turned away an old leader' },
      { field: 'stale_writes_accepted', testid: 'metric-stale-writes', label: 'Stale ones applied', title: 'An old leader got through: only without fencing' },
    ],
  },
];

export class MetricsPanel {
  /**
   * @param {HTMLElement} root where the panel builds its readouts
   * @param {string[]} fields `metric_fields()`
   */
  constructor(root, fields) {
    this.root = root;
    /** @private */
    this.col = columns(fields);
    /** @private @type {Map<string, HTMLElement>} */
    this.values = new Map();
    /** @private @type {Map<string, HTMLElement>} the unit after each value that has one */
    this.units = new Map();
    /** @private @type {Map<string, HTMLElement>} */
    this.groups = new Map();
    /** @private */
    this.kindsKey = '';
    /** @private @type {{li: HTMLElement, count: HTMLElement, bar: HTMLElement}[]} */
    this.kindRows = [];
    /** @private */
    this.kindList = document.createElement('ul');
    this.kindList.className = 'metric-kinds';
    this.kindList.setAttribute('aria-label', 'Messages sent by kind');
    this.build();
  }

  /** @private */
  build() {
    /** @type {HTMLElement[]} */
    const parts = [];
    for (const group of GROUPS) {
      const box = document.createElement('div');
      box.className = 'metric-group';
      const h = document.createElement('h3');
      h.textContent = group.title;
      const dl = document.createElement('dl');
      dl.className = 'readouts metric-list';
      for (const item of group.items) {
        const dt = document.createElement('dt');
        dt.textContent = item.label;
        if (item.title) dt.title = item.title;
        const dd = document.createElement('dd');
        const value = document.createElement('span');
        value.className = 'mono';
        value.dataset.testid = item.testid;
        value.textContent = '0';
        dd.append(value);
        if (item.unit) {
          // The unit follows a number only: "no fault (from the start)"
          // takes none (it read "... (from the start) ms").
          const unit = document.createElement('span');
          unit.textContent = ` ${item.unit}`;
          dd.append(unit);
          this.units.set(item.field, unit);
        }
        dl.append(dt, dd);
        this.values.set(item.field, value);
      }
      box.append(h, dl);
      if (group.id === 'messages') {
        const kh = document.createElement('h3');
        kh.textContent = 'By kind';
        box.append(kh, this.kindList);
      }
      this.groups.set(group.id, box);
      parts.push(box);
    }
    this.root.replaceChildren(...parts);
  }

  /**
   * @param {import('../player/model.js').Model} model
   * @param {import('../player/model.js').Snapshot} snapshot for the message kinds
   */
  render(model, snapshot) {
    const pg = model.playground;
    const row = pg.metric_values();
    const c = this.col;
    const nowMs = pg.now_ms();
    /** @type {Record<string, number>} */
    const v = {};
    for (const [name, i] of Object.entries(c)) v[name] = row[i];
    v.background_rate = nowMs > 0 ? Math.round((v.background / nowMs) * 1000 * 10) / 10 : 0;
    for (const group of GROUPS) {
      for (const item of group.items) {
        const el = this.values.get(item.field);
        const value = v[item.field];
        if (!el || value === undefined) continue;
        setText(el, value < 0 ? (item.none ?? 'none') : String(value));
        const unit = this.units.get(item.field);
        if (unit) setText(unit, value < 0 ? '' : ` ${item.unit}`);
      }
    }
    const writes = this.groups.get('writes');
    if (writes && writes.hidden === (v.has_resource === 1)) writes.hidden = v.has_resource !== 1;
    this.renderKinds(snapshot.kinds, snapshot.sentByKind, v.sent);
  }

  /**
   * @private
   * @param {string[]} kinds
   * @param {ArrayLike<number>} counts
   * @param {number} total
   */
  renderKinds(kinds, counts, total) {
    const key = kinds.join(',');
    if (key !== this.kindsKey) {
      this.kindsKey = key;
      this.kindRows = kinds.map((kind, i) => {
        const li = document.createElement('li');
        const [swatch, name] = kindLabel(kind, i);
        const track = document.createElement('span');
        track.className = 'metric-bar';
        track.setAttribute('aria-hidden', 'true');
        const bar = document.createElement('span');
        bar.style.setProperty('background-color', kindColour(i));
        track.append(bar);
        const count = document.createElement('span');
        count.className = 'kind-count';
        count.dataset.testid = `metric-kind-${kind}`;
        li.append(swatch, name, track, count);
        return { li, count, bar };
      });
      this.kindList.replaceChildren(...this.kindRows.map((r) => r.li));
    }
    for (let i = 0; i < this.kindRows.length; i++) {
      const n = counts[i] ?? 0;
      setText(this.kindRows[i].count, String(n));
      const width = `${total > 0 ? Math.round((n / total) * 100) : 0}%`;
      if (this.kindRows[i].bar.style.getPropertyValue('width') !== width) {
        this.kindRows[i].bar.style.setProperty('width', width);
      }
    }
  }
}
