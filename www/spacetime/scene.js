// @ts-check
/**
 * The space-time (Lamport) diagram's drawing: one horizontal line per
 * node, time running left to right, an arrow for each message from its
 * send to its delivery (a lost one ends in a cross on its own line where
 * the core lost it: when it would have arrived, just short of the
 * receiver's line, see `lostEnd`), and marks
 * for what happened on each node: timers firing, elections started, role
 * changes (a dot in the role's colour; the line is thick and coloured
 * while a node leads or runs for leader), crashes (the line is dashed
 * grey while the node is down), recoveries and pauses (dotted while
 * paused); property violations and partitions are vertical lines across
 * all nodes.
 *
 * The data is the core's recorded trace (see shared/trace.js); nothing
 * about an algorithm is worked out here. Drawing is in two steps, so
 * other renderers reuse the first: `buildScene` turns the trace rows of
 * the visible window into plain drawing data (lines, arrows, marks, in
 * CSS pixels), `paintScene` (and its parts) puts that on a canvas. Only
 * the visible window is read, and the number of arrows and marks drawn
 * per frame is capped (thinned evenly beyond the cap). Used by the view
 * (view.js), the layer that follows a playing run (live.js) and the SVG
 * export (svg.js); it imports none of them.
 * @module spacetime/scene
 */

import { CANVAS, CUT, FAINT, INK, MUTED, PAPER, ROLE_COLOURS, kindColour, kindDash } from '../shared/palette.js';
import { ROLE } from '../shared/names.js';
import { TraceStore } from '../shared/trace.js';

/** Most message arrows drawn per frame; more are thinned evenly. */
export const MAX_ARROWS = 2500;

/** Most lines of messages the trace stopped recording before their fate
 * settled into the layer by one piece of a bake (see `Delta`): 1,307 of
 * them, a dense band, took 15 ms to rasterize at once (so 128 take
 * about 1.5 ms, by proportion). */
const STALE_PER_PIECE = 128;
/**
 * Most trace rows a frame looks at closely; in a busier window only every
 * k-th message (by id) and timer is drawn, so the work per frame stays
 * bounded however busy the run.
 */
export const ROW_BUDGET = 20_000;
/** Most marks of one sort drawn per frame. */
const MAX_MARKS = 3000;
/** Width of the node label column, CSS px. */
export const GUTTER = 44;
/** Height of the time axis above the rows. */
export const AXIS = 32;
export const PAD_RIGHT = 10;
const PAD_BOTTOM = 6;
/** Tallest and shortest row per node. */
export const ROW_MAX = 26;
const ROW_MIN = 2;
/** Alpha of what is known to come after now (seen before going back). */
const FUTURE_ALPHA = 0.28;
/** Longest window a new run opens with, ms ("Whole run" shows more). */
export const DEFAULT_SPAN_MAX = 4000;
/** Where "now" sits in a following window, as a share of the span. */
export const FOLLOW_AT = 0.9;
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
/** The time axis's font (as a canvas says it back). Setting a canvas's
 * font, even to the one it has, makes the browser bring the page's styles
 * up to date first (a forced style recalculation in the middle of a
 * frame): it is set only when the canvas has another. */
export const AXIS_FONT = `11px ${FONT}`;
const ACCENT = '#0072B2';

/** Spans the zoom steps through, ms (1, 2, 5 x 10^k). */
export const SPANS = (() => {
  /** @type {number[]} */
  const out = [];
  for (let e = -1; e <= 5; e++) for (const m of [1, 2, 5]) out.push(m * 10 ** e);
  return out.filter((s) => s >= 0.5 && s <= 120_000);
})();

/**
 * The smallest zoom step that holds `ms`.
 * @param {number} ms
 * @returns {number}
 */
export function spanFor(ms) {
  return SPANS.find((s) => s >= ms) ?? SPANS[SPANS.length - 1];
}

/**
 * "250 ms", "1.5 s", "0.5 ms".
 * @param {number} ms
 * @returns {string}
 */
export function formatSpan(ms) {
  if (ms >= 1000) return `${Number((ms / 1000).toPrecision(3))} s`;
  return `${Number(ms.toPrecision(3))} ms`;
}

/**
 * Time axis step: 1, 2 or 5 x 10^k ms, about `px` pixels apart.
 * @param {number} span
 * @param {number} width
 * @param {number} px
 * @returns {number}
 */
function tickStep(span, width, px) {
  const raw = (span * px) / Math.max(width, 1);
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

/**
 * The window of time shown.
 * @typedef {object} TimeWindow
 * @property {number} t0 ms at the left edge of the plot
 * @property {number} span ms across the plot
 */

/**
 * Where things go, CSS px.
 * @typedef {object} Frame
 * @property {number} width
 * @property {number} height
 * @property {number} left plot's left edge
 * @property {number} top plot's top edge (below the axis)
 * @property {number} plotWidth
 * @property {number} rowHeight
 * @property {number} nodes rows
 */

/**
 * One stretch of a node's line.
 * @typedef {object} Segment
 * @property {number} x1
 * @property {number} x2
 * @property {number} y
 * @property {'follower' | 'candidate' | 'leader' | 'service' | 'crashed' | 'paused'} style
 * @property {boolean} future
 */

/**
 * Everything to draw for one window, in CSS px: what a renderer needs,
 * nothing more.
 * @typedef {object} Scene
 * @property {Frame} frame
 * @property {TimeWindow} window
 * @property {number} nowX x of now (may be outside the plot)
 * @property {{x: number, label: string}[]} ticks
 * @property {Segment[]} segments
 * @property {number} arrowCount arrows in `arrows`
 * @property {Float32Array} arrows x1, y1, x2, y2 per arrow
 * @property {Int16Array} arrowKind message kind per arrow
 * @property {Uint8Array} arrowFlags per arrow: 1 lost (ends in a cross), 2
 *   known future, 4 still on the wire (no head yet)
 * @property {number} messagesInWindow arrows before thinning
 * @property {number} lost lost messages drawn
 * @property {LostMark[]} crosses the lost messages' crosses (the first
 *   `MAX_LISTED_CROSSES`, known past ones only): the drawing model tests read
 * @property {{x: number, y: number}[]} timers
 * @property {{x: number, y: number}[]} elections
 * @property {{x: number, y: number, role: number, future: boolean}[]} roles
 * @property {{x: number, y: number, up: boolean, future: boolean}[]} crashes
 * @property {{x: number, y: number, future: boolean}[]} pauses
 * @property {{x: number, label: string, kind: 'violation' | 'partition' | 'heal', future: boolean}[]} rules
 * @property {boolean} thinned whether arrows or marks were left out
 * @property {string[]} kinds message kind names
 * @property {number} [dashPhase] for drawings added to frame by frame: x
 *   of time 0 from this scene's origin, so dashed lines drawn in pieces
 *   keep one pattern
 */

/**
 * Where a lost message's cross is drawn, and on what line: from its send
 * (`x1`, `y1`, on the sender's line) towards the receiver's line at the
 * moment it was lost (`xEnd`, `yEnd`).
 * @typedef {object} LostMark
 * @property {number} x
 * @property {number} y
 * @property {number} x1
 * @property {number} y1
 * @property {number} xEnd
 * @property {number} yEnd
 * @property {number} from sender
 * @property {number} to receiver
 * @property {number} lostMs when the core lost it
 */

/** Lost messages listed in `Scene.crosses` at most. */
const MAX_LISTED_CROSSES = 64;

/**
 * Half the size of a message's arrowhead and of a lost one's cross.
 * @param {number} rowHeight
 * @returns {number}
 */
export function headSize(rowHeight) {
  return Math.max(3, Math.min(6, rowHeight * 0.4));
}

/**
 * Where a lost message's line ends and its cross is: on its own line
 * (from its send on the sender's line to the receiver's line at the time
 * it was lost), just short of the receiver's line so the cross is clear
 * of it. The core loses a message when it would have arrived, at the
 * receiver (engine `deliver`: random loss, a cut link, a crashed
 * receiver), so that is the time; the trace gives no place nearer.
 * @param {number} x1
 * @param {number} y1
 * @param {number} x2 x of the moment it was lost
 * @param {number} y2 the receiver's line
 * @param {number} rowHeight
 * @returns {[number, number]}
 */
export function lostEnd(x1, y1, x2, y2, rowHeight) {
  const dy = Math.abs(y2 - y1);
  const clear = headSize(rowHeight) + 1.5;
  const t = dy > 0 ? Math.max(0.5, 1 - clear / dy) : 1;
  return [x1 + (x2 - x1) * t, y1 + (y2 - y1) * t];
}

/**
 * What a delta build (see `buildScene`) draws: only what became settled in
 * `(from, to]`, `to` being now, and the messages still on the wire.
 *
 * With a `cursor`, the trace rows are read from where the last build left
 * off (the trace index `cursor.next`) up to `until`, instead of from a
 * little before `from` (how long before: as long as a message may stay on
 * the wire, so with half a million messages on the wire that was most of
 * the cached rows, every frame); the sends read and not yet delivered or
 * lost wait in the cursor. `to` may then be earlier than now (a stretch
 * drawn in pieces, see live.js): the time of the last row read,
 * rows at that very time may be left for the next piece. What is settled is
 * told by the rows read (a mark or delivery at the time of `from`, read
 * now, is drawn now), and `delta.live` holds the messages on the wire at
 * now only once `to` is now.
 * @typedef {object} Delta
 * @property {number} from ms, exclusive (inclusive with a cursor)
 * @property {number} to ms (now, or earlier with a cursor), inclusive
 * @property {number} every draw only messages whose id is a multiple
 * @property {ArrowBuffer} live filled with the messages on the wire now
 * @property {RowCursor} [cursor] where the reading of the rows stands
 * @property {number} [until] with a cursor: read the rows up to this trace
 *   index (exclusive)
 * @property {number} [keepFrom] with a cursor: sends before this time
 *   still waiting are forgotten (as far back as a full drawing of the
 *   window reads)
 * @property {number} [staleFromMs] see `StaleNote`
 * @property {number} [staleLeft] see `StaleNote`
 * @property {number} [reshapedMs] set by the build: the earliest send time
 *   of a message settled now whose line is not the one it had on the wire
 *   (lost: half the way; or it arrived at another time than planned), so
 *   a drawing kept from earlier frames knows how far left to draw again
 */

/**
 * (`Delta`, continued.) A send whose delivery or loss the trace will never
 * record (it stopped recording, see `TraceStore.stoppedMs`), once past its
 * planned arrival, is drawn as the full drawing draws it (on the wire up
 * to its planned arrival, no head), but with what is settled instead of
 * every frame: its line no longer changes.
 * @typedef {object} StaleNote
 * @property {number} [staleFromMs] set by the build: the earliest send
 *   time of such a line drawn now (the layer's drawing must reach back to
 *   it)
 * @property {number} [staleLeft] set by the build: how many messages
 *   still have such a line left for a later piece (a piece draws at most
 *   `STALE_PER_PIECE`; meanwhile they are on the wire, drawn every frame)
 */

/**
 * How far an incremental reading of the trace rows got (see `Delta`),
 * kept from frame to frame.
 */
export class RowCursor {
  /** @param {number} next trace index of the first row to read */
  constructor(next = 0) {
    /** Trace index of the next row to read. */
    this.next = next;
    /** Sends read and not yet delivered or lost, by message id: copies
     * of their rows, oldest first. @type {Map<number, Float64Array[]>} */
    this.pending = new Map();
  }
}

/** Growable typed-array buffers for arrows, reused between frames. */
export class ArrowBuffer {
  constructor() {
    this.xy = new Float32Array(4 * 1024);
    this.kind = new Int16Array(1024);
    this.flags = new Uint8Array(1024);
    this.length = 0;
  }

  /**
   * @param {number} x1
   * @param {number} y1
   * @param {number} x2
   * @param {number} y2
   * @param {number} kind
   * @param {number} flags
   */
  push(x1, y1, x2, y2, kind, flags) {
    if (this.length === this.kind.length) {
      const n = this.length * 2;
      const xy = new Float32Array(4 * n);
      xy.set(this.xy);
      this.xy = xy;
      const k = new Int16Array(n);
      k.set(this.kind);
      this.kind = k;
      const f = new Uint8Array(n);
      f.set(this.flags);
      this.flags = f;
    }
    const i = this.length++;
    this.xy[4 * i] = x1;
    this.xy[4 * i + 1] = y1;
    this.xy[4 * i + 2] = x2;
    this.xy[4 * i + 3] = y2;
    this.kind[i] = kind;
    this.flags[i] = flags;
  }
}

/**
 * Row height and canvas height for `nodes` rows.
 * @param {number} nodes
 * @param {number} maxPlot tallest plot area, px
 * @param {number} [rowMax] tallest row, px
 * @returns {{rowHeight: number, height: number}}
 */
export function rowsFor(nodes, maxPlot, rowMax = ROW_MAX) {
  const n = Math.max(1, nodes);
  const rowHeight = Math.max(ROW_MIN, Math.min(rowMax, Math.floor(maxPlot / n)));
  return { rowHeight, height: AXIS + n * rowHeight + PAD_BOTTOM };
}

/**
 * How far before a window to read, so that messages sent before it and
 * delivered in it are drawn whole.
 * @param {TraceStore} store
 * @param {number} span
 * @returns {number} ms
 */
export function lookBack(store, span) {
  return Math.min(Math.max(span, 1), store.maxFlightMs * 1.25 + 1);
}

/**
 * Axis ticks of a window.
 * @param {TimeWindow} win
 * @param {Frame} frame
 * @returns {{x: number, label: string}[]}
 */
export function ticksFor(win, frame) {
  const { t0, span } = win;
  const t1 = t0 + span;
  const scale = frame.plotWidth / span;
  /** @type {{x: number, label: string}[]} */
  const ticks = [];
  const step = tickStep(span, frame.plotWidth, 70);
  const digits = Math.max(0, -Math.floor(Math.log10(step)));
  for (let t = Math.ceil(t0 / step) * step; t <= t1 + step * 1e-9; t += step) {
    const label = t >= 10_000 && step >= 1000 ? `${Number((t / 1000).toFixed(Math.max(0, digits - 3)))} s` : `${t.toFixed(digits)} ms`;
    ticks.push({ x: frame.left + (t - t0) * scale, label });
  }
  return ticks;
}

/**
 * Turns the trace rows of a window into a scene.
 *
 * With `delta` (only while nothing after now is known): the scene holds
 * only what became settled in `(delta.from, delta.to]` (node lines,
 * marks, messages delivered or lost then), for adding to a drawing kept
 * from earlier frames, and `delta.live` gets the messages on the wire
 * (drawn up to now); the window then only sets the scale and origin.
 * @param {TraceStore} store
 * @param {TimeWindow} win
 * @param {Frame} frame
 * @param {string[]} kinds
 * @param {ArrowBuffer} [buffer] reused storage for the arrows
 * @param {Delta} [delta]
 * @returns {Scene}
 */
export function buildScene(store, win, frame, kinds, buffer = new ArrowBuffer(), delta) {
  const { col, code } = store.schema;
  const { t0, span } = win;
  const t1 = t0 + span;
  const scale = frame.plotWidth / span;
  const xOf = (/** @type {number} */ t) => frame.left + (t - t0) * scale;
  const yOf = (/** @type {number} */ node) => frame.top + (node + 0.5) * frame.rowHeight;
  const count = store.count;
  const nowMs = store.nowMs;
  const knownMs = store.knownMs;

  const ticks = delta ? [] : ticksFor(win, frame);
  // What is drawn: the window, or the newly settled stretch.
  const drawFrom = delta ? delta.from : t0;
  const drawTo = delta ? delta.to : t1;

  // Node lines from the state history.
  /** @type {Segment[]} */
  const segments = [];
  const lineStart = delta ? Math.max(t0, delta.from) : t0;
  const lineEnd = delta ? delta.to : Math.min(t1, knownMs);
  for (let node = 0; node < frame.nodes; node++) {
    const list = store.statesOf(node);
    if (list.length === 0) continue;
    let k = Math.max(0, TraceStore.stateAt(list, lineStart));
    const y = yOf(node);
    for (; k < list.length; k++) {
      const s = list[k];
      const from = Math.max(lineStart, s.at);
      const to = Math.min(lineEnd, k + 1 < list.length ? list[k + 1].at : lineEnd);
      if (from > lineEnd) break;
      if (to <= from) continue;
      /** @type {Segment['style']} */
      const style = !s.alive
        ? 'crashed'
        : s.paused
          ? 'paused'
          : s.role === ROLE.leader
            ? 'leader'
            : s.role === ROLE.candidate
              ? 'candidate'
              : s.role === ROLE.service
                ? 'service'
                : 'follower';
      // Split at now: what comes after is the known future.
      if (from < nowMs && to > nowMs) {
        segments.push({ x1: xOf(from), x2: xOf(nowMs), y, style, future: false });
        segments.push({ x1: xOf(nowMs), x2: xOf(to), y, style, future: true });
      } else {
        // A piece that continues the last frame's starts a pixel early, so
        // the joins of pieces drawn frame by frame do not show.
        const join = delta && from <= delta.from ? 1 : 0;
        segments.push({ x1: xOf(from) - join, x2: xOf(to), y, style, future: from >= nowMs });
      }
    }
  }

  // Messages and marks from the window rows.
  const rows = store.window;
  const d = rows.data;
  const w = rows.width;
  // Messages sent before the window may arrive in it; none is longer on
  // the wire than the longest seen (a paused receiver aside).
  const slack = lookBack(store, span);
  const cursor = delta?.cursor;
  const until = cursor ? (delta?.until ?? count) : count;
  const readFrom = cursor ? cursor.next : 0;
  const first = cursor ? rows.lowerBound(col.index, cursor.next) : rows.lowerBound(col.at_ms, drawFrom - slack);
  const last = delta ? delta.to : t1 + slack;
  const every = delta
    ? delta.every
    : Math.max(1, Math.ceil((rows.lowerBound(col.at_ms, last + 1e-9) - first) / ROW_BUDGET));
  if (delta) delta.live.length = 0;
  /** @type {Map<number, number[]>} sends waiting for their delivery, by message id */
  const pending = new Map();
  buffer.length = 0;
  let lost = 0;
  /** @type {LostMark[]} */
  const crosses = [];
  /**
   * Lists a lost message's cross (see `Scene.crosses`).
   * @param {number} x
   * @param {number} y
   * @param {number} x1
   * @param {number} y1
   * @param {number} xEnd
   * @param {number} yEnd
   * @param {Float64Array} sd
   * @param {number} so its send row
   * @param {number} lostMs
   */
  const listCross = (x, y, x1, y1, xEnd, yEnd, sd, so, lostMs) => {
    if (crosses.length >= MAX_LISTED_CROSSES) return;
    crosses.push({ x, y, x1, y1, xEnd, yEnd, from: sd[so + col.node], to: sd[so + col.peer], lostMs });
  };
  /** @type {Scene['timers']} */
  const timers = [];
  /** @type {Scene['elections']} */
  const elections = [];
  /** @type {Scene['roles']} */
  const roles = [];
  /** @type {Scene['crashes']} */
  const crashes = [];
  /** @type {Scene['pauses']} */
  const pauses = [];
  /** @type {Scene['rules']} */
  const rules = [];
  let thinned = false;
  const mark = (/** @type {unknown[]} */ list) => {
    if (list.length < MAX_MARKS) return true;
    thinned = true;
    return false;
  };

  /**
   * @param {Float64Array} sd the rows holding the send row (`d`, or a copy
   *   kept by a cursor)
   * @param {number} so offset of the send row in `sd`
   * @param {number} eo offset of its delivery or loss in `d` (-1: none yet)
   */
  const arrow = (sd, so, eo) => {
    const sent = sd[so + col.at_ms];
    const sendFuture = sd[so + col.index] >= count;
    const endKnown = eo >= 0;
    const end = endKnown ? d[eo + col.at_ms] : sd[so + col.until_ms];
    if (delta) {
      const x1 = xOf(sent);
      const y1 = yOf(sd[so + col.node]);
      const y2 = yOf(sd[so + col.peer]);
      const kind = sd[so + col.kind];
      if (endKnown && end <= delta.to) {
        // Settled in this stretch (the earlier ones are drawn already).
        // (With a cursor: what the rows read tell, see `Delta`.)
        if (cursor ? end < drawFrom : end <= drawFrom) return;
        const isLost = d[eo + col.type] === code.drop;
        if (isLost || end !== sd[so + col.until_ms]) delta.reshapedMs = Math.min(delta.reshapedMs ?? Infinity, sent);
        if (isLost) {
          lost += 1;
          const [xl, yl] = lostEnd(x1, y1, xOf(end), y2, frame.rowHeight);
          listCross(xl, yl, x1, y1, xOf(end), y2, sd, so, end);
          buffer.push(x1, y1, xl, yl, kind, 1);
        } else {
          buffer.push(x1, y1, xOf(end), y2, kind, 0);
        }
        return;
      }
      const at = end > sent ? Math.min(1, Math.max(0, (nowMs - sent) / (end - sent))) : 1;
      delta.live.push(x1, y1, x1 + (xOf(end) - x1) * at, y1 + (y2 - y1) * at, kind, 4);
      return;
    }
    if (end < t0 || sent > t1) return;
    const isLost = endKnown && d[eo + col.type] === code.drop;
    const endFuture = !endKnown || d[eo + col.index] >= count;
    const x1 = xOf(sent);
    const y1 = yOf(sd[so + col.node]);
    let x2 = xOf(end);
    let y2 = yOf(sd[so + col.peer]);
    const kind = sd[so + col.kind];
    if (isLost) {
      const xEnd = x2;
      const yEnd = y2;
      [x2, y2] = lostEnd(x1, y1, x2, y2, frame.rowHeight);
      if (!sendFuture && !endFuture) listCross(x2, y2, x1, y1, xEnd, yEnd, sd, so, end);
    }
    if (sendFuture) {
      buffer.push(x1, y1, x2, y2, kind, 2 | (isLost ? 1 : 0));
      return;
    }
    if (endFuture) {
      // On the wire now: drawn up to now, the rest (if known) faded.
      const at = end > sent ? Math.min(1, Math.max(0, (nowMs - sent) / (end - sent))) : 1;
      const xm = x1 + (x2 - x1) * at;
      const ym = y1 + (y2 - y1) * at;
      buffer.push(x1, y1, xm, ym, kind, 4);
      if (endKnown) buffer.push(xm, ym, x2, y2, kind, 2 | (isLost ? 1 : 0));
      return;
    }
    if (isLost) lost += 1;
    buffer.push(x1, y1, x2, y2, kind, isLost ? 1 : 0);
  };

  let r = first;
  if (cursor) {
    // Sends kept by the cursor: copies of their rows.
    const kept = cursor.pending;
    for (; r < rows.length; r++) {
      const o = r * w;
      if (d[o + col.index] >= until) break;
      const type = d[o + col.type];
      if (type === code.send) {
        const id = d[o + col.id];
        if (every > 1 && id % every !== 0) continue;
        const row = d.slice(o, o + w);
        const list = kept.get(id);
        if (list) list.push(row);
        else kept.set(id, [row]);
        continue;
      }
      if (type === code.deliver || type === code.drop) {
        const id = d[o + col.id];
        if (every > 1 && id % every !== 0) continue;
        const list = kept.get(id);
        if (!list) continue;
        const row = /** @type {Float64Array} */ (list.shift());
        if (list.length === 0) kept.delete(id);
        arrow(row, 0, o);
        continue;
      }
      const at = d[o + col.at_ms];
      if (type === code.timer && at >= t0 && at <= t1 && at >= drawFrom) {
        if ((every === 1 || d[o + col.index] % every === 0) && mark(timers)) {
          timers.push({ x: xOf(at), y: yOf(d[o + col.node]) });
        }
      }
    }
    cursor.next = r < rows.length ? d[r * w + col.index] : Math.min(until, store.windowTo);
    if (last >= nowMs) {
      const keepFrom = delta?.keepFrom ?? -Infinity;
      const stopped = Number.isFinite(store.stoppedMs);
      let stale = 0;
      for (const [id, list] of kept) {
        while (list.length > 0 && list[0][col.at_ms] < keepFrom) list.shift();
        // Never settled in the trace: drawn once with what is settled,
        // at most `STALE_PER_PIECE` a piece (see `StaleNote`).
        while (stopped && list.length > 0 && list[0][col.until_ms] <= nowMs) {
          if (stale === STALE_PER_PIECE) {
            if (delta) delta.staleLeft = (delta.staleLeft ?? 0) + 1;
            break;
          }
          const row = /** @type {Float64Array} */ (list.shift());
          stale += 1;
          const sent = row[col.at_ms];
          buffer.push(xOf(sent), yOf(row[col.node]), xOf(row[col.until_ms]), yOf(row[col.peer]), row[col.kind], 4);
          if (delta) delta.staleFromMs = Math.min(delta.staleFromMs ?? Infinity, sent);
        }
        if (list.length === 0) kept.delete(id);
        else for (const row of list) arrow(row, 0, -1);
      }
    }
  } else {
    for (; r < rows.length; r++) {
      const o = r * w;
      const at = d[o + col.at_ms];
      if (at > last) break;
      const type = d[o + col.type];
      if (type === code.send) {
        const id = d[o + col.id];
        if (every > 1 && id % every !== 0) continue;
        const list = pending.get(id);
        if (list) list.push(o);
        else pending.set(id, [o]);
        continue;
      }
      if (type === code.deliver || type === code.drop) {
        const id = d[o + col.id];
        if (every > 1 && id % every !== 0) continue;
        const list = pending.get(id);
        if (!list) continue;
        const so = /** @type {number} */ (list.shift());
        if (list.length === 0) pending.delete(id);
        arrow(d, so, o);
        continue;
      }
      if (type === code.timer && at >= t0 && at <= t1 && (!delta || at > delta.from) && d[o + col.index] < count) {
        if ((every === 1 || d[o + col.index] % every === 0) && mark(timers)) {
          timers.push({ x: xOf(at), y: yOf(d[o + col.node]) });
        }
      }
    }
    for (const list of pending.values()) for (const so of list) arrow(d, so, -1);
  }

  // Marks of what nodes did, from the history (complete from the start,
  // however busy the window).
  const h = store.history;
  const hd = h.data;
  // With a cursor, the marks of the rows read (by trace index: marks at
  // the time of `from` may come in several pieces).
  const markFrom = cursor ? h.lowerBound(col.index, readFrom) : h.lowerBound(col.at_ms, Math.max(t0, drawFrom));
  for (let r = markFrom; r < h.length; r++) {
    const o = r * h.width;
    const at = hd[o + col.at_ms];
    if (cursor ? hd[o + col.index] >= until : at > drawTo) break;
    if (cursor ? at < Math.max(t0, drawFrom) : delta && at <= delta.from) continue;
    const type = hd[o + col.type];
    const future = hd[o + col.index] >= count;
    const node = hd[o + col.node];
    const x = xOf(at);
    if (type === code.election) {
      if (!future && mark(elections)) elections.push({ x, y: yOf(node) });
    } else if (type === code.role) {
      if (mark(roles)) roles.push({ x, y: yOf(node), role: hd[o + col.value], future });
    } else if (type === code.crash || type === code.recover) {
      if (mark(crashes)) crashes.push({ x, y: yOf(node), up: type === code.recover, future });
    } else if (type === code.pause) {
      if (mark(pauses)) pauses.push({ x, y: yOf(node), future });
    } else if (type === code.violation) {
      rules.push({ x, label: '!', kind: 'violation', future });
    } else if (type === code.partition) {
      rules.push({ x, label: 'split', kind: 'partition', future });
    } else if (type === code.heal) {
      rules.push({ x, label: 'heal', kind: 'heal', future });
    }
  }

  const messagesInWindow = buffer.length * every;
  if (buffer.length > MAX_ARROWS || every > 1) thinned = true;
  return {
    frame,
    window: win,
    nowX: xOf(nowMs),
    ticks,
    segments,
    arrowCount: buffer.length,
    arrows: buffer.xy,
    arrowKind: buffer.kind,
    arrowFlags: buffer.flags,
    messagesInWindow,
    lost,
    crosses,
    timers,
    elections,
    roles,
    crashes,
    pauses,
    rules,
    thinned,
    kinds,
  };
}

/** Line styles of node segments. */
const SEGMENT_STYLES = /** @type {const} */ ([
  ['follower', { colour: '#8c8c8c', width: 1.5, dash: [] }],
  ['service', { colour: ROLE_COLOURS.service, width: 1.5, dash: [] }],
  ['candidate', { colour: ROLE_COLOURS.candidate, width: 3, dash: [] }],
  ['leader', { colour: ROLE_COLOURS.leader, width: 4, dash: [] }],
  ['paused', { colour: INK, width: 2.5, dash: [2, 3] }],
  ['crashed', { colour: ROLE_COLOURS.crashed, width: 1.2, dash: [5, 4] }],
]);

/**
 * Whether a kind colour is too light to read as a thin line on white.
 * @param {string} hex
 */
function light(hex) {
  const n = parseInt(hex.slice(1), 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  return 0.299 * r + 0.587 * g + 0.114 * b > 180;
}

/**
 * Draws a scene.
 * @param {CanvasRenderingContext2D} ctx scaled so one unit is one CSS px
 * @param {Scene} s
 * @param {number} participants rows from here on are an algorithm's extra
 *   nodes (a coordination service, a resource), labelled in their colour
 */
export function paintScene(ctx, s, participants) {
  ctx.clearRect(0, 0, s.frame.width, s.frame.height);
  paintGrid(ctx, s);
  paintLabels(ctx, s.frame, participants);
  paintContent(ctx, s);
  paintOverlay(ctx, s);
}

/**
 * The time axis: grid lines and their labels.
 * @param {CanvasRenderingContext2D} ctx
 * @param {{frame: Frame, ticks: Scene['ticks']}} s
 * @param {CanvasRenderingContext2D | null} [text] where the labels go
 *   (default `ctx`; null: none). Writing text on a canvas on the page makes
 *   the browser bring the page's styles up to date first (a forced style
 *   recalculation in the middle of the frame); the live frames write the
 *   labels on a canvas off the page and copy it.
 */
export function paintGrid(ctx, s, text = ctx) {
  const f = s.frame;
  const plotBottom = f.top + f.nodes * f.rowHeight;
  const plotRight = f.left + f.plotWidth;
  // Axis and grid.
  if (ctx.font !== AXIS_FONT) ctx.font = AXIS_FONT;
  ctx.textBaseline = 'middle';
  ctx.lineWidth = 1;
  ctx.strokeStyle = FAINT;
  ctx.globalAlpha = 0.45;
  ctx.beginPath();
  for (const t of s.ticks) {
    ctx.moveTo(Math.round(t.x) + 0.5, f.top);
    ctx.lineTo(Math.round(t.x) + 0.5, plotBottom);
  }
  ctx.stroke();
  ctx.globalAlpha = 1;
  if (!text) return;
  if (text !== ctx) {
    text.font = AXIS_FONT;
    text.textBaseline = 'middle';
  }
  text.fillStyle = MUTED;
  text.textAlign = 'center';
  for (const t of s.ticks) {
    if (t.x - f.left < 14 || plotRight - t.x < 14) continue;
    text.fillText(t.label, t.x, 9);
  }

}

/**
 * The node labels left of the plot.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Frame} f
 * @param {number} participants see `paintScene`
 */
export function paintLabels(ctx, f, participants) {
  // Node labels.
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'right';
  const every = Math.ceil(11 / f.rowHeight);
  ctx.font = `${Math.min(12, Math.max(9, f.rowHeight - 6))}px ${FONT}`;
  for (let i = 0; i < f.nodes; i += every) {
    ctx.fillStyle = i < participants ? INK : '#A8457E';
    ctx.fillText(`n${i}`, f.left - 6, f.top + (i + 0.5) * f.rowHeight);
  }
}

/**
 * What happened, inside the plot: node lines, rules, timers, messages and
 * marks (clipped to the plot).
 * @param {CanvasRenderingContext2D} ctx
 * @param {Scene} s
 */
export function paintContent(ctx, s) {
  const f = s.frame;
  const plotBottom = f.top + f.nodes * f.rowHeight;
  ctx.save();
  ctx.beginPath();
  ctx.rect(f.left, f.top - 2, f.plotWidth, plotBottom - f.top + 4);
  ctx.clip();

  // Node lines, batched by style.
  for (const [style, look] of SEGMENT_STYLES) {
    for (const future of [false, true]) {
      ctx.beginPath();
      /** @type {number | null} */
      let startX = null;
      for (const seg of s.segments) {
        if (seg.style !== style || seg.future !== future) continue;
        ctx.moveTo(seg.x1, seg.y);
        ctx.lineTo(Math.max(seg.x2, seg.x1 + 0.5), seg.y);
        if (startX === null) startX = seg.x1;
      }
      if (startX === null) continue;
      ctx.globalAlpha = future ? FUTURE_ALPHA : 1;
      ctx.strokeStyle = style === 'paused' ? INK : look.colour;
      ctx.lineWidth = Math.min(look.width, Math.max(1, f.rowHeight * 0.45));
      ctx.setLineDash([...look.dash]);
      // Pieces drawn frame by frame continue one dash pattern.
      ctx.lineDashOffset = s.dashPhase === undefined ? 0 : startX + s.dashPhase;
      ctx.stroke();
    }
  }
  ctx.setLineDash([]);
  ctx.lineDashOffset = 0;
  ctx.globalAlpha = 1;

  // Vertical rules: partitions, heals, violations.
  for (const r of s.rules) {
    ctx.globalAlpha = r.future ? FUTURE_ALPHA : 1;
    ctx.strokeStyle = r.kind === 'violation' ? CUT : INK;
    ctx.lineWidth = r.kind === 'violation' ? 2 : 1;
    ctx.setLineDash(r.kind === 'violation' ? [6, 3] : [2, 3]);
    ctx.beginPath();
    ctx.moveTo(r.x, f.top);
    ctx.lineTo(r.x, plotBottom);
    ctx.stroke();
  }
  ctx.setLineDash([]);
  ctx.globalAlpha = 1;

  // Timer firings: short ticks.
  if (f.rowHeight >= 6) {
    const h = Math.min(4, f.rowHeight * 0.3);
    ctx.strokeStyle = '#6b6b6b';
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (const m of s.timers) {
      ctx.moveTo(m.x, m.y - h);
      ctx.lineTo(m.x, m.y + h);
    }
    ctx.stroke();
  }

  // Messages, batched by kind; known-future ones faded.
  const n = s.arrowCount;
  const stride = Math.max(1, Math.ceil(n / MAX_ARROWS));
  const head = headSize(f.rowHeight);
  const xy = s.arrows;
  // Which kinds have arrows, drawn now and faded (bit 0 and 1 of a
  // kind's entry): paths are made only for those, not two for every kind
  // twice over in every frame and every piece baked.
  const kindCount = Math.max(s.kinds.length, 1);
  const present = new Uint8Array(kindCount);
  for (let i = 0; i < n; i += stride) {
    const kind = s.arrowKind[i];
    if (kind < kindCount) present[kind] |= (s.arrowFlags[i] & 2) !== 0 ? 2 : 1;
  }
  for (let kind = 0; kind < kindCount; kind++) {
    const colour = kindColour(kind);
    for (let pass = 0; pass < 2; pass++) {
      const future = pass === 1;
      if ((present[kind] & (1 << pass)) === 0) continue;
      const path = new Path2D();
      /** @type {Path2D | null} */
      let crosses = null;
      for (let i = 0; i < n; i += stride) {
        if (s.arrowKind[i] !== kind || ((s.arrowFlags[i] & 2) !== 0) !== future) continue;
        const x1 = xy[4 * i];
        const y1 = xy[4 * i + 1];
        const x2 = xy[4 * i + 2];
        const y2 = xy[4 * i + 3];
        path.moveTo(x1, y1);
        path.lineTo(x2, y2);
        const flags = s.arrowFlags[i];
        if (flags & 1) {
          const c = head;
          crosses ??= new Path2D();
          crosses.moveTo(x2 - c, y2 - c);
          crosses.lineTo(x2 + c, y2 + c);
          crosses.moveTo(x2 + c, y2 - c);
          crosses.lineTo(x2 - c, y2 + c);
        } else if (!(flags & 4)) {
          const len = Math.hypot(x2 - x1, y2 - y1);
          if (len > head * 1.5) {
            const ux = (x2 - x1) / len;
            const uy = (y2 - y1) / len;
            path.moveTo(x2 - ux * head - uy * head * 0.55, y2 - uy * head + ux * head * 0.55);
            path.lineTo(x2, y2);
            path.lineTo(x2 - ux * head + uy * head * 0.55, y2 - uy * head - ux * head * 0.55);
          }
        }
      }
      ctx.globalAlpha = future ? FUTURE_ALPHA : 0.9;
      // Kinds past the first round of colours: dashed (palette.js).
      ctx.setLineDash(kindDash(kind));
      if (light(colour)) {
        ctx.strokeStyle = 'rgba(0, 0, 0, 0.45)';
        ctx.lineWidth = 2.6;
        ctx.stroke(path);
      }
      ctx.strokeStyle = colour;
      ctx.lineWidth = 1.4;
      ctx.stroke(path);
      ctx.setLineDash([]);
      if (crosses) {
        ctx.globalAlpha = future ? FUTURE_ALPHA : 1;
        ctx.strokeStyle = CUT;
        ctx.lineWidth = 2;
        ctx.stroke(crosses);
      }
    }
  }
  ctx.globalAlpha = 1;

  // Elections started: hollow diamonds.
  const r = Math.max(2.5, Math.min(5, f.rowHeight * 0.3));
  ctx.strokeStyle = INK;
  ctx.lineWidth = 1.3;
  ctx.beginPath();
  for (const m of s.elections) {
    ctx.moveTo(m.x, m.y - r - 1);
    ctx.lineTo(m.x + r + 1, m.y);
    ctx.lineTo(m.x, m.y + r + 1);
    ctx.lineTo(m.x - r - 1, m.y);
    ctx.closePath();
  }
  ctx.stroke();

  // Pauses: two bars.
  ctx.fillStyle = INK;
  for (const m of s.pauses) {
    ctx.globalAlpha = m.future ? FUTURE_ALPHA : 1;
    ctx.fillRect(m.x - r * 0.9, m.y - r, r * 0.6, r * 2);
    ctx.fillRect(m.x + r * 0.3, m.y - r, r * 0.6, r * 2);
  }

  // Crashes (filled squares) and recoveries (hollow squares).
  for (const m of s.crashes) {
    ctx.globalAlpha = m.future ? FUTURE_ALPHA : 1;
    if (m.up) {
      ctx.fillStyle = PAPER;
      ctx.fillRect(m.x - r, m.y - r, r * 2, r * 2);
      ctx.strokeStyle = INK;
      ctx.lineWidth = 1.5;
      ctx.strokeRect(m.x - r, m.y - r, r * 2, r * 2);
    } else {
      ctx.fillStyle = INK;
      ctx.fillRect(m.x - r, m.y - r, r * 2, r * 2);
    }
  }

  // Role changes: dots in the new role's colour.
  for (const m of s.roles) {
    ctx.globalAlpha = m.future ? FUTURE_ALPHA : 1;
    const colour =
      m.role === ROLE.leader
        ? ROLE_COLOURS.leader
        : m.role === ROLE.candidate
          ? ROLE_COLOURS.candidate
          : m.role === ROLE.service
            ? ROLE_COLOURS.service
            : ROLE_COLOURS.follower;
    ctx.beginPath();
    ctx.arc(m.x, m.y, m.role === ROLE.leader ? r + 1 : r, 0, 2 * Math.PI);
    ctx.fillStyle = colour;
    ctx.fill();
    ctx.strokeStyle = INK;
    ctx.lineWidth = 1;
    ctx.stroke();
  }
  ctx.globalAlpha = 1;
  ctx.restore();
}

/**
 * On top: rule labels in the axis band, the line of now, the plot's frame.
 * @param {CanvasRenderingContext2D} ctx
 * @param {{frame: Frame, rules: Scene['rules'], nowX: number}} s
 */
export function paintOverlay(ctx, s) {
  const f = s.frame;
  const plotBottom = f.top + f.nodes * f.rowHeight;
  const plotRight = f.left + f.plotWidth;
  // Rule labels in the axis band. The font is set only when one is
  // drawn: setting a canvas's font to another one makes the browser
  // bring the page's styles up to date there and then (a forced style
  // recalculation in the middle of the frame, milliseconds with a
  // thousand node buttons), and the live frames set the axis font every
  // frame.
  let fontSet = false;
  for (const rule of s.rules) {
    if (rule.x < f.left || rule.x > plotRight) continue;
    if (!fontSet) {
      ctx.font = `bold 10px ${FONT}`;
      ctx.textAlign = 'center';
      fontSet = true;
    }
    ctx.globalAlpha = rule.future ? 0.5 : 1;
    ctx.fillStyle = rule.kind === 'violation' ? CUT : INK;
    ctx.fillText(rule.label, rule.x, f.top - 8);
  }
  ctx.globalAlpha = 1;

  // Now.
  if (s.nowX >= f.left - 1 && s.nowX <= plotRight + 1) {
    ctx.strokeStyle = ACCENT;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(s.nowX, f.top - 3);
    ctx.lineTo(s.nowX, plotBottom);
    ctx.stroke();
    ctx.fillStyle = ACCENT;
    ctx.beginPath();
    ctx.moveTo(s.nowX - 5, f.top - 9);
    ctx.lineTo(s.nowX + 5, f.top - 9);
    ctx.lineTo(s.nowX, f.top - 2);
    ctx.closePath();
    ctx.fill();
  }

  // Plot frame.
  ctx.strokeStyle = FAINT;
  ctx.lineWidth = 1;
  ctx.strokeRect(f.left + 0.5, f.top + 0.5, f.plotWidth - 1, plotBottom - f.top - 1);
}

/**
 * How `paintScene` draws, for renderers that draw the same scene
 * elsewhere (the SVG export in svg.js).
 */
export const SCENE_LOOK = Object.freeze({ SEGMENT_STYLES, FUTURE_ALPHA, ACCENT, FONT, MAX_ARROWS, light });
