// @ts-check
/**
 * The cluster's legend of what moves on it: the message kinds (an arrow
 * in each kind's colour and mark, names from the wasm's `kinds()`) and
 * the timer classes whose countdown arcs the nodes show (the arc's dash,
 * labels from the wasm's `timer_classes()`), each swatch a small canvas
 * drawn by the cluster's own drawing code (so with the same mappings,
 * shared/palette.js); drawn again when the theme changes (the ink kind
 * follows it).
 *
 * The timers listed are the classes pending at some moment shown since
 * the run last went back in time (a restart, a seek back, another run).
 * An entry, once listed, stays until time goes back, so the list does
 * not change while playing but when a class is pending for the first
 * time: in a busy run the set pending changes many times a second, and
 * rebuilding the list each time cost the frame about 1 ms at p95 (fading
 * the entries not pending instead still cost a style and layout pass
 * every fifth frame; docs/PERFORMANCE.md), and a legend that flickers
 * cannot be read anyway. At a moment shown while the run stands still (a
 * link's `at=` once reached, a seek, a step, a pause) the list is exactly
 * the classes pending then: the way to an `at=` moment is drawn, and how
 * many moments of it are drawn depends on the machine's speed, so what
 * was pending on the way must not stay. The list keeps its line while
 * none is listed, so nothing below it moves.
 *
 * And the page's legend of roles (`roleLegend`), from the colours the
 * nodes are drawn in.
 * @module cluster/legend
 */

import { drawArrowSwatch } from './flight-dots.js';
import { drawArcSwatch } from './timer-arcs.js';
import { TIMER_CLASSES } from '../shared/names.js';
import { onAppearanceChange } from '../shared/appearance.js';
import { ROLE_COLOURS } from '../shared/palette.js';

/**
 * A small canvas with a drawing on it, at the screen's pixel ratio.
 * @param {number} width CSS px
 * @param {number} height CSS px
 * @param {string} className
 * @param {(ctx: CanvasRenderingContext2D) => void} paint
 * @returns {HTMLCanvasElement}
 */
function swatch(width, height, className, paint) {
  const canvas = document.createElement('canvas');
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * dpr);
  canvas.height = Math.round(height * dpr);
  canvas.className = className;
  canvas.setAttribute('aria-hidden', 'true');
  canvas.style.setProperty('width', `${width}px`);
  canvas.style.setProperty('height', `${height}px`);
  const ctx = canvas.getContext('2d');
  if (ctx) {
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    paint(ctx);
  }
  return canvas;
}

/**
 * A kind's arrow, drawn by the cluster's own code (flight-dots.js).
 * @param {number} index the kind's index in the run's kinds
 * @returns {HTMLCanvasElement}
 */
export function arrowSwatch(index) {
  return swatch(30, 14, 'legend-arrow', (ctx) => drawArrowSwatch(ctx, index, 30, 14));
}

/**
 * A timer class's arc on a node, drawn by the cluster's own code
 * (timer-arcs.js).
 * @param {number} code the timer class
 * @returns {HTMLCanvasElement}
 */
export function arcSwatch(code) {
  return swatch(22, 22, 'legend-arc', (ctx) => drawArcSwatch(ctx, code, 22));
}

/**
 * The timer classes pending in a moment's node rows.
 * @param {import('./node-rows.js').NodeRows} nodeRows
 * @returns {Set<number>}
 */
function pendingClasses({ rows, col }) {
  const width = Object.keys(col).length;
  const c = col.timer_class;
  /** @type {Set<number>} */
  const now = new Set();
  if (c !== undefined && width > 0) {
    for (let o = 0; o + width <= rows.length; o += width) if (rows[o + c] >= 0) now.add(rows[o + c]);
  }
  return now;
}

/**
 * The two lists of a legend, in a box laid out like the single view's
 * (`cluster-legend`), for a view made by code (compare mode, embeds):
 * short captions, as the views are small.
 * @returns {{box: HTMLDivElement, kinds: HTMLUListElement, timers: HTMLUListElement}}
 */
export function legendLists() {
  const box = document.createElement('div');
  box.className = 'cluster-legend compact-legend';
  const kinds = document.createElement('ul');
  kinds.className = 'legend';
  kinds.dataset.testid = 'view-kinds';
  kinds.dataset.caption = 'Messages';
  kinds.setAttribute('aria-label', 'Messages on the wire: an arrow from sender to receiver, coloured by kind');
  const timers = document.createElement('ul');
  timers.className = 'legend legend-empty';
  timers.dataset.testid = 'view-timers';
  timers.dataset.caption = 'Timers';
  timers.setAttribute('aria-label', "Timers: the arc on a node's rim counts down to when its next timer fires");
  box.append(kinds, timers);
  return { box, kinds, timers };
}

export class ClusterLegend {
  /**
   * @param {HTMLElement} kindsList `<ul>` of the message kinds
   * @param {HTMLElement} timersList `<ul>` of the timer classes
   */
  constructor(kindsList, timersList) {
    /** @private */
    this.kindsList = kindsList;
    /** @private */
    this.timersList = timersList;
    /** @private */
    this.kindsKey = '';
    /** Timer classes listed (pending at a moment shown since time last
     * went back). @private @type {Set<number>} */
    this.classes = new Set();
    /** The moment last shown (ms). @private */
    this.lastMs = -Infinity;
    /** The node rows last looked at. @private @type {unknown} */
    this.rowsSeen = null;
    /** Whether the run stood still at the moment last looked at. @private */
    this.still = false;
    /** The run's kinds. @private @type {string[]} */
    this.kinds = [];
    /** One entry per timer class, made once (the set pending changes many
     * times a second in a busy run; drawing fresh swatch canvases each time
     * cost every frame about 2.5 ms at p95). @private @type {Map<number, HTMLLIElement>} */
    this.timerItems = new Map();
    // The swatches in the new theme's ink.
    onAppearanceChange(() => {
      this.buildKinds(this.kinds);
      this.timerItems.clear();
      this.buildTimers();
    });
  }

  /**
   * Brings the legend up to a moment: the run's kinds; the timer classes
   * pending now, listed if they are not yet (all listed afresh when time
   * went back, the kinds changed or the run stands still).
   * @param {import('../player/model.js').Snapshot} s
   */
  update(s) {
    const key = s.kinds.join(',');
    const newKinds = key !== this.kindsKey;
    if (newKinds) {
      this.kindsKey = key;
      this.buildKinds(s.kinds);
    }
    const still = !s.playing;
    if (s.nodeRows === this.rowsSeen && !newKinds && still === this.still) return;
    this.rowsSeen = s.nodeRows;
    this.still = still;
    const wentBack = newKinds || s.nowMs < this.lastMs;
    this.lastMs = s.nowMs;
    const now = pendingClasses(s.nodeRows);
    const exact = now.size === this.classes.size && [...now].every((code) => this.classes.has(code));
    if (wentBack || (still && !exact)) {
      this.classes = now;
      this.buildTimers();
    } else if ([...now].some((code) => !this.classes.has(code))) {
      for (const code of now) this.classes.add(code);
      this.buildTimers();
    }
  }

  /**
   * @private
   * @param {string[]} kinds
   */
  buildKinds(kinds) {
    this.kinds = kinds;
    const items = kinds.map((kind, i) => {
      const li = document.createElement('li');
      li.dataset.kind = kind;
      const name = document.createElement('span');
      name.textContent = kind;
      li.append(arrowSwatch(i), name);
      return li;
    });
    this.kindsList.replaceChildren(...items);
  }

  /** @private */
  buildTimers() {
    const items = [...this.classes].sort((a, b) => a - b).map((code) => this.timerItem(code));
    this.timersList.replaceChildren(...items);
    this.timersList.classList.toggle('legend-empty', items.length === 0);
  }

  /**
   * The legend entry of timer class `code`, made on first use.
   * @private
   * @param {number} code
   * @returns {HTMLLIElement}
   */
  timerItem(code) {
    let li = this.timerItems.get(code);
    if (!li) {
      li = document.createElement('li');
      const info = TIMER_CLASSES[code];
      li.dataset.timer = info?.name ?? String(code);
      const name = document.createElement('span');
      name.textContent = info?.label ?? `timer ${code}`;
      li.append(arcSwatch(code), name);
      this.timerItems.set(code, li);
    }
    return li;
  }
}

/** Role legend entries in other words than the role's name. @type {Record<string, string>} */
const ROLE_LEGEND = {
  leader: 'leader (crown, L)',
  service: 'service (storage or coordination; not a participant)',
  observer: 'observer (follows, does not vote)',
};

/**
 * The role legend (the page's, in `list`), from the same colours the
 * canvas uses; entries already in `list` (made by an earlier call) are
 * kept.
 * @param {HTMLElement} list
 * @returns {(s: import('../player/model.js').Snapshot) => void} shows the
 *   "service" and "observer" entries only while a node of the run has
 *   that role
 */
export function roleLegend(list) {
  /** @type {Map<string, HTMLLIElement>} */
  const occasional = new Map();
  for (const [role, colour] of Object.entries(ROLE_COLOURS)) {
    // Made once: the first picture (first/picture.js) makes them before
    // the page does, which then takes them as they are.
    const made = list.querySelector(`:scope > li[data-role="${role}"]`);
    if (made instanceof HTMLLIElement) {
      if (role === 'service' || role === 'observer') occasional.set(role, made);
      continue;
    }
    const li = document.createElement('li');
    li.dataset.role = role;
    const swatch = document.createElement('span');
    swatch.className = `swatch swatch-node swatch-${role}`;
    swatch.style.setProperty('background-color', colour);
    const name = document.createElement('span');
    name.textContent = ROLE_LEGEND[role] ?? role;
    li.append(swatch, name);
    list.append(li);
    if (role === 'service' || role === 'observer') {
      li.hidden = true;
      occasional.set(role, li);
    }
  }
  return (s) => {
    for (const [role, li] of occasional) {
      const shown = s.nodes.some((n) => n.role === role);
      if (li.hidden === shown) li.hidden = !shown;
    }
  };
}
