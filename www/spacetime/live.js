// @ts-check
/**
 * The space-time diagram while it plays: instead of drawing the whole
 * window again every frame, what is settled (node lines, marks, messages
 * delivered or lost) is drawn once into an offscreen layer as it happens,
 * and a frame only copies that layer, adds the messages still on the wire
 * and draws the axis and the line of now. The layer is wider than the
 * plot and used round and round: a column stands for every time that is
 * a layer's width of device pixels apart, the columns just ahead of now
 * are cleared as now comes near, and a frame copies the window's part
 * in at most two pieces. (It was moved left once now reached its right
 * edge: a copy of the whole layer, 10 to 30 ms in software, every half a
 * window of played time.) The window's left edge is kept on whole device
 * pixels, so the copies are exact.
 *
 * Only while nothing after now is known (not after going back) and the
 * window has a fixed span (not "whole run"); view.js draws those
 * frames in full. The drawing data comes from the same `buildScene` (in
 * its delta form) and is painted by the same functions, so a frame looks
 * like the full drawing of the same moment. Messages are thinned the same
 * way, by id, with the factor fixed when the layer is rebuilt (rebuilt
 * again when the run gets much busier).
 * @module spacetime/live
 */

import { ROLE } from '../shared/names.js';
import {
  AXIS_FONT,
  ArrowBuffer,
  MAX_ARROWS,
  ROW_BUDGET,
  RowCursor,
  buildScene,
  lookBack,
  paintContent,
  paintGrid,
  paintLabels,
  paintOverlay,
  ticksFor,
} from './scene.js';

/** The layer is this much wider than the plot (room to follow now). */
const ROOM = 1.5;

/** Device pixels ahead of now kept clear: what a frame bakes may reach
 * that far right of now (arrow heads, marks). */
const AHEAD = 24;


/** Fewest trace rows per piece of a bake. */
const MIN_PIECE_ROWS = 256;

/** Most columns of the base cleared at a time (about 2 MB at 1024
 * nodes). */
const CLEAR_COLUMNS = 256;

/** Most rows whose type a rebuild looks at to set the thinning. */
const SAMPLE_ROWS = 4096;

/**
 * `a` modulo `m`, from 0 to `m - 1`.
 * @param {number} a
 * @param {number} m
 */
const wrap = (a, m) => ((a % m) + m) % m;

/**
 * What a frame showed, for the diagram's data attributes and text
 * alternative.
 * @typedef {object} Shown
 * @property {import('./scene.js').Frame} frame
 * @property {import('./scene.js').TimeWindow} window
 * @property {number} solid messages delivered or lost in the window, before now
 * @property {number} drawn of those, how many arrows are drawn
 * @property {number} lost messages lost in the window
 * @property {number} roles role changes in the window, before now
 * @property {number} leaders of those, to leader
 * @property {number} crashes crashes in the window
 * @property {number} violations violations in the window
 * @property {boolean} thinned whether messages or marks were left out
 */

/**
 * Counts what happened in a window up to now, straight from the trace
 * rows (exact, whatever was drawn).
 * @param {import('../shared/trace.js').TraceStore} store
 * @param {import('./scene.js').TimeWindow} win
 * @returns {{solid: number, lost: number, roles: number, leaders: number, crashes: number, violations: number}}
 */
function countWindow(store, win) {
  const { col, code } = store.schema;
  const t1 = win.t0 + win.span;
  let solid = 0;
  let lost = 0;
  const rows = store.window;
  const d = rows.data;
  for (let r = rows.lowerBound(col.at_ms, win.t0); r < rows.length; r++) {
    const o = r * rows.width;
    if (d[o + col.at_ms] > t1 || d[o + col.index] >= store.count) break;
    const type = d[o + col.type];
    if (type === code.deliver) solid += 1;
    else if (type === code.drop) {
      solid += 1;
      lost += 1;
    }
  }
  let roles = 0;
  let leaders = 0;
  let crashes = 0;
  let violations = 0;
  const h = store.history;
  const hd = h.data;
  for (let r = h.lowerBound(col.at_ms, win.t0); r < h.length; r++) {
    const o = r * h.width;
    if (hd[o + col.at_ms] > t1 || hd[o + col.index] >= store.count) break;
    const type = hd[o + col.type];
    if (type === code.role) {
      roles += 1;
      if (hd[o + col.value] === ROLE.leader) leaders += 1;
    } else if (type === code.crash) crashes += 1;
    else if (type === code.violation) violations += 1;
  }
  return { solid, lost, roles, leaders, crashes, violations };
}

/**
 * The vertical rules (violations, partitions, heals) of a window.
 * @param {import('../shared/trace.js').TraceStore} store
 * @param {import('./scene.js').TimeWindow} win
 * @param {import('./scene.js').Frame} frame
 * @returns {import('./scene.js').Scene['rules']}
 */
function rulesOf(store, win, frame) {
  const { col, code } = store.schema;
  const t1 = win.t0 + win.span;
  const scale = frame.plotWidth / win.span;
  /** @type {import('./scene.js').Scene['rules']} */
  const out = [];
  const h = store.history;
  const hd = h.data;
  for (let r = h.lowerBound(col.at_ms, win.t0); r < h.length; r++) {
    const o = r * h.width;
    const at = hd[o + col.at_ms];
    if (at > t1) break;
    const type = hd[o + col.type];
    const x = frame.left + (at - win.t0) * scale;
    const future = hd[o + col.index] >= store.count;
    if (type === code.violation) out.push({ x, label: '!', kind: 'violation', future });
    else if (type === code.partition) out.push({ x, label: 'split', kind: 'partition', future });
    else if (type === code.heal) out.push({ x, label: 'heal', kind: 'heal', future });
  }
  return out;
}

/**
 * An offscreen canvas with its 2D context.
 * @returns {{canvas: HTMLCanvasElement, ctx: CanvasRenderingContext2D}}
 */
function layer() {
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('this browser cannot draw on a canvas');
  return { canvas, ctx };
}

export class LivePlot {
  /** Most of a frame's time the bake may take, ms (from the start of the
   * frame's drawing; the first piece is always baked): a rebuilt layer's
   * bake of a busy window goes on over the next frames. (A setting, so a
   * test can bake over many frames.) */
  static bakeMs = 2;

  /** Most trace rows read per piece of a bake. A piece's cost depends on
   * what its rows hold (in the 1024-node burst, thousands of marks), so
   * the rows per piece are halved after a piece that took over half the
   * frame's share and doubled back after a quick one, down to
   * `MIN_PIECE_ROWS`. */
  static pieceRows = 4096;

  constructor() {
    /** What is settled: time pixel `p` (device pixels from time 0) is
     * drawn in column `wrap(p - originPx, width)`. @private */
    this.base = layer();
    /** The node labels, and what they were drawn for. @private */
    this.labels = layer();
    /** @private */
    this.labelsKey = '';
    /** The time axis's labels, written each frame. @private */
    this.axis = layer();
    /** What the layers were drawn for; '' forces a rebuild. @private */
    this.key = '';
    /** The time pixel of the base's column 0 at the rebuild. @private */
    this.originPx = 0;
    /** Columns are clear (or hold this lap's drawing) up to this time
     * pixel. @private */
    this.clearedPx = 0;
    /** Drawn into the base up to here, ms. @private */
    this.bakedMs = 0;
    /** Where the reading of the trace rows stands. @private */
    this.cursor = new RowCursor();
    /** Rows per piece now (see `pieceRows`). @private */
    this.pieceRows = LivePlot.pieceRows;
    /** Messages drawn: ids that are multiples of this. */
    this.every = 1;
    /** Arrows baked since the bake caught up with now after the rebuild,
     * and the time and trace length then. @private */
    this.bakedArrows = 0;
    /** @private */
    this.builtAtMs = 0;
    /** @private */
    this.builtCount = 0;
    /** @private */
    this.arrows = new ArrowBuffer();
    /** @private */
    this.live = new ArrowBuffer();
    /** Whether marks were left out since the rebuild. @private */
    this.marksThinned = false;
    /** Whether the bake has not yet caught up with now since the rebuild.
     * @private */
    this.fresh = true;
    /** Whether the bake is behind now (the last frame kept the picture
     * before it; the next frame bakes on). */
    this.behind = false;
    /** Whether the next frame drawn must draw all of it (the layer was
     * rebuilt since the last). @private */
    this.redrawAll = true;
    /** The window's edge, the canvas's size and band, and how far the
     * base was baked, at the last frame drawn. @private */
    this.drawnWinPx = NaN;
    /** @private */
    this.drawnWidth = '';
    /** @private */
    this.drawnBakedMs = 0;
    /** The lap (time pixel of a column 0) the last piece was placed
     * from. @private */
    this.lapPx = 0;
    /** The earliest send time of a message baked since the last frame
     * drawn whose line is not the one drawn while it was on the wire
     * (see `paintFrame`). @private */
    this.reshapedMs = Infinity;
    /** Whether the last piece left lines the trace never settled for the
     * next (see `StaleNote` in scene.js). @private */
    this.staleLeft = 0;
  }

  /** Forgets the layers (the next frame rebuilds them). */
  invalidate() {
    this.key = '';
  }

  /**
   * Makes the base layer at the size playing this frame will need, ahead
   * of time (while paused, when the page is idle): the first drawing on a
   * canvas that big (15 MB at 1024 nodes), which makes its pixels, took
   * the first frame of playing about 9 ms.
   * @param {import('./scene.js').Frame} frame
   * @param {number} dpr
   */
  prepare(frame, dpr) {
    const widthDev = Math.ceil(Math.round(frame.plotWidth * dpr) * ROOM) + 8;
    const heightDev = Math.round(frame.height * dpr);
    const l = this.base;
    if (l.canvas.width === widthDev && l.canvas.height === heightDev) return;
    l.canvas.width = widthDev;
    l.canvas.height = heightDev;
    this.key = '';
    // Reading a canvas never drawn on does not make its pixels; a
    // drawing does.
    l.ctx.clearRect(0, 0, widthDev, heightDev);
    this.flush();
  }

  /**
   * The window's left edge on whole device pixels (so the layer is copied
   * exactly).
   * @param {import('./scene.js').TimeWindow} win
   * @param {number} plotWidth CSS px
   * @param {number} dpr
   * @returns {import('./scene.js').TimeWindow}
   */
  static snap(win, plotWidth, dpr) {
    const pxMs = win.span / (plotWidth * dpr);
    // Up, so a window that follows now does not move again once paused.
    return { t0: Math.ceil(win.t0 / pxMs - 1e-6) * pxMs, span: win.span };
  }

  /**
   * Draws the current moment of a following window (already snapped).
   *
   * What settled since the last frame is baked into the layer first, in
   * pieces, for at most `bakeMs` of the frame (a rebuilt layer bakes the
   * whole window, which in a busy run is a hundred thousand rows). When
   * the bake could not catch up with now, `behind` is set and the canvas
   * keeps the picture it has (unless `keep` is false: the canvas was just
   * cleared); the frame after bakes on.
   * @param {CanvasRenderingContext2D} ctx the diagram's, any transform
   * @param {import('../shared/trace.js').TraceStore} store
   * @param {import('./scene.js').TimeWindow} win
   * @param {import('./scene.js').Frame} frame
   * @param {string[]} kinds
   * @param {number} participants
   * @param {number} dpr
   * @param {string} key everything else the drawing depends on (size,
   *   colours, the run)
   * @param {boolean} count whether to count what the window shows
   * @param {number} [yDev] the canvas shows the frame from this many
   *   device pixels down (it is only as tall as the window)
   * @param {boolean} [keep] whether the canvas may keep its picture while
   *   the bake is behind
   * @returns {Shown | null} null when counting was not asked for
   */
  draw(ctx, store, win, frame, kinds, participants, dpr, key, count, yDev = 0, keep = true) {
    const started = performance.now();
    const scaleDev = (frame.plotWidth * dpr) / win.span;
    const winPx = Math.round(win.t0 * scaleDev);
    const plotDev = Math.round(frame.plotWidth * dpr);
    // (As `prepare` sizes it.)
    const widthDev = Math.ceil(plotDev * ROOM) + 8;
    const heightDev = Math.round(frame.height * dpr);
    const now = store.nowMs;
    const fullKey = `${key}:${win.span}:${frame.plotWidth}:${frame.height}:${frame.nodes}:${dpr}`;
    const nowPx = Math.ceil(now * scaleDev);
    let rebuilt = false;
    if (
      fullKey !== this.key ||
      now < this.bakedMs ||
      winPx < Math.max(this.originPx, this.clearedPx - widthDev + 1) ||
      nowPx + AHEAD - winPx >= widthDev ||
      // The bake is behind the window's left edge: none of what it holds
      // is in view.
      Math.floor(this.bakedMs * scaleDev) < winPx - 1 ||
      this.rethin(store, win)
    ) {
      this.rebuild(store, win, frame, participants, dpr, widthDev, heightDev, winPx, fullKey);
      this.key = fullKey;
      rebuilt = true;
    }
    // Rows not read yet that left the cache (the oldest, in a run busier
    // than the cache holds) are passed over: a full drawing of the moment
    // does not read them either.
    if (this.cursor.next < store.windowFrom) this.cursor.next = store.windowFrom;
    // Bake what settled since the last frame, in pieces of at most
    // `pieceRows` trace rows, until now or until the frame's share is
    // spent (the first piece always, unless a rebuild spent the share).
    // The columns a piece draws in are cleared first (they hold a lap ago,
    // left of the window), at most `CLEAR_COLUMNS` at a time.
    const keepFrom = win.t0 - lookBack(store, win.span);
    let arrows = 0;
    /** @type {import('./scene.js').Scene | null} */
    let scene = null;
    const spent = () => performance.now() - started >= LivePlot.bakeMs;
    for (;;) {
      const piece = this.nextPiece(store);
      if (!this.clearUpTo(Math.ceil(piece.to * scaleDev) + AHEAD, widthDev, heightDev, spent)) break;
      if (scene === null ? rebuilt && spent() : spent()) break;
      const pieceFrom = performance.now();
      scene = this.bake(store, win, frame, kinds, dpr, widthDev, heightDev, keepFrom, piece.until, piece.to);
      arrows += scene.arrowCount;
      if (this.cursor.next >= store.count) break;
      // More to bake: have the base drawn now, so the time check counts
      // it (the canvas records drawing calls and draws them when it is
      // read, which the frame's copy would otherwise do all at once).
      this.flush();
      const took = performance.now() - pieceFrom;
      if (took > LivePlot.bakeMs / 2) this.pieceRows = Math.max(MIN_PIECE_ROWS, this.pieceRows >> 1);
      else if (took < LivePlot.bakeMs / 8) this.pieceRows = Math.min(LivePlot.pieceRows, this.pieceRows * 2);
    }
    // The window's columns right of now are shown too (once the rows are
    // all baked; meanwhile the pieces clear what they draw in).
    // (Lines the trace never settled, left for the next frame, count as
    // behind too: drawn on the wire in a frame drawn in full, 1,307 of
    // them in a dense band took 15 to 30 ms of rasterizing.)
    const caughtUp = scene !== null && this.cursor.next >= store.count && this.staleLeft === 0;
    const cleared = caughtUp && this.clearUpTo(Math.max(nowPx + AHEAD, winPx + plotDev), widthDev, heightDev, spent);
    this.behind = !cleared;
    if (this.behind) {
      this.live.length = 0;
    } else if (this.fresh) {
      // Caught up: the rate checks count from here.
      this.fresh = false;
      this.builtAtMs = now;
      this.builtCount = store.count;
      this.bakedArrows = 0;
    } else {
      this.bakedArrows += arrows;
    }
    // Behind, the canvas keeps its picture, unless it was just cleared and
    // a piece was baked to paint it from. (Caught up, a piece was baked:
    // `scene` is null only when behind.)
    if (scene === null || (this.behind && keep)) return count ? this.shown(store, win, frame) : null;
    this.paintFrame(ctx, store, win, frame, scene, dpr, yDev);
    return count ? this.shown(store, win, frame) : null;
  }

  /**
   * Whether the layer should be rebuilt for its thinning: the run got
   * much busier than the thinning was set for (too many arrows per
   * window), or much quieter (a burst's thinning kept for what follows
   * it). Only a quarter of a window (busier) or a whole window (quieter)
   * after the bake caught up, so that the rebuild, which sets the thinning
   * from the last window's rows, sees the new rate.
   * @private
   * @param {import('../shared/trace.js').TraceStore} store
   * @param {import('./scene.js').TimeWindow} win
   */
  rethin(store, win) {
    if (this.fresh) return false;
    const since = store.nowMs - this.builtAtMs;
    if (since > win.span / 4 && (this.bakedArrows * win.span) / since > 2 * MAX_ARROWS) return true;
    if (this.every === 1 || since < win.span) return false;
    // Every row read since could be a send: an upper bound of the
    // thinning the rebuild would set.
    const perSpan = ((store.count - this.builtCount) * (win.span + 2 * lookBack(store, win.span))) / since;
    return Math.ceil(perSpan / MAX_ARROWS) * 4 <= this.every;
  }

  /**
   * The next piece of a bake: the rows from the cursor on, at most
   * `pieceRows` of them, up to the time of the last one (now, once all
   * are read).
   * @private
   * @param {import('../shared/trace.js').TraceStore} store
   * @returns {{until: number, to: number}} trace index to read up to
   *   (exclusive), and the time to draw up to, ms
   */
  nextPiece(store) {
    const until = Math.min(store.count, this.cursor.next + Math.min(this.pieceRows, LivePlot.pieceRows));
    let to = store.nowMs;
    if (until < store.count) {
      const rows = store.window;
      const { col } = store.schema;
      const r = rows.lowerBound(col.index, until - 1);
      if (r < rows.length) to = Math.max(this.bakedMs, rows.data[r * rows.width + col.at_ms]);
    }
    return { until, to };
  }

  /**
   * Clears the base's columns up to time pixel `px`, `CLEAR_COLUMNS` at a
   * time while the frame's share lasts (the first step always).
   * @private
   * @param {number} px
   * @param {number} widthDev
   * @param {number} heightDev
   * @param {() => boolean} spent whether the frame's share is spent
   * @returns {boolean} whether they are all clear
   */
  clearUpTo(px, widthDev, heightDev, spent) {
    // Further than a layer's width: every column is cleared.
    if (px - this.clearedPx > widthDev) this.clearedPx = px - widthDev;
    let first = true;
    while (this.clearedPx < px) {
      if (!first && spent()) return false;
      first = false;
      const b = this.base.ctx;
      b.setTransform(1, 0, 0, 1, 0, 0);
      const count = Math.min(CLEAR_COLUMNS, px - this.clearedPx);
      const from = wrap(this.clearedPx + 1 - this.originPx, widthDev);
      const head = Math.min(count, widthDev - from);
      b.clearRect(from, 0, head, heightDev);
      if (count > head) b.clearRect(0, 0, count - head, heightDev);
      this.clearedPx += count;
      if (this.clearedPx < px) this.flush();
    }
    return true;
  }

  /**
   * Bakes a piece of what settled into the base (see `nextPiece`). The
   * scene is placed from the
   * start of the lap (a layer's width of time pixels) the last bake ended
   * in, two laps wide (a piece's stretch is shorter than a lap); each lap
   * it touches is painted shifted to its columns, clipped to the columns
   * that stand for it now.
   * @private
   * @param {import('../shared/trace.js').TraceStore} store
   * @param {import('./scene.js').TimeWindow} win
   * @param {import('./scene.js').Frame} frame
   * @param {string[]} kinds
   * @param {number} dpr
   * @param {number} widthDev
   * @param {number} heightDev
   * @param {number} keepFrom ms: sends still on the wire from before this
   *   are forgotten
   * @param {number} until trace index the piece reads up to (exclusive)
   * @param {number} to ms the piece draws up to (see `nextPiece`)
   * @returns {import('./scene.js').Scene}
   */
  bake(store, win, frame, kinds, dpr, widthDev, heightDev, keepFrom, until, to) {
    const scaleDev = (frame.plotWidth * dpr) / win.span;
    const pxMs = 1 / scaleDev;
    const bakedPx = Math.floor(this.bakedMs * scaleDev);
    const lapPx = this.originPx + Math.floor((bakedPx - this.originPx) / widthDev) * widthDev;
    const originMs = lapPx * pxMs;
    /** @type {import('./scene.js').Frame} */
    const baseFrame = { ...frame, left: 0, plotWidth: (2 * widthDev) / dpr, width: (2 * widthDev) / dpr };
    const baseWin = { t0: originMs, span: 2 * widthDev * pxMs };
    /** @type {import('./scene.js').Delta} */
    const delta = {
      from: this.bakedMs,
      to,
      every: this.every,
      live: this.live,
      cursor: this.cursor,
      until,
      keepFrom,
    };
    const scene = buildScene(store, baseWin, baseFrame, kinds, this.arrows, delta);
    this.reshapedMs = Math.min(this.reshapedMs, delta.reshapedMs ?? Infinity);
    this.staleLeft = delta.staleLeft ?? 0;
    scene.dashPhase = originMs * (scaleDev / dpr);
    const b = this.base.ctx;
    // Time pixels the drawing may touch, and those the columns hold now.
    // (Back to the send of a line the trace never settled, drawn now.)
    const reachMs = Math.min(this.bakedMs - lookBack(store, win.span), delta.staleFromMs ?? Infinity);
    const reachFrom = Math.floor(reachMs * scaleDev) - AHEAD;
    const reachTo = Math.ceil(to * scaleDev) + AHEAD;
    const heldFrom = Math.max(this.originPx, this.clearedPx - widthDev + 1);
    for (const lap of [-1, 0, 1]) {
      const lapFrom = lapPx + lap * widthDev;
      const from = Math.max(lapFrom, heldFrom, reachFrom);
      const lapTo = Math.min(lapFrom + widthDev, this.clearedPx + 1, reachTo + 1);
      if (lapTo <= from) continue;
      b.save();
      b.setTransform(1, 0, 0, 1, 0, 0);
      b.beginPath();
      b.rect(from - lapFrom, 0, lapTo - from, heightDev);
      b.clip();
      b.setTransform(dpr, 0, 0, dpr, -lap * widthDev, 0);
      paintContent(b, scene);
      b.restore();
    }
    this.bakedMs = to;
    this.lapPx = lapPx;
    if (scene.thinned) this.marksThinned = true;
    return scene;
  }

  /**
   * The frame: axis, labels, the settled layer, the wire, now. When the
   * window stayed put, only the part right of the last frame's now is
   * drawn again (less room for arrow heads and marks): left of it, what
   * the last frame drew stands. A message's line on the wire is the start
   * of its line once delivered (its tip is at now), so the wire need not
   * be drawn again there; a message whose line came out otherwise (lost,
   * or arrived at another time than planned) moves the part drawn again
   * left to its start. (The wire was drawn again whole every frame, from
   * its oldest message: in the 1024-node burst, from time 0, 163 lines
   * across the band, most of the canvas's rasterizing.)
   * @private
   * @param {CanvasRenderingContext2D} ctx
   * @param {import('../shared/trace.js').TraceStore} store
   * @param {import('./scene.js').TimeWindow} win
   * @param {import('./scene.js').Frame} frame
   * @param {import('./scene.js').Scene} scene the last piece baked
   *   (placed from the lap `lapPx`)
   * @param {number} dpr
   * @param {number} yDev
   */
  paintFrame(ctx, store, win, frame, scene, dpr, yDev) {
    const now = store.nowMs;
    const scaleDev = (frame.plotWidth * dpr) / win.span;
    const winPx = Math.round(win.t0 * scaleDev);
    const plotDev = Math.round(frame.plotWidth * dpr);
    const widthDev = Math.ceil(plotDev * ROOM) + 8;
    const heightDev = Math.round(frame.height * dpr);
    const originMs = this.lapPx / scaleDev;
    const shiftCss = (winPx - this.lapPx) / dpr;
    let fromDev = 0;
    const same = `${ctx.canvas.width}x${ctx.canvas.height}@${yDev}`;
    if (!this.redrawAll && winPx === this.drawnWinPx && same === this.drawnWidth) {
      const minX = (Math.min(this.drawnBakedMs, this.reshapedMs) - originMs) * (scaleDev / dpr);
      fromDev = Math.max(0, Math.floor((frame.left + minX - shiftCss - 10) * dpr));
    }
    this.reshapedMs = Infinity;
    this.redrawAll = false;
    this.drawnWinPx = winPx;
    this.drawnWidth = same;
    this.drawnBakedMs = this.bakedMs;
    const leftDev = Math.round(frame.left * dpr);
    // Outside save/restore, so that the canvas keeps the axis's font from
    // frame to frame and it is not set again (see AXIS_FONT).
    if (ctx.font !== AXIS_FONT) ctx.font = AXIS_FONT;
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    if (fromDev > 0) {
      ctx.beginPath();
      ctx.rect(fromDev, 0, ctx.canvas.width - fromDev, ctx.canvas.height);
      ctx.clip();
    }
    ctx.clearRect(fromDev, 0, ctx.canvas.width - fromDev, ctx.canvas.height);
    ctx.setTransform(dpr, 0, 0, dpr, 0, -yDev);
    // The axis labels: written off the page (see paintGrid), copied when
    // the band shows the axis.
    const axisDev = Math.ceil(frame.top * dpr);
    const axis = yDev < axisDev ? this.axis : null;
    if (axis) {
      if (axis.canvas.width !== ctx.canvas.width) axis.canvas.width = ctx.canvas.width;
      if (axis.canvas.height !== axisDev) axis.canvas.height = axisDev;
      axis.ctx.setTransform(1, 0, 0, 1, 0, 0);
      axis.ctx.clearRect(0, 0, axis.canvas.width, axisDev);
      axis.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    }
    paintGrid(ctx, { frame, ticks: ticksFor(win, frame) }, axis ? axis.ctx : null);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    if (axis) ctx.drawImage(axis.canvas, 0, -yDev);
    if (fromDev < this.labels.canvas.width) ctx.drawImage(this.labels.canvas, 0, -yDev);
    const skip = Math.max(0, fromDev - leftDev);
    const bandDev = Math.min(ctx.canvas.height, heightDev - yDev);
    if (skip < plotDev && bandDev > 0) {
      // The window's columns, in two pieces where they wrap round.
      const from = wrap(winPx + skip - this.originPx, widthDev);
      const count = plotDev - skip;
      const first = Math.min(count, widthDev - from);
      ctx.drawImage(this.base.canvas, from, yDev, first, bandDev, leftDev + skip, 0, first, bandDev);
      if (count > first) {
        ctx.drawImage(this.base.canvas, 0, yDev, count - first, bandDev, leftDev + skip + first, 0, count - first, bandDev);
      }
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, -yDev);
    ctx.save();
    const plotBottom = frame.top + frame.nodes * frame.rowHeight;
    ctx.beginPath();
    ctx.rect(frame.left, frame.top - 2, frame.plotWidth, plotBottom - frame.top + 4);
    ctx.clip();
    ctx.translate(frame.left - shiftCss, 0);
    paintContent(ctx, {
      ...scene,
      ticks: [],
      segments: [],
      arrowCount: this.live.length,
      arrows: this.live.xy,
      arrowKind: this.live.kind,
      arrowFlags: this.live.flags,
      timers: [],
      elections: [],
      roles: [],
      crashes: [],
      pauses: [],
      rules: [],
    });
    ctx.restore();
    const nowX = frame.left + (now - win.t0) * (frame.plotWidth / win.span);
    paintOverlay(ctx, { frame, rules: rulesOf(store, win, frame), nowX });
    ctx.restore();
  }

  /**
   * Has the base layer draw the calls it recorded (reading a pixel makes
   * it).
   * @private
   */
  flush() {
    this.base.ctx.getImageData(0, 0, 1, 1);
  }

  /**
   * What the window shows up to now, counted from the trace.
   * @param {import('../shared/trace.js').TraceStore} store
   * @param {import('./scene.js').TimeWindow} win
   * @param {import('./scene.js').Frame} frame
   * @returns {Shown}
   */
  shown(store, win, frame) {
    const c = countWindow(store, win);
    return {
      frame,
      window: win,
      ...c,
      drawn: Math.ceil(c.solid / this.every),
      thinned: this.every > 1 || this.marksThinned || store.clipped,
    };
  }

  /**
   * Starts the layers over at the window's left edge: the node labels, a
   * thinning factor from how busy the recent trace is, and the reading of
   * the rows from as far before the window as a message may have been
   * sent that arrives in it.
   * @private
   * @param {import('../shared/trace.js').TraceStore} store
   * @param {import('./scene.js').TimeWindow} win
   * @param {import('./scene.js').Frame} frame
   * @param {number} participants
   * @param {number} dpr
   * @param {number} widthDev
   * @param {number} heightDev
   * @param {number} winPx
   * @param {string} key what the layers are drawn for (see `draw`)
   */
  rebuild(store, win, frame, participants, dpr, widthDev, heightDev, winPx, key) {
    // Clearing a whole canvas is quick (under half a millisecond for the
    // 15 MB of a 1024-node layer); its first drawing, which makes its
    // pixels, is not (about 9 ms), hence `prepare`.
    const l = this.base;
    if (l.canvas.width !== widthDev) l.canvas.width = widthDev;
    if (l.canvas.height !== heightDev) l.canvas.height = heightDev;
    l.ctx.setTransform(1, 0, 0, 1, 0, 0);
    l.ctx.clearRect(0, 0, widthDev, heightDev);
    // The labels only when they change (171 texts at 1024 nodes).
    const labelsKey = `${key}:${participants}`;
    if (labelsKey !== this.labelsKey) {
      this.labelsKey = labelsKey;
      const labels = this.labels;
      labels.canvas.width = Math.ceil(frame.left * dpr);
      labels.canvas.height = heightDev;
      labels.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      paintLabels(labels.ctx, frame, participants);
    }

    this.originPx = winPx;
    this.clearedPx = winPx + widthDev - 1;
    const now = store.nowMs;
    const originMs = winPx * (win.span / (frame.plotWidth * dpr));
    this.bakedMs = originMs - 1e-9;
    this.fresh = true;
    this.redrawAll = true;
    this.marksThinned = false;

    // Thinning: as the full drawing would thin a window this busy. The
    // rate is that of the last span before now (as much as is cached);
    // the share of sends among its rows is counted on at most
    // `SAMPLE_ROWS` of them, evenly spread.
    const { col, code } = store.schema;
    const rows = store.window;
    const d = rows.data;
    const from = Math.max(now - win.span, rows.length > 0 ? d[col.at_ms] : now);
    const lo = rows.lowerBound(col.at_ms, from);
    const all = Math.max(0, rows.lowerBound(col.index, store.count) - lo);
    const step = Math.max(1, Math.floor(all / SAMPLE_ROWS));
    let sampled = 0;
    let sent = 0;
    for (let r = lo; r < lo + all; r += step) {
      sampled += 1;
      if (d[r * rows.width + col.type] === code.send) sent += 1;
    }
    const sends = sampled > 0 ? Math.ceil((sent * all) / sampled) : 0;
    const covered = Math.max(now - from, win.span / 20);
    const perSpan = (/** @type {number} */ x) => (x * (win.span + 2 * lookBack(store, win.span))) / covered;
    this.every = Math.max(1, Math.ceil(perSpan(all) / ROW_BUDGET), Math.ceil(perSpan(sends) / MAX_ARROWS));

    // The rows are read from as far back as a message that arrives in the
    // window may have been sent (what a full drawing reads).
    const first = rows.lowerBound(col.at_ms, originMs - lookBack(store, win.span));
    this.cursor = new RowCursor(first < rows.length ? d[first * rows.width + col.index] : store.windowTo);
  }
}
