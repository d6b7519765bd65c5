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
 * window has a fixed span (not "whole run"); spacetime.js draws those
 * frames in full. The drawing data comes from the same `buildScene` (in
 * its delta form) and is painted by the same functions, so a frame looks
 * like the full drawing of the same moment. Messages are thinned the same
 * way, by id, with the factor fixed when the layer is rebuilt (rebuilt
 * again when the run gets much busier).
 * @module spacetime-live
 */

import { ROLE } from './trace.js';
import {
  AXIS_FONT,
  ArrowBuffer,
  MAX_ARROWS,
  ROW_BUDGET,
  buildScene,
  lookBack,
  paintContent,
  paintGrid,
  paintLabels,
  paintOverlay,
  ticksFor,
} from './spacetime.js';

/** The layer is this much wider than the plot (room to follow now). */
const ROOM = 1.5;

/** Device pixels ahead of now kept clear: what a frame bakes may reach
 * that far right of now (arrow heads, marks). */
const AHEAD = 24;

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
 * @property {import('./spacetime.js').Frame} frame
 * @property {import('./spacetime.js').TimeWindow} window
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
 * @param {import('./trace.js').TraceStore} store
 * @param {import('./spacetime.js').TimeWindow} win
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
 * @param {import('./trace.js').TraceStore} store
 * @param {import('./spacetime.js').TimeWindow} win
 * @param {import('./spacetime.js').Frame} frame
 * @returns {import('./spacetime.js').Scene['rules']}
 */
function rulesOf(store, win, frame) {
  const { col, code } = store.schema;
  const t1 = win.t0 + win.span;
  const scale = frame.plotWidth / win.span;
  /** @type {import('./spacetime.js').Scene['rules']} */
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
  constructor() {
    /** What is settled: time pixel `p` (device pixels from time 0) is
     * drawn in column `wrap(p - originPx, width)`. @private */
    this.base = layer();
    /** The node labels. @private */
    this.labels = layer();
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
    /** Messages drawn: ids that are multiples of this. */
    this.every = 1;
    /** Arrows baked since the rebuild, and the time then. @private */
    this.bakedArrows = 0;
    /** @private */
    this.builtAtMs = 0;
    /** @private */
    this.arrows = new ArrowBuffer();
    /** @private */
    this.live = new ArrowBuffer();
    /** Whether marks were left out since the rebuild. @private */
    this.marksThinned = false;
    /** Whether the next bake is the rebuild's first. @private */
    this.fresh = true;
    /** The window's edge and the canvas's size and band of the last
     * frame drawn. @private */
    this.drawnWinPx = NaN;
    /** @private */
    this.drawnWidth = '';
  }

  /** Forgets the layers (the next frame rebuilds them). */
  invalidate() {
    this.key = '';
  }

  /**
   * The window's left edge on whole device pixels (so the layer is copied
   * exactly).
   * @param {import('./spacetime.js').TimeWindow} win
   * @param {number} plotWidth CSS px
   * @param {number} dpr
   * @returns {import('./spacetime.js').TimeWindow}
   */
  static snap(win, plotWidth, dpr) {
    const pxMs = win.span / (plotWidth * dpr);
    // Up, so a window that follows now does not move again once paused.
    return { t0: Math.ceil(win.t0 / pxMs - 1e-6) * pxMs, span: win.span };
  }

  /**
   * Draws the current moment of a following window (already snapped).
   * @param {CanvasRenderingContext2D} ctx the diagram's, any transform
   * @param {import('./trace.js').TraceStore} store
   * @param {import('./spacetime.js').TimeWindow} win
   * @param {import('./spacetime.js').Frame} frame
   * @param {string[]} kinds
   * @param {number} participants
   * @param {number} dpr
   * @param {string} key everything else the drawing depends on (size,
   *   colours, the run)
   * @param {boolean} count whether to count what the window shows
   * @param {number} [yDev] the canvas shows the frame from this many
   *   device pixels down (it is only as tall as the window)
   * @returns {Shown | null} null when counting was not asked for
   */
  draw(ctx, store, win, frame, kinds, participants, dpr, key, count, yDev = 0) {
    const scaleDev = (frame.plotWidth * dpr) / win.span;
    const pxMs = 1 / scaleDev;
    const winPx = Math.round(win.t0 * scaleDev);
    const plotDev = Math.round(frame.plotWidth * dpr);
    const widthDev = Math.ceil(plotDev * ROOM) + 8;
    const heightDev = Math.round(frame.height * dpr);
    const now = store.nowMs;
    const fullKey = `${key}:${win.span}:${frame.plotWidth}:${frame.height}:${frame.nodes}:${dpr}`;
    const nowPx = Math.ceil(now * scaleDev);
    const tooBusy =
      now - this.builtAtMs > win.span / 4 &&
      (this.bakedArrows * win.span) / (now - this.builtAtMs) > 2 * MAX_ARROWS;
    let rebuilt = false;
    const prevBakedMs = this.bakedMs;
    if (
      fullKey !== this.key ||
      now < this.bakedMs ||
      winPx < Math.max(this.originPx, this.clearedPx - widthDev + 1) ||
      nowPx + AHEAD - winPx >= widthDev ||
      now - this.bakedMs > win.span / 4 ||
      tooBusy
    ) {
      this.rebuild(store, win, frame, participants, dpr, widthDev, heightDev, winPx);
      this.key = fullKey;
      rebuilt = true;
    }
    // Clear the columns about to be drawn in (they hold a lap ago, left
    // of the window).
    const clearTo = Math.max(nowPx + AHEAD, winPx + plotDev);
    if (clearTo > this.clearedPx) {
      const b = this.base.ctx;
      b.setTransform(1, 0, 0, 1, 0, 0);
      const count = Math.min(widthDev, clearTo - this.clearedPx);
      const from = wrap(this.clearedPx + 1 - this.originPx, widthDev);
      const first = Math.min(count, widthDev - from);
      b.clearRect(from, 0, first, heightDev);
      if (count > first) b.clearRect(0, 0, count - first, heightDev);
      this.clearedPx = clearTo;
    }

    // Draw what settled since the last frame into the base. The scene is
    // placed from the start of the lap (a layer's width of time pixels)
    // the last frame's drawing ended in, two laps wide (a frame's stretch
    // is shorter than a lap); each lap it touches is painted shifted to
    // its columns, clipped to the columns that stand for it now.
    const bakedPx = Math.floor(this.bakedMs * scaleDev);
    const lapPx = this.originPx + Math.floor((bakedPx - this.originPx) / widthDev) * widthDev;
    const originMs = lapPx * pxMs;
    /** @type {import('./spacetime.js').Frame} */
    const baseFrame = { ...frame, left: 0, plotWidth: (2 * widthDev) / dpr, width: (2 * widthDev) / dpr };
    const baseWin = { t0: originMs, span: 2 * widthDev * pxMs };
    const scene = buildScene(store, baseWin, baseFrame, kinds, this.arrows, {
      from: this.bakedMs,
      to: now,
      every: this.every,
      live: this.live,
    });
    scene.dashPhase = originMs * (scaleDev / dpr);
    const b = this.base.ctx;
    // Time pixels the drawing may touch, and those the columns hold now.
    const reachFrom = Math.floor((this.bakedMs - lookBack(store, win.span)) * scaleDev) - AHEAD;
    const reachTo = nowPx + AHEAD;
    const heldFrom = this.clearedPx - widthDev + 1;
    for (const lap of [-1, 0, 1]) {
      const lapFrom = lapPx + lap * widthDev;
      const from = Math.max(lapFrom, heldFrom, reachFrom);
      const to = Math.min(lapFrom + widthDev, this.clearedPx + 1, reachTo + 1);
      if (to <= from) continue;
      b.save();
      b.setTransform(1, 0, 0, 1, 0, 0);
      b.beginPath();
      b.rect(from - lapFrom, 0, to - from, heightDev);
      b.clip();
      b.setTransform(dpr, 0, 0, dpr, -lap * widthDev, 0);
      paintContent(b, scene);
      b.restore();
    }
    this.bakedMs = now;
    // The rate check counts what settled after the rebuild's first bake.
    this.bakedArrows = this.fresh ? 0 : this.bakedArrows + scene.arrowCount;
    this.fresh = false;
    if (scene.thinned) this.marksThinned = true;

    // The frame: axis, labels, the settled layer, the wire, now. When the
    // window stayed put, only the part right of what changed is drawn
    // again: from the earlier of the last frame's now and the oldest
    // message on the wire, less room for arrow heads and marks.
    const shiftCss = (winPx - lapPx) / dpr;
    let fromDev = 0;
    const same = `${ctx.canvas.width}x${ctx.canvas.height}@${yDev}`;
    if (!rebuilt && winPx === this.drawnWinPx && same === this.drawnWidth) {
      let minX = prevBakedMs * (scaleDev / dpr) - originMs * (scaleDev / dpr);
      const xy = this.live.xy;
      for (let i = 0; i < this.live.length; i++) minX = Math.min(minX, xy[4 * i], xy[4 * i + 2]);
      fromDev = Math.max(0, Math.floor((frame.left + minX - shiftCss - 10) * dpr));
    }
    this.drawnWinPx = winPx;
    this.drawnWidth = same;
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
    return count ? this.shown(store, win, frame) : null;
  }

  /**
   * What the window shows up to now, counted from the trace.
   * @param {import('./trace.js').TraceStore} store
   * @param {import('./spacetime.js').TimeWindow} win
   * @param {import('./spacetime.js').Frame} frame
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
   * Starts the layers over at the window's left edge: the node labels,
   * and a thinning factor from how busy the recent trace is.
   * @private
   * @param {import('./trace.js').TraceStore} store
   * @param {import('./spacetime.js').TimeWindow} win
   * @param {import('./spacetime.js').Frame} frame
   * @param {number} participants
   * @param {number} dpr
   * @param {number} widthDev
   * @param {number} heightDev
   * @param {number} winPx
   */
  rebuild(store, win, frame, participants, dpr, widthDev, heightDev, winPx) {
    const l = this.base;
    if (l.canvas.width !== widthDev) l.canvas.width = widthDev;
    if (l.canvas.height !== heightDev) l.canvas.height = heightDev;
    l.ctx.setTransform(1, 0, 0, 1, 0, 0);
    l.ctx.clearRect(0, 0, widthDev, heightDev);
    const labels = this.labels;
    const labelsWidth = Math.ceil(frame.left * dpr);
    labels.canvas.width = labelsWidth;
    labels.canvas.height = heightDev;
    labels.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    paintLabels(labels.ctx, frame, participants);

    this.originPx = winPx;
    this.clearedPx = winPx + widthDev - 1;
    const now = store.nowMs;
    const originMs = winPx * (win.span / (frame.plotWidth * dpr));
    this.bakedMs = originMs - 1e-9;
    this.builtAtMs = now;
    this.bakedArrows = 0;
    this.fresh = true;
    this.marksThinned = false;

    // Thinning: as the full drawing would thin a window this busy. The
    // rate is that of the last span before now (as much as is cached).
    const { col, code } = store.schema;
    const rows = store.window;
    const d = rows.data;
    const from = Math.max(now - win.span, rows.length > 0 ? d[col.at_ms] : now);
    let all = 0;
    let sends = 0;
    for (let r = rows.lowerBound(col.at_ms, from); r < rows.length; r++) {
      const o = r * rows.width;
      if (d[o + col.index] >= store.count) break;
      all += 1;
      if (d[o + col.type] === code.send) sends += 1;
    }
    const covered = Math.max(now - from, win.span / 20);
    const perSpan = (/** @type {number} */ x) => (x * (win.span + 2 * lookBack(store, win.span))) / covered;
    this.every = Math.max(1, Math.ceil(perSpan(all) / ROW_BUDGET), Math.ceil(perSpan(sends) / MAX_ARROWS));
  }
}
