// @ts-check
/**
 * The cluster worker: owns the three OffscreenCanvases of every cluster
 * view (www/cluster/layers.js), the still layer, the messages on the
 * wire with the nodes' timer arcs, and the nodes' words over them, and
 * draws them with draw.js (its
 * flight-dots.js and timer-arcs.js), so neither the
 * drawing nor its software rasterizing takes the page's main thread.
 * Messages, each with the view's `id`:
 *
 * - `canvases` {still, moving, labels}: the OffscreenCanvases (transferred);
 * - `size` {width, height, dpr}: their backing size (clears them);
 * - `place` {geometry}: where the nodes are (draw.js `Geometry`);
 * - `still` {scene, picked, theme}: the nodes (the core's rows, see
 *   node-rows.js), cuts and leader to draw, the nodes picked for a
 *   partition, the theme's canvas colours;
 * - `dots` {rows, width, col, nowMs, style, timers?}: the flight rows to
 *   draw, with the nodes' pending timers (timer-arcs.js `pendingTimers`)
 *   when they changed since the last `dots`;
 * - `drop`: the view is gone.
 *
 * It answers each still drawing with `{id, ms, at}`: what it cost and
 * when it was done (ms since the epoch). `still` and `dots` carry a `seq`
 * when a test holds the page's clock (www/shared/play-clock.js); the worker then
 * also answers `{painted}`: every drawing up to that number is drawn (or
 * was superseded or dropped), after `{id, drawn}` for each moving layer
 * drawn: what it showed (draw.js `MovingDrawn`, the page's drawing model
 * for tests). Drawing happens at most once per animation
 * frame of the worker: of what arrived in between, only the latest of
 * each kind per view is drawn. It happens part way into the frame
 * (`MID_FRAME`), not at its start.
 * @module cluster-worker
 */

import { drawLabels, drawMovingRows, drawStill } from './draw.js';
import { DARTS_FROM, flightCount } from './flight-dots.js';
import { decodeNodes } from './node-rows.js';
import { setCanvasTheme } from '../shared/palette.js';

/** From this many messages on the wire, in all the views the worker
 * draws together (compare mode has four), the moving layers are drawn at
 * most every other frame of the worker (30 a second on a 60 Hz screen):
 * rasterizing them takes the second core for several milliseconds a
 * frame (about 2 ms for 500 arrows with their outlines, 4 for 1,000
 * darts), at the same vsync as the page's own frame, which then waits for
 * a CPU (docs/PERFORMANCE.md, Frame budgets: compare mode's four 64-node
 * views, 500 to 700 arrows together, gained 1.5 to 3 ms at p95). At that
 * density the messages are a moving texture rather than arrows to
 * follow one by one. A test holding the page's clock gets every drawing. */
const HALF_RATE_FROM = DARTS_FROM / 2;

/** How far into the frame interval, as a share of it, the worker draws
 * (9 ms at 60 Hz): the page's own frame (its drawing, style, layout,
 * paint and commit) and then its simulation task run from the start of
 * the interval, and the compositor's work follows them. Drawn at the
 * start, at the same vsync, the rasterizing took the second core while
 * the page's frame ran and that frame waited for a CPU (on two cores,
 * compare mode's four 64-node views: sim + frame p95 9.7-12.7 ms drawn
 * at the start, 8.1-9.9 ms drawn 9 ms in; the compare embed 9.2-11.7
 * against 6.6-7.9; docs/PERFORMANCE.md, Frame budgets). A drawing for a
 * test holding the page's clock (`seq`) is done at once. */
const MID_FRAME = 0.55;

/**
 * @typedef {object} View
 * @property {OffscreenCanvas} still
 * @property {OffscreenCanvasRenderingContext2D} stillCtx
 * @property {OffscreenCanvas} moving
 * @property {OffscreenCanvasRenderingContext2D} movingCtx
 * @property {OffscreenCanvas} labels the nodes' words, over the messages
 * @property {OffscreenCanvasRenderingContext2D} labelsCtx
 * @property {number} dpr
 * @property {import('./draw.js').Geometry | null} geometry
 * @property {any} stillPending the latest `still` message not drawn yet
 * @property {any} dotsPending the latest `dots` message not drawn yet
 * @property {Float64Array} timers the nodes' pending timers, as last posted
 * @property {number} movedAt the worker's frame the moving layer was last
 *   drawn in
 */

/** @type {Map<number, View>} */
const views = new Map();
let scheduled = false;
/** Whether a drawing part way into this frame is set (see `MID_FRAME`). */
let timed = false;
/** The display's frame interval, ms, as the worker's animation frames
 * come (a frame skipped is not counted), and the last frame's time. */
let interval = 1000 / 60;
let lastFrame = -Infinity;
/** The worker's animation frames so far. */
let frames = 0;
/** The highest `seq` received, and the last one answered (see `answer`). */
let received = 0;
let answered = 0;

/**
 * @param {OffscreenCanvas} canvas
 * @returns {OffscreenCanvasRenderingContext2D}
 */
function context(canvas) {
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('the cluster worker cannot draw on an OffscreenCanvas');
  return ctx;
}

/**
 * Clears a canvas and scales it to CSS px.
 * @param {OffscreenCanvasRenderingContext2D} ctx
 * @param {number} dpr
 */
function fresh(ctx, dpr) {
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
}

/**
 * The worker's animation frame: draws what is pending part way into it
 * (see `MID_FRAME`), or at once for a test holding the page's clock.
 * @param {number} at the frame's time, ms
 */
function onFrame(at) {
  scheduled = false;
  const gap = at - lastFrame;
  if (gap > 0 && gap < 1.5 * interval) interval = 0.8 * interval + 0.2 * gap;
  lastFrame = at;
  let test = false;
  for (const v of views.values()) if (v.stillPending?.seq || v.dotsPending?.seq) test = true;
  const wait = MID_FRAME * interval - (performance.now() - at);
  if (test || wait <= 0) {
    drawPending();
    return;
  }
  timed = true;
  setTimeout(() => {
    timed = false;
    drawPending();
  }, wait);
}

/** Draws what is pending for every view. */
function drawPending() {
  frames += 1;
  let wire = 0;
  for (const v of views.values()) if (v.dotsPending) wire += flightCount(v.dotsPending);
  const halfRate = wire >= HALF_RATE_FROM;
  for (const [id, v] of views) {
    const g = v.geometry;
    if (!g) continue;
    const s = v.stillPending;
    if (s) {
      v.stillPending = null;
      const started = performance.now();
      setCanvasTheme(s.theme);
      fresh(v.stillCtx, v.dpr);
      fresh(v.labelsCtx, v.dpr);
      // Only the nodes, cuts and leader are read by drawStill.
      const scene = { ...s.scene, nodes: decodeNodes(s.scene.nodes) };
      const nodes = drawStill(/** @type {any} */ (v.stillCtx), g, scene, { picked: new Set(s.picked) });
      drawLabels(v.labelsCtx, g, scene);
      // `at`: when it was done, as a time since the epoch (the page's
      // clock has another origin). The nodes as drawn only for a test.
      const done = performance.now();
      self.postMessage({ id, ms: done - started, at: performance.timeOrigin + done, nodes: s.seq ? nodes : undefined });
    }
    const f = v.dotsPending;
    if (f && !f.seq && halfRate && frames - v.movedAt < 2) {
      // Drawn in the next frame (the latest rows by then).
      schedule();
    } else if (f) {
      v.dotsPending = null;
      v.movedAt = frames;
      fresh(v.movingCtx, v.dpr);
      const drawn = drawMovingRows(v.movingCtx, g, f, v.timers, f.nowMs, f.style);
      // Only for a test (which holds the page's clock): what was drawn.
      if (f.seq) self.postMessage({ id, drawn });
    }
  }
  answer();
}

/**
 * Tells a page whose clock a test holds how far the drawings are done:
 * up to what was received, or to just before the first one still
 * waiting (for a view not placed yet).
 */
function answer() {
  if (received === 0) return;
  let waiting = Infinity;
  for (const v of views.values()) {
    for (const m of [v.stillPending, v.dotsPending]) if (m?.seq) waiting = Math.min(waiting, m.seq);
  }
  const done = waiting === Infinity ? received : waiting - 1;
  if (done <= answered) return;
  answered = done;
  self.postMessage({ painted: done });
}

/** Has what is pending drawn in the worker's next frame (or by the
 * drawing already set for this one). */
function schedule() {
  if (scheduled || timed) return;
  scheduled = true;
  const scope = /** @type {any} */ (self);
  if (typeof scope.requestAnimationFrame === 'function') scope.requestAnimationFrame(onFrame);
  else setTimeout(() => onFrame(performance.now()), 0);
}

self.addEventListener('message', (e) => {
  const m = /** @type {any} */ (e).data;
  if (m.type === 'canvases') {
    views.set(m.id, {
      still: m.still,
      stillCtx: context(m.still),
      moving: m.moving,
      movingCtx: context(m.moving),
      labels: m.labels,
      labelsCtx: context(m.labels),
      dpr: 1,
      geometry: null,
      stillPending: null,
      dotsPending: null,
      timers: new Float64Array(0),
      movedAt: 0,
    });
    return;
  }
  if (m.seq) received = Math.max(received, m.seq);
  const v = views.get(m.id);
  if (!v) {
    if (received > 0) schedule();
    return;
  }
  switch (m.type) {
    case 'size':
      for (const c of [v.still, v.moving, v.labels]) {
        c.width = m.width;
        c.height = m.height;
      }
      v.dpr = m.dpr;
      v.dotsPending = null;
      // A test's hand is told of the dropped drawing.
      if (received > 0) schedule();
      break;
    case 'place':
      v.geometry = m.geometry;
      break;
    case 'still':
      v.stillPending = m;
      schedule();
      break;
    case 'dots':
      // Kept at once: a later `dots` drawn instead of this one may not
      // carry them.
      if (m.timers) v.timers = m.timers;
      v.dotsPending = m;
      schedule();
      break;
    case 'drop':
      views.delete(m.id);
      if (received > 0) schedule();
      break;
  }
});
