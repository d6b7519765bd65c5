// @ts-check
/**
 * The dots worker: owns the OffscreenCanvas of every cluster view's layer
 * of messages on the wire (www/dots.js) and draws them with
 * flight-dots.js, so neither the drawing nor its software rasterizing
 * takes the page's main thread. Messages, each with the layer's `id`:
 *
 * - `canvas` {canvas}: the layer's OffscreenCanvas (transferred);
 * - `size` {width, height, dpr}: its backing size (clears it);
 * - `place` {points, radius}: node centres as x, y pairs, node radius;
 * - `frame` {rows, width, col, nowMs, style}: the flight rows to draw;
 * - `drop`: forget the layer.
 *
 * Frames are drawn at most once per animation frame of the worker: when
 * several arrive in between, only the latest of each layer is drawn.
 * @module dots-worker
 */

import { drawFlightRows } from './flight-dots.js';

/**
 * @typedef {object} Layer
 * @property {OffscreenCanvas} canvas
 * @property {OffscreenCanvasRenderingContext2D} ctx
 * @property {number} dpr
 * @property {ArrayLike<number>} points
 * @property {number} radius
 * @property {any} pending the latest `frame` message not drawn yet
 */

/** @type {Map<number, Layer>} */
const layers = new Map();
let scheduled = false;

/** Draws the latest frame of every layer that has one. */
function drawPending() {
  scheduled = false;
  for (const layer of layers.values()) {
    const f = layer.pending;
    if (!f) continue;
    layer.pending = null;
    const { ctx, canvas } = layer;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.setTransform(layer.dpr, 0, 0, layer.dpr, 0, 0);
    drawFlightRows(ctx, layer.points, layer.radius, f, f.nowMs, f.style);
  }
}

function schedule() {
  if (scheduled) return;
  scheduled = true;
  const scope = /** @type {any} */ (self);
  if (typeof scope.requestAnimationFrame === 'function') scope.requestAnimationFrame(drawPending);
  else setTimeout(drawPending, 0);
}

self.addEventListener('message', (e) => {
  const m = /** @type {any} */ (e).data;
  if (m.type === 'canvas') {
    /** @type {OffscreenCanvas} */
    const canvas = m.canvas;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('the dots worker cannot draw on an OffscreenCanvas');
    layers.set(m.id, { canvas, ctx, dpr: 1, points: [], radius: 0, pending: null });
    return;
  }
  const layer = layers.get(m.id);
  if (!layer) return;
  switch (m.type) {
    case 'size':
      layer.canvas.width = m.width;
      layer.canvas.height = m.height;
      layer.dpr = m.dpr;
      layer.pending = null;
      break;
    case 'place':
      layer.points = m.points;
      layer.radius = m.radius;
      break;
    case 'frame':
      layer.pending = m;
      schedule();
      break;
    case 'drop':
      layers.delete(m.id);
      break;
  }
});
