// @ts-check
/**
 * The space-time (Lamport) diagram: one horizontal line per node, time
 * running left to right, an arrow for each message from its send to its
 * delivery (a lost one ends in a cross halfway), and marks for what
 * happened on each node: timers firing, elections started, role changes
 * (a dot in the role's colour; the line is thick and coloured while a
 * node leads or runs for leader), crashes (the line is dashed grey while
 * the node is down), recoveries and pauses (dotted while paused); property
 * violations and partitions are vertical lines across all nodes.
 *
 * The data is the core's recorded trace (see trace.js); nothing about an
 * algorithm is worked out here. Drawing is in two steps, so another
 * renderer (an SVG export) can reuse the first: `buildScene` turns the
 * trace rows of the visible window into plain drawing data (lines,
 * arrows, marks, in CSS pixels), `paintScene` puts that on a canvas.
 * Only the visible window is read, and the number of arrows and marks
 * drawn per frame is capped (thinned evenly beyond the cap).
 *
 * Clicking (or, focused, the arrow keys) moves the simulation to that
 * time through the model's seek; the window follows the current time, or
 * shows the whole run.
 * @module spacetime
 */

import { CANVAS, CUT, FAINT, INK, MUTED, PAPER, ROLE_COLOURS, kindColour } from '../shared/palette.js';
import { LivePlot } from './live.js';
import { ROLE, TraceStore } from '../shared/trace.js';

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
const GUTTER = 44;
/** Height of the time axis above the rows. */
const AXIS = 32;
const PAD_RIGHT = 10;
const PAD_BOTTOM = 6;
/** Tallest and shortest row per node. */
const ROW_MAX = 26;
const ROW_MIN = 2;
/** Alpha of what is known to come after now (seen before going back). */
const FUTURE_ALPHA = 0.28;
/** Longest window a new run opens with, ms ("Whole run" shows more). */
const DEFAULT_SPAN_MAX = 4000;
/** Where "now" sits in a following window, as a share of the span. */
const FOLLOW_AT = 0.9;
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
/** The time axis's font (as a canvas says it back). Setting a canvas's
 * font, even to the one it has, makes the browser bring the page's styles
 * up to date first (a forced style recalculation in the middle of a
 * frame): it is set only when the canvas has another. */
export const AXIS_FONT = `11px ${FONT}`;
const ACCENT = '#0072B2';

/** Spans the zoom steps through, ms (1, 2, 5 x 10^k). */
const SPANS = (() => {
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
 * What a delta build (see `buildScene`) draws: only what became settled in
 * `(from, to]`, `to` being now, and the messages still on the wire.
 *
 * With a `cursor`, the trace rows are read from where the last build left
 * off (the trace index `cursor.next`) up to `until`, instead of from a
 * little before `from` (how long before: as long as a message may stay on
 * the wire, so with half a million messages on the wire that was most of
 * the cached rows, every frame); the sends read and not yet delivered or
 * lost wait in the cursor. `to` may then be earlier than now (a stretch
 * drawn in pieces, see spacetime-live.js): the time of the last row read,
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
          buffer.push(x1, y1, (x1 + xOf(end)) / 2, (y1 + y2) / 2, kind, 1);
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
      x2 = (x1 + x2) / 2;
      y2 = (y1 + y2) / 2;
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
  const head = Math.max(3, Math.min(6, f.rowHeight * 0.4));
  const xy = s.arrows;
  for (let kind = 0; kind < Math.max(s.kinds.length, 1); kind++) {
    const colour = kindColour(kind);
    for (const future of [false, true]) {
      const path = new Path2D();
      const crosses = new Path2D();
      let any = false;
      for (let i = 0; i < n; i += stride) {
        if (s.arrowKind[i] !== kind || ((s.arrowFlags[i] & 2) !== 0) !== future) continue;
        any = true;
        const x1 = xy[4 * i];
        const y1 = xy[4 * i + 1];
        const x2 = xy[4 * i + 2];
        const y2 = xy[4 * i + 3];
        path.moveTo(x1, y1);
        path.lineTo(x2, y2);
        const flags = s.arrowFlags[i];
        if (flags & 1) {
          const c = head;
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
      if (!any) continue;
      ctx.globalAlpha = future ? FUTURE_ALPHA : 0.9;
      if (light(colour)) {
        ctx.strokeStyle = 'rgba(0, 0, 0, 0.45)';
        ctx.lineWidth = 2.6;
        ctx.stroke(path);
      }
      ctx.strokeStyle = colour;
      ctx.lineWidth = 1.4;
      ctx.stroke(path);
      ctx.globalAlpha = future ? FUTURE_ALPHA : 1;
      ctx.strokeStyle = CUT;
      ctx.lineWidth = 2;
      ctx.stroke(crosses);
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
 * The page elements of the diagram.
 * @typedef {object} SpaceTimeElements
 * @property {HTMLCanvasElement} canvas
 * @property {HTMLElement} hover a line that follows the pointer
 * @property {HTMLButtonElement} zoomIn
 * @property {HTMLButtonElement} zoomOut
 * @property {HTMLButtonElement} fit toggles "whole run"
 * @property {HTMLElement} spanOut shows the span
 * @property {HTMLElement} note says when the drawing was thinned
 */

export class SpaceTimeView {
  /**
   * @param {SpaceTimeElements} els
   * @param {TraceStore} store
   * @param {import('../player/model.js').Model} model
   */
  constructor(els, store, model) {
    this.els = els;
    this.store = store;
    this.model = model;
    const ctx = els.canvas.getContext('2d');
    if (!ctx) throw new Error('this browser cannot draw on a canvas');
    /** @private */
    this.ctx = ctx;
    /** @type {TimeWindow} */
    this.win = { t0: 0, span: 100 };
    /** Whether the window shows the whole run. */
    this.fit = false;
    /** @private */
    this.generation = -1;
    /** Whether the window opened before the run's end was known, and
     * nobody has zoomed since (see `follow`). @private */
    this.endless = false;
    /** @private */
    this.drawnKey = '';
    /** @private */
    this.arrows = new ArrowBuffer();
    /** @private @type {Scene | null} */
    this.scene = null;
    /** When the text alternative was last written. @private */
    this.labelAt = -Infinity;
    /** @private @type {ReturnType<typeof setTimeout> | null} */
    this.labelTimer = null;
    /** @private @type {Frame | null} */
    this.frame = null;
    /** Message kinds of the run. @private @type {string[]} */
    this.kinds = [];
    /** When the last drawing finished and what it cost, ms. @private */
    this.drawnAt = -Infinity;
    /** @private */
    this.cost = 0;
    /** A redraw put off while playing. @private @type {ReturnType<typeof setTimeout> | null} */
    this.redraw = null;
    /** Frame-by-frame drawing while playing (see spacetime-live.js). @private */
    this.live = new LivePlot();
    /** What the last frame showed. @private @type {import('./live.js').Shown | null} */
    this.shown = null;
    /** Whether the live plot drew the last frame. @private */
    this.liveShown = false;
    /** What `scene` was built for, but for the window and time. @private */
    this.sceneKey = '';
    /** Calls of `render`, and a call put off while the live plot's bake
     * is behind now (see spacetime-live.js). @private */
    this.renders = 0;
    /** @private @type {ReturnType<typeof setTimeout> | null} */
    this.catchUp = null;
    /** Whether the canvas holds a drawing (a live frame may keep it while
     * its layer is baked). @private */
    this.drawnCanvas = false;
    /** Whether the live plot's layer is to be made when idle. @private */
    this.preparing = false;

    els.zoomIn.addEventListener('click', () => this.zoom(0.5));
    els.zoomOut.addEventListener('click', () => this.zoom(2));
    els.fit.addEventListener('click', () => this.setFit(!this.fit));
    els.canvas.addEventListener('click', (e) => this.seekToX(e.offsetX));
    els.canvas.addEventListener('keydown', (e) => this.key(e));
    els.canvas.addEventListener('pointermove', (e) => this.hoverAt(e.offsetX));
    els.canvas.addEventListener('pointerleave', () => {
      els.hover.hidden = true;
    });
    /** The canvas's width in CSS px, as the resize observer last saw it
     * (read there, not in `render`, where it would force a layout of the
     * page every frame). @private */
    this.width = 0;
    new ResizeObserver((entries) => {
      const width = Math.round(entries[entries.length - 1].contentRect.width);
      if (width === this.width) return;
      this.width = width;
      this.drawnKey = '';
      this.render();
    }).observe(els.canvas);
    /** The diagram's box (as tall as every row) and, inside it, the
     * canvas: only as tall as the window, sticking to the window's top
     * while the box scrolls past, drawing the rows in view (`bandTop`, CSS
     * px from the box's top). A 1024-node diagram is 2,000 px tall; a
     * canvas that size was rasterized and copied whole every frame. */
    this.box = /** @type {HTMLElement} */ (els.canvas.parentElement);
    /** @private */
    this.bandTop = 0;
    /** The box's top relative to the window, as last seen. @private */
    this.boxTop = 0;
    /** @private */
    this.viewHeight = window.innerHeight;
    const placed = () => {
      const top = this.box.getBoundingClientRect().top;
      if (top === this.boxTop && window.innerHeight === this.viewHeight) return;
      this.boxTop = top;
      this.viewHeight = window.innerHeight;
      this.render();
    };
    window.addEventListener('scroll', placed, { passive: true });
    window.addEventListener('resize', placed);
    new ResizeObserver(placed).observe(document.body);
    /** Whether any of the canvas is on screen (or near it). While playing
     * out of view the diagram is not drawn: its canvas would be copied
     * to the compositor every frame for nothing. The trace is still read
     * (the narration uses it), and scrolling it into view or pausing
     * draws the current moment. @private */
    this.inView = true;
    new IntersectionObserver(
      (entries) => {
        const e = entries[entries.length - 1];
        // Touching the viewport's edge is not in view.
        const seen = e.isIntersecting && e.intersectionRect.height > 0;
        if (seen === this.inView) return;
        this.inView = seen;
        if (seen) this.render();
      },
      { threshold: [0, 0.001] },
    ).observe(els.canvas);
  }

  /**
   * Zooms around now by `factor` (0.5: in).
   * @param {number} factor
   */
  zoom(factor) {
    const now = this.store.nowMs;
    const i = SPANS.indexOf(spanFor(this.win.span));
    const next = SPANS[Math.min(SPANS.length - 1, Math.max(0, i + (factor < 1 ? -1 : 1)))];
    const ratio = next / this.win.span;
    this.fit = false;
    this.endless = false;
    this.win = { t0: Math.max(0, now - (now - this.win.t0) * ratio), span: next };
    this.render();
  }

  /** @param {boolean} on */
  setFit(on) {
    this.fit = on;
    this.endless = false;
    if (!on) this.win = { t0: this.win.t0, span: spanFor(this.win.span) };
    this.render();
  }

  /**
   * The time at x (CSS px from the canvas's left edge), or null outside
   * the plot.
   * @param {number} x
   * @returns {number | null}
   */
  timeAt(x) {
    const f = this.frame;
    if (!f || x < f.left - 4 || x > f.left + f.plotWidth + 4) return null;
    const t = this.win.t0 + ((x - f.left) / f.plotWidth) * this.win.span;
    return Math.max(0, Math.round(t * 1000) / 1000);
  }

  /**
   * @private
   * @param {number} x
   */
  seekToX(x) {
    const t = this.timeAt(x);
    if (t === null) return;
    this.model.setPlaying(false);
    this.model.seek(t);
  }

  /**
   * @private
   * @param {number} x
   */
  hoverAt(x) {
    const t = this.timeAt(x);
    const hover = this.els.hover;
    if (t === null || !this.frame) {
      hover.hidden = true;
      return;
    }
    hover.hidden = false;
    hover.style.setProperty('left', `${x}px`);
    hover.style.setProperty('top', `${this.frame.top}px`);
    hover.style.setProperty('height', `${this.frame.rowHeight * this.frame.nodes}px`);
    hover.dataset.time = `${Number(t.toFixed(3))} ms`;
  }

  /**
   * Arrow keys move in time by a twentieth of the window, Home and End go
   * to its edges, + and - zoom. Handled here so the page's own shortcuts
   * (→ steps) do not also act.
   * @private
   * @param {KeyboardEvent} e
   */
  key(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const now = this.store.nowMs;
    const stepMs = this.win.span / 20;
    /** @type {number | null} */
    let to = null;
    if (e.key === 'ArrowLeft') to = Math.max(0, now - stepMs);
    else if (e.key === 'ArrowRight') to = now + stepMs;
    else if (e.key === 'Home') to = this.win.t0;
    else if (e.key === 'End') to = this.win.t0 + this.win.span;
    else if (e.key === '+' || e.key === '=') this.zoom(0.5);
    else if (e.key === '-' || e.key === '_') this.zoom(2);
    else return;
    e.preventDefault();
    e.stopPropagation();
    if (to !== null) {
      this.model.setPlaying(false);
      this.model.seek(Math.round(to * 1000) / 1000);
    }
  }

  /**
   * The span a new run's window opens with: one that holds the election
   * as `election run` sees it, or the shortest while its end is still
   * being looked for (see Model.endMs; `follow` widens it once found).
   * @private
   */
  firstSpan() {
    const end = this.model.endMs() ?? 0;
    return spanFor(Math.min(Math.max(end, 5), DEFAULT_SPAN_MAX) * 1.1);
  }

  /**
   * Moves the window so it shows now (or the whole run).
   * @private
   */
  follow() {
    const pg = this.model.playground;
    if (this.store.generation !== this.generation) {
      // A new run: a window that holds the election as `election run` sees it.
      this.generation = this.store.generation;
      this.kinds = pg.kinds();
      this.win = { t0: 0, span: this.firstSpan() };
      this.endless = this.model.endMs() === null;
    } else if (this.endless && this.model.endMs() !== null) {
      // The end was found since (a pathological run's takes a few frames):
      // the window takes the span it would have had.
      this.endless = false;
      this.win = { t0: this.win.t0, span: this.firstSpan() };
    }
    const now = pg.now_ms();
    if (this.fit) {
      const end = Math.max(now, this.store.knownMs, 1);
      this.win = { t0: 0, span: end * 1.02 };
      return;
    }
    const { t0, span } = this.win;
    if (now > t0 + span * FOLLOW_AT) this.win = { t0: now - span * FOLLOW_AT, span };
    else if (now < t0) this.win = { t0: Math.max(0, now - span * (1 - FOLLOW_AT)), span };
  }

  /** Draws the current moment (skipped when nothing it shows changed). */
  render() {
    this.renders += 1;
    const canvas = this.els.canvas;
    const width = this.width;
    if (width === 0) return;
    const nodes = this.model.nodeTotal();
    // Short on phones; on big screens rows may be taller, up to about
    // half the window's height.
    const tall = Math.max(300, Math.min(640, window.innerHeight * 0.5));
    const { rowHeight, height } =
      width < 560 ? rowsFor(nodes, 300) : rowsFor(nodes, tall, width >= 640 ? 40 : ROW_MAX);
    const band = Math.min(height, Math.max(200, Math.ceil(this.viewHeight)));
    const bandTop = Math.round(Math.max(0, Math.min(height - band, -this.boxTop)));
    if (this.box.style.getPropertyValue('height') !== `${height}px`) {
      this.box.style.setProperty('height', `${height}px`);
    }
    if (canvas.style.getPropertyValue('height') !== `${band}px`) {
      canvas.style.setProperty('height', `${band}px`);
    }
    this.bandTop = bandTop;
    const t = performance.now();
    this.store.sync(this.model, this.win.t0 - lookBack(this.store, this.win.span));
    this.follow();
    const dpr = window.devicePixelRatio || 1;
    const plotWidth = Math.max(10, width - GUTTER - PAD_RIGHT);
    const s = this.store;
    // While playing, frames are drawn frame by frame on whole pixels.
    const live = this.model.moving && !this.fit && s.knownMs <= s.nowMs;
    if (live) this.win = LivePlot.snap(this.win, plotWidth, dpr);
    // The window may have moved: make sure the cache reaches back far enough.
    this.store.sync(this.model, this.win.t0 - lookBack(this.store, this.win.span));
    const synced = performance.now() - t;
    if (this.model.moving && !this.inView) return;
    const sceneKey = [
      s.generation,
      s.count,
      s.windowTo,
      s.historyTo,
      s.nowMs,
      this.win.t0,
      this.win.span,
      width,
      height,
      nodes,
      window.devicePixelRatio,
      CANVAS,
      INK,
    ].join(':');
    const key = `${sceneKey}:${band}:${bandTop}`;
    const spanText = formatSpan(this.win.span);
    if (this.els.spanOut.textContent !== spanText) this.els.spanOut.textContent = spanText;
    if (this.els.fit.getAttribute('aria-pressed') !== String(this.fit)) {
      this.els.fit.setAttribute('aria-pressed', String(this.fit));
    }
    if (key === this.drawnKey) return;
    /** @type {Frame} */
    const frame = { width, height, left: GUTTER, top: AXIS, plotWidth, rowHeight, nodes };
    if (live) {
      this.renderLive(frame, dpr, key, synced, band);
      return;
    }
    this.live.invalidate();
    this.liveShown = false;
    // While playing, a drawing that costs much is redrawn less often, so
    // the diagram takes at most about a third of the time; the latest
    // moment is always drawn in the end.
    const started = performance.now();
    if (this.model.moving && started - this.drawnAt < this.cost * 3) {
      if (this.redraw === null) {
        this.redraw = setTimeout(() => {
          this.redraw = null;
          this.render();
        }, this.cost * 3);
      }
      return;
    }
    // Only the band moved (scrolling, paused): the same scene painted again.
    const sameScene = this.scene !== null && sceneKey === this.sceneKey;
    this.drawnKey = key;
    this.resizeBacking(width, band, dpr);
    this.drawnCanvas = true;
    this.frame = frame;
    if (sameScene && this.scene) {
      this.ctx.setTransform(dpr, 0, 0, dpr, 0, -bandTop * dpr);
      paintScene(this.ctx, this.scene, this.model.playground.node_count());
      return;
    }
    this.sceneKey = sceneKey;
    const kinds = this.kinds;
    const t1 = performance.now();
    const scene = buildScene(this.store, this.win, frame, kinds, this.arrows);
    const built = performance.now() - t1;
    this.scene = scene;
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, -bandTop * dpr);
    paintScene(this.ctx, scene, this.model.playground.node_count());
    this.publish(sceneShown(scene));
    if (!this.model.moving) this.prepareLive();
    // How long reading the trace, building and painting took: for
    // benchmarks (the canvas is the only place the page says so).
    this.drawnAt = performance.now();
    this.cost = this.drawnAt - started;
    canvas.dataset.renderMs = (this.drawnAt - started + synced).toFixed(2);
    canvas.dataset.buildMs = built.toFixed(2);
  }

  /**
   * The scene now drawn, built again into its own buffers (the drawing's
   * are reused every frame), for an SVG export; null before the first
   * drawing.
   * @returns {Scene | null}
   */
  exportScene() {
    if (!this.frame) return null;
    return buildScene(this.store, this.win, this.frame, this.kinds);
  }

  /**
   * Draws a frame while playing: the settled part from the live plot's
   * layer, the rest new (see spacetime-live.js). The window's edge is
   * kept on whole device pixels. What it shows is counted only when the
   * text alternative is due.
   * @private
   * @param {Frame} frame
   * @param {number} dpr
   * @param {string} key
   * @param {number} synced ms spent reading the trace
   * @param {number} band height of the canvas, CSS px (see `bandTop`)
   */
  renderLive(frame, dpr, key, synced, band) {
    const started = performance.now();
    this.drawnKey = key;
    this.liveShown = true;
    const resized = this.resizeBacking(frame.width, band, dpr);
    this.frame = frame;
    const s = this.store;
    const layersKey = [s.generation, CANVAS, INK, ...this.kinds].join(':');
    const due = performance.now() >= this.labelAt + 400 && this.labelTimer === null;
    const shown = this.live.draw(
      this.ctx,
      s,
      this.win,
      frame,
      this.kinds,
      this.model.playground.node_count(),
      dpr,
      layersKey,
      due,
      Math.round(this.bandTop * dpr),
      !resized && this.drawnCanvas,
    );
    this.drawnCanvas = true;
    if (this.live.behind) {
      // The layer's bake goes on in the next frame (the canvas keeps its
      // picture meanwhile), or after a while if no frame comes.
      this.drawnKey = '';
      const renders = this.renders;
      if (this.catchUp === null) {
        this.catchUp = setTimeout(() => {
          this.catchUp = null;
          if (this.renders === renders && this.live.behind) this.render();
        }, 50);
      }
    }
    if (shown) this.publish(shown);
    else if (this.labelTimer === null) {
      // Counted later, as the text alternative is (the last frame counts).
      this.labelTimer = setTimeout(() => {
        this.labelTimer = null;
        if (this.liveShown && this.frame) this.publish(this.live.shown(this.store, this.win, this.frame));
      }, Math.max(0, this.labelAt + 400 - performance.now()));
    }
    this.drawnAt = performance.now();
    this.cost = 0;
    this.els.canvas.dataset.renderMs = (this.drawnAt - started + synced).toFixed(2);
  }

  /**
   * Has the live plot's layer made at the size playing will need, when
   * the page is next idle (see `LivePlot.prepare`).
   * @private
   */
  prepareLive() {
    if (this.preparing) return;
    this.preparing = true;
    // Within 200 ms even if the page is never idle that long.
    const idle = window.requestIdleCallback
      ? (/** @type {() => void} */ fn) => window.requestIdleCallback(fn, { timeout: 200 })
      : (/** @type {() => void} */ fn) => setTimeout(fn, 200);
    idle(() => {
      this.preparing = false;
      // The frame drawn last (a scroll may have drawn another since).
      if (!this.model.moving && this.frame) this.live.prepare(this.frame, window.devicePixelRatio || 1);
    });
  }

  /**
   * Sizes the canvas's backing store.
   * @private
   * @param {number} width CSS px
   * @param {number} height CSS px
   * @param {number} dpr
   * @returns {boolean} whether it changed (which clears the canvas)
   */
  resizeBacking(width, height, dpr) {
    const canvas = this.els.canvas;
    const backW = Math.round(width * dpr);
    const backH = Math.round(height * dpr);
    if (canvas.width === backW && canvas.height === backH) return false;
    canvas.width = backW;
    canvas.height = backH;
    return true;
  }

  /**
   * What was drawn, for tests and assistive technology: data attributes
   * on the canvas and its text alternative (throttled).
   * @private
   * @param {import('./live.js').Shown} shown
   */
  publish(shown) {
    this.shown = shown;
    const c = this.els.canvas;
    const f = shown.frame;
    c.dataset.arrows = String(shown.solid);
    c.dataset.arrowsDrawn = String(shown.drawn);
    c.dataset.lost = String(shown.lost);
    c.dataset.roles = String(shown.roles);
    c.dataset.windowStart = String(shown.window.t0);
    c.dataset.windowEnd = String(shown.window.t0 + shown.window.span);
    c.dataset.plotLeft = String(f.left);
    c.dataset.plotWidth = String(f.plotWidth);
    this.els.note.textContent = shown.thinned || this.store.clipped
      ? 'Busy run: some messages and marks in this window are left out; zoom in to see them all.'
      : '';
    // The text alternative changes at most a few times a second; the
    // last change is always written (after a pause, too).
    const wait = this.labelAt + 400 - performance.now();
    if (wait > 0) {
      if (this.labelTimer === null) {
        this.labelTimer = setTimeout(() => {
          this.labelTimer = null;
          if (this.shown) this.publish(this.shown);
        }, wait);
      }
      return;
    }
    this.labelAt = performance.now();
    const label =
      `Space-time diagram of ${f.nodes} nodes from ${formatSpan(shown.window.t0)} to ` +
      `${formatSpan(shown.window.t0 + shown.window.span)}, now at ${formatSpan(this.store.nowMs)}: ` +
      `${shown.solid} messages (${shown.lost} lost), ${shown.leaders} became leader, ${shown.crashes} crashes, ` +
      `${shown.violations} violations. Click or use the arrow keys to move in time.`;
    if (c.getAttribute('aria-label') !== label) c.setAttribute('aria-label', label);
  }
}

/**
 * What a full drawing shows, counted from its scene.
 * @param {Scene} scene
 * @returns {import('./live.js').Shown}
 */
function sceneShown(scene) {
  let solid = 0;
  for (let i = 0; i < scene.arrowCount; i++) if ((scene.arrowFlags[i] & 6) === 0) solid += 1;
  const past = scene.roles.filter((m) => !m.future);
  return {
    frame: scene.frame,
    window: scene.window,
    solid,
    drawn: Math.ceil(scene.arrowCount / Math.max(1, Math.ceil(scene.arrowCount / MAX_ARROWS))),
    lost: scene.lost,
    roles: past.length,
    leaders: past.filter((m) => m.role === ROLE.leader).length,
    crashes: scene.crashes.filter((m) => !m.up && !m.future).length,
    violations: scene.rules.filter((r) => r.kind === 'violation' && !r.future).length,
    thinned: scene.thinned,
  };
}

/**
 * The legend of the diagram's marks, drawn with the same colours.
 * @param {HTMLElement} list `<ul>`
 */
export function buildLegend(list) {
  /** @type {[string, string][]} */
  const items = [
    ['line-leader', 'leading (thick orange)'],
    ['line-candidate', 'candidate (blue)'],
    ['line-crashed', 'down (dashed grey)'],
    ['line-paused', 'paused (dotted)'],
    ['line-service', 'service or resource, not a participant (purple)'],
    ['dot', 'role change (dot in the new role’s colour)'],
    ['diamond', 'starts an election'],
    ['tick', 'timer fires'],
    ['square', 'crash ■ / recovery □'],
    ['cross', 'message lost ✕'],
    ['rule', 'violation (red dashed line)'],
  ];
  list.replaceChildren(
    ...items.map(([glyph, text]) => {
      const li = document.createElement('li');
      const g = document.createElement('span');
      g.className = `st-glyph st-${glyph}`;
      g.setAttribute('aria-hidden', 'true');
      const t = document.createElement('span');
      t.textContent = text;
      li.append(g, t);
      return li;
    }),
  );
}

/**
 * How `paintScene` draws, for renderers that draw the same scene
 * elsewhere (the SVG export in spacetime-svg.js).
 */
export const SCENE_LOOK = Object.freeze({ SEGMENT_STYLES, FUTURE_ALPHA, ACCENT, FONT, MAX_ARROWS, light });
