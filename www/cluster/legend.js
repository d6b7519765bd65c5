// @ts-check
/**
 * The cluster's legend of what moves on it: the message kinds (an arrow
 * in each kind's colour and mark, names from the wasm's `kinds()`) and
 * the timer classes whose countdown arcs the nodes show (the arc's dash,
 * labels from the wasm's `timer_classes()`), drawn with the same
 * mappings as the canvas (shared/palette.js). The timers listed are the
 * classes seen pending in the run so far (an algorithm uses only a few).
 * @module cluster/legend
 */

import { NODE_INK, kindCss, kindIsLight, kindMark, timerDash } from '../shared/palette.js';
import { TIMER_CLASSES } from '../shared/names.js';

const SVG = 'http://www.w3.org/2000/svg';

/**
 * An SVG element with attributes.
 * @param {string} name
 * @param {Record<string, string | number>} attrs
 * @returns {SVGElement}
 */
function svg(name, attrs) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/**
 * A kind's arrow, as the canvas draws it (flight-dots.js), pointing right.
 * @param {number} index the kind's index in the run's kinds
 * @returns {SVGElement}
 */
export function arrowSwatch(index) {
  const root = svg('svg', { width: 30, height: 14, viewBox: '0 0 30 14', 'aria-hidden': 'true', class: 'legend-arrow' });
  const mark = kindMark(index);
  // Tail at x 4, head at x 28, half the head's width 5.
  let d = 'M4 8.7L19.5 8.7L19.5 12L28 7L19.5 2L19.5 5.3L4 5.3Z';
  if (mark === 'dot') d += 'M7.5 7A3.5 3.5 0 1 1 0.5 7A3.5 3.5 0 1 1 7.5 7Z';
  if (mark === 'bar') d += 'M2.5 2.5L5.5 2.5L5.5 11.5L2.5 11.5Z';
  const path = svg('path', { d, 'stroke-width': 1, 'stroke-linejoin': 'round' });
  const outline = kindIsLight(index) ? 'rgba(0, 0, 0, 0.6)' : '#ffffff';
  // Through the CSSOM: the page's policy refuses `style` attributes.
  /** @type {SVGElement} */ (path).style.setProperty('fill', kindCss(index));
  /** @type {SVGElement} */ (path).style.setProperty('stroke', outline);
  root.append(path);
  return root;
}

/**
 * A timer class's arc, as the canvas draws it (timer-arcs.js): three
 * quarters of a ring on a node.
 * @param {number} code the timer class
 * @returns {SVGElement}
 */
export function arcSwatch(code) {
  const root = svg('svg', { width: 18, height: 18, viewBox: '0 0 18 18', 'aria-hidden': 'true', class: 'legend-arc' });
  const w = 2.2;
  root.append(
    svg('circle', { cx: 9, cy: 9, r: 8.2, fill: '#d9d9d9', stroke: NODE_INK, 'stroke-width': 0.8 }),
    svg('circle', { cx: 9, cy: 9, r: 5.6, fill: 'none', stroke: 'rgba(255, 255, 255, 0.6)', 'stroke-width': w }),
    svg('path', {
      d: 'M9 3.4A5.6 5.6 0 1 1 3.4 9',
      fill: 'none',
      stroke: NODE_INK,
      'stroke-width': w,
      'stroke-linecap': 'round',
      'stroke-dasharray': timerDash(code).length ? timerDash(code).map((x) => x * w).join(' ') : 'none',
    }),
  );
  return root;
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
    /** Timer classes listed. @private @type {Set<number>} */
    this.classes = new Set();
    /** The node rows last looked at. @private @type {unknown} */
    this.rowsSeen = null;
  }

  /**
   * Brings the legend up to a moment: the run's kinds, and any timer
   * class pending now that is not listed yet.
   * @param {import('../player/model.js').Snapshot} s
   */
  update(s) {
    const key = s.kinds.join(',');
    if (key !== this.kindsKey) {
      this.kindsKey = key;
      this.buildKinds(s.kinds);
      // Another algorithm: its own timers.
      this.classes.clear();
      this.timersList.replaceChildren();
      this.timersList.hidden = true;
    }
    if (s.nodeRows === this.rowsSeen) return;
    this.rowsSeen = s.nodeRows;
    const { rows, col } = s.nodeRows;
    const width = Object.keys(col).length;
    const c = col.timer_class;
    if (c === undefined || width === 0) return;
    /** @type {number[]} */
    const fresh = [];
    for (let o = 0; o + width <= rows.length; o += width) {
      const code = rows[o + c];
      if (code >= 0 && !this.classes.has(code)) {
        this.classes.add(code);
        fresh.push(code);
      }
    }
    if (fresh.length > 0) this.buildTimers();
  }

  /**
   * @private
   * @param {string[]} kinds
   */
  buildKinds(kinds) {
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
    const items = [...this.classes]
      .sort((a, b) => a - b)
      .map((code) => {
        const li = document.createElement('li');
        const info = TIMER_CLASSES[code];
        li.dataset.timer = info?.name ?? String(code);
        const name = document.createElement('span');
        name.textContent = info?.label ?? `timer ${code}`;
        li.append(arcSwatch(code), name);
        return li;
      });
    this.timersList.replaceChildren(...items);
    this.timersList.hidden = false;
  }
}
