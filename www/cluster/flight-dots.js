// @ts-check
/**
 * Drawing the messages on the wire from the core's flight rows (a
 * `Float64Array`, `flight_fields()` columns), each at
 * `(now - sent) / (arrive - sent)` of its path from edge to edge of its two
 * nodes (as RaftScope does). No DOM and no page state: the same code draws
 * in the dots worker (www/dots-worker.js, on an OffscreenCanvas), on the
 * page when workers or OffscreenCanvas are missing, and in the PNG export.
 * @module flight-dots
 */

import { CUT, kindColour } from '../shared/palette.js';

/**
 * Column index of each flight field in a row.
 * @typedef {object} FlightColumns
 * @property {number} from
 * @property {number} to
 * @property {number} kind index into the snapshot's `kinds`
 * @property {number} sent_ms
 * @property {number} arrive_ms
 * @property {number} lost 1 when the network will lose it
 */

/**
 * The messages on the wire of one moment, as the core's rows (read from
 * wasm in one copy; see `Model.flights`).
 * @typedef {object} Flights
 * @property {Float64Array} rows `width` numbers per message
 * @property {number} width numbers per row
 * @property {FlightColumns} col
 */

/**
 * How the dots are drawn besides where.
 * @typedef {object} DotStyle
 * @property {boolean} still prefers-reduced-motion: a line and a mark by
 *   the receiver instead of a moving dot
 * @property {string} ink the theme's ink (the cross over a lost message)
 */

/** From this many messages on the wire on, their dots have no outline. */
const DENSE_FLIGHTS = 3500;

/**
 * How many messages `f` holds.
 * @param {Flights} f
 * @returns {number}
 */
export function flightCount(f) {
  return f.width > 0 ? Math.floor(f.rows.length / f.width) : 0;
}

/**
 * Draws every message of `f`. Messages that will arrive are batched into
 * one path per kind (one fill and one stroke per colour, not per message),
 * so thousands in flight cost little; lost ones (rare) and the
 * reduced-motion drawing go one by one.
 * @param {CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D} ctx
 *   scaled so one unit is one CSS px
 * @param {ArrayLike<number>} at node centres, x and y by node id (`2 * id`, `2 * id + 1`)
 * @param {number} radius node radius
 * @param {Flights} f
 * @param {number} nowMs
 * @param {DotStyle} style
 */
export function drawFlightRows(ctx, at, radius, f, nowMs, style) {
  const { rows, width, col } = f;
  const nodes = at.length / 2;
  const n = flightCount(f);
  if (style.still) {
    for (let i = 0; i < n; i++) drawOne(ctx, at, nodes, radius, rows, i * width, col, nowMs, style);
    return;
  }
  /** @type {Map<number, Path2D>} */
  const paths = new Map();
  const r = radius;
  const size = Math.max(3.5, Math.min(7, r * 0.3));
  let lost = 0;
  for (let i = 0; i < n; i++) {
    const o = i * width;
    if (rows[o + col.lost] === 1) {
      lost += 1;
      continue;
    }
    const from = rows[o + col.from];
    const to = rows[o + col.to];
    if (from === to || from >= nodes || to >= nodes) continue;
    const ax = at[2 * from];
    const ay = at[2 * from + 1];
    const dx = at[2 * to] - ax;
    const dy = at[2 * to + 1] - ay;
    const sent = rows[o + col.sent_ms];
    const span = rows[o + col.arrive_ms] - sent;
    const t = span > 0 ? Math.min(1, Math.max(0, (nowMs - sent) / span)) : 1;
    const len = Math.hypot(dx, dy) || 1;
    const ux = dx / len;
    const uy = dy / len;
    const x = ax + ux * r + (dx - 2 * ux * r) * t;
    const y = ay + uy * r + (dy - 2 * uy * r) * t;
    const kind = rows[o + col.kind];
    let path = paths.get(kind);
    if (!path) {
      path = new Path2D();
      paths.set(kind, path);
    }
    path.moveTo(x + size, y);
    path.arc(x, y, size, 0, 2 * Math.PI);
  }
  ctx.save();
  ctx.lineWidth = 1;
  ctx.strokeStyle = '#ffffff';
  // So many that they cover each other: no outlines (half the drawing).
  const outline = n < DENSE_FLIGHTS;
  for (const [kind, path] of paths) {
    ctx.fillStyle = kindColour(kind);
    ctx.fill(path);
    if (outline) ctx.stroke(path);
  }
  ctx.restore();
  if (lost === 0) return;
  for (let i = 0; i < n; i++) {
    if (rows[i * width + col.lost] === 1) drawOne(ctx, at, nodes, radius, rows, i * width, col, nowMs, style);
  }
}

/**
 * One message on its way. A message the network will lose fades as it
 * goes and is crossed out. With `style.still`: a thin line in its kind's
 * colour from sender to receiver and a mark near the receiver, the same
 * for the whole flight (nothing moves).
 * @param {CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D} ctx
 * @param {ArrayLike<number>} at
 * @param {number} nodes
 * @param {number} r node radius
 * @param {Float64Array} rows
 * @param {number} o offset of the message's row
 * @param {FlightColumns} col
 * @param {number} nowMs
 * @param {DotStyle} style
 */
function drawOne(ctx, at, nodes, r, rows, o, col, nowMs, style) {
  const from = rows[o + col.from];
  const to = rows[o + col.to];
  if (from === to || from >= nodes || to >= nodes) return;
  const lost = rows[o + col.lost] === 1;
  const colour = kindColour(rows[o + col.kind]);
  const ax = at[2 * from];
  const ay = at[2 * from + 1];
  const bx = at[2 * to];
  const by = at[2 * to + 1];
  const dx = bx - ax;
  const dy = by - ay;
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len;
  const uy = dy / len;
  ctx.save();
  let x;
  let y;
  let size;
  if (style.still) {
    size = Math.max(3, Math.min(6, r * 0.25));
    x = bx - ux * (r + size + 2);
    y = by - uy * (r + size + 2);
    ctx.globalAlpha = lost ? 0.4 : 0.8;
    ctx.strokeStyle = colour;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(ax + ux * r, ay + uy * r);
    ctx.lineTo(x, y);
    ctx.stroke();
    ctx.globalAlpha = 1;
  } else {
    const sent = rows[o + col.sent_ms];
    const span = rows[o + col.arrive_ms] - sent;
    const t = span > 0 ? Math.min(1, Math.max(0, (nowMs - sent) / span)) : 1;
    size = Math.max(3.5, Math.min(7, r * 0.3));
    x = ax + ux * r + (dx - 2 * ux * r) * t;
    y = ay + uy * r + (dy - 2 * uy * r) * t;
    ctx.globalAlpha = lost ? Math.max(0.15, 1 - 0.85 * t) : 1;
  }
  ctx.beginPath();
  ctx.arc(x, y, size, 0, 2 * Math.PI);
  ctx.fillStyle = colour;
  ctx.fill();
  ctx.lineWidth = 1;
  ctx.strokeStyle = lost ? CUT : '#ffffff';
  ctx.stroke();
  if (lost) {
    const d = size + (style.still ? 1.5 : 2);
    ctx.strokeStyle = style.ink;
    ctx.lineWidth = style.still ? 1 : 1.5;
    strokeCross(ctx, x, y, d);
  }
  ctx.restore();
}

/**
 * Strokes an X of half-size `d` centred on (x, y) with the current stroke
 * style: a lost message here; a cut link and a crashed node in draw.js.
 * @param {CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D} ctx
 * @param {number} x
 * @param {number} y
 * @param {number} d
 */
export function strokeCross(ctx, x, y, d) {
  ctx.beginPath();
  ctx.moveTo(x - d, y - d);
  ctx.lineTo(x + d, y + d);
  ctx.moveTo(x + d, y - d);
  ctx.lineTo(x - d, y + d);
  ctx.stroke();
}
