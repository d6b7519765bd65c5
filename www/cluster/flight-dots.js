// @ts-check
/**
 * Drawing the messages on the wire from the core's flight rows (a
 * `Float64Array`, `flight_fields()` columns): each message is a short
 * arrow in its kind's colour (shared/palette.js), pointing from its
 * sender to its receiver, at `(now - sent) / (arrive - sent)` of its path
 * (as RaftScope does). The path runs from the sender's edge to the
 * receiver's, a little to the right of the line between their centres (so
 * the two directions between a pair do not cover each other); at the
 * moment of sending an arrow's tail is at the sender's edge, so messages
 * sent together fan out from the node instead of piling up on it. No DOM
 * and no page state: the same code draws in the cluster worker
 * (worker.js, on an OffscreenCanvas), on the page when workers or
 * OffscreenCanvas are missing, and in the PNG export.
 * @module flight-dots
 */

import { CUT, kindColour, kindIsLight, kindMark } from '../shared/palette.js';

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
 * How the messages are drawn besides where.
 * @typedef {object} DotStyle
 * @property {boolean} still prefers-reduced-motion: a line and an arrow
 *   by the receiver instead of a moving arrow
 * @property {string} ink the theme's ink (the cross over a lost message)
 */

/**
 * Where and how big the arrows are: the node centres and the sizes
 * draw.js's layout gives (a `Geometry` has them all).
 * @typedef {object} ArrowGeometry
 * @property {ArrayLike<number>} points node centres, x and y by node id
 *   (`2 * id`, `2 * id + 1`)
 * @property {number} radius node radius
 * @property {number} arrow arrow length
 * @property {number} arrowWidth half the width of an arrow's head
 */

/**
 * What one drawing of the messages showed (the cluster's drawing model,
 * see layers.js): arrows by kind index, lost ones among them, and how
 * they were drawn.
 * @typedef {object} FlightsDrawn
 * @property {number} arrows
 * @property {number[]} byKind arrows by kind index
 * @property {number} lost crossed out
 * @property {{x: number, y: number, from: number, to: number}[]} crosses
 *   where each lost one's cross is (first `MAX_LISTED`)
 * @property {{tx: number, ty: number, hx: number, hy: number, from: number, to: number}[]} tips
 *   the tail and head of the first `MAX_LISTED` arrows
 * @property {'arrows' | 'darts' | 'heads' | 'still'} shape `darts` and
 *   `heads` when so many are on the wire that slimmer shapes are drawn
 *   (`DARTS_FROM`, `HEADS_ONLY`)
 */

/** From this many messages on the wire on, each is a slim dart (its
 * tail, the head's two corners and its tip: four corners where a whole
 * arrow has seven, and no outline or mark, as with the heads): the
 * rasterizer's cost goes with the corners and the outline, and at this
 * density the arrows touch each other anyway. Measured
 * (scripts/bench/browser/bench-cluster-draw.js, 256 nodes, 1000x750,
 * software raster, drawn and rasterized): 2,000 whole arrows cost 5.4 ms,
 * as darts about half. The cluster worker rasterizes them on the second
 * core, which the page's main thread needs too: a busy run's frames wait
 * for it (docs/PERFORMANCE.md, Frame budgets). */
export const DARTS_FROM = 1000;
/** From this many messages on the wire on, only the arrows' heads are
 * drawn (a triangle each, no shaft, mark or outline): they cover each
 * other then anyway. Measured as above: 4,000 heads 4.9 ms, where the
 * dots drawn before the arrows took 8.7 ms. */
export const HEADS_ONLY = 3000;
/** Arrows per path: one path per colour of thousands of arrows costs
 * the rasterizer far more than many small ones (2,000 arrows: 9.1 ms in
 * paths of 256, 5.4 ms in paths of 32; 16 is no better). */
const PER_PATH = 32;
/** Crosses listed in `FlightsDrawn.crosses` at most. */
const MAX_LISTED = 64;

/**
 * How many messages `f` holds.
 * @param {Flights} f
 * @returns {number}
 */
export function flightCount(f) {
  return f.width > 0 ? Math.floor(f.rows.length / f.width) : 0;
}

/**
 * Where a message is drawn: the unit vector along its path, the normal
 * to its right, and its tail and head. Filled into `out` (no allocation
 * per message). `t` is how far along it is (0 sent, 1 arrived).
 * @param {ArrowGeometry} g
 * @param {number} from
 * @param {number} to
 * @param {number} t
 * @param {Float64Array} out ux, uy, nx, ny, tail x, tail y, head x, head y,
 *   the arrow's length, and where the path starts (x, y: by the sender)
 */
function place(g, from, to, t, out) {
  const at = g.points;
  const ax = at[2 * from];
  const ay = at[2 * from + 1];
  const dx = at[2 * to] - ax;
  const dy = at[2 * to + 1] - ay;
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len;
  const uy = dy / len;
  // To the right of the direction of travel.
  const nx = -uy;
  const ny = ux;
  const r = g.radius + 1;
  const shift = Math.min(g.arrowWidth * 0.7, g.radius * 0.3);
  const sx = ax + ux * r + nx * shift;
  const sy = ay + uy * r + ny * shift;
  const path = Math.max(0, len - 2 * r);
  const l = Math.min(g.arrow, path * 0.5);
  // The tail starts at the sender's edge; the head ends at the receiver's.
  const along = l + (path - l) * t;
  out[0] = ux;
  out[1] = uy;
  out[2] = nx;
  out[3] = ny;
  out[4] = sx + ux * (along - l);
  out[5] = sy + uy * (along - l);
  out[6] = sx + ux * along;
  out[7] = sy + uy * along;
  out[8] = l;
  out[9] = sx;
  out[10] = sy;
}

/**
 * Adds one arrow to `path`: a shaft and a head as one closed shape
 * (filled in one go with the others of its colour), plus its kind's mark
 * at the tail (a dot or a bar, see palette.js `kindMark`); as a `dart`,
 * the tail, the head's corners and its tip, without the mark; as a
 * `head`, the head alone.
 * @param {Path2D | CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D} path
 * @param {Float64Array} p see `place`
 * @param {number} hw half the head's width
 * @param {'plain' | 'dot' | 'bar'} mark
 * @param {'arrow' | 'dart' | 'head'} shape
 */
function addArrow(path, p, hw, mark, shape) {
  const [ux, uy, nx, ny, tx, ty, hx, hy, l] = p;
  const hl = Math.min(l * 0.6, hw * 1.7);
  const bx = hx - ux * hl;
  const by = hy - uy * hl;
  if (shape !== 'arrow') {
    path.moveTo(hx, hy);
    path.lineTo(bx + nx * hw, by + ny * hw);
    if (shape === 'dart') path.lineTo(tx, ty);
    path.lineTo(bx - nx * hw, by - ny * hw);
    path.closePath();
    return;
  }
  const sw = Math.max(1, hw * 0.34);
  path.moveTo(tx + nx * sw, ty + ny * sw);
  path.lineTo(bx + nx * sw, by + ny * sw);
  path.lineTo(bx + nx * hw, by + ny * hw);
  path.lineTo(hx, hy);
  path.lineTo(bx - nx * hw, by - ny * hw);
  path.lineTo(bx - nx * sw, by - ny * sw);
  path.lineTo(tx - nx * sw, ty - ny * sw);
  path.closePath();
  if (mark === 'dot') {
    const d = hw * 0.7;
    path.moveTo(tx + d, ty);
    path.arc(tx, ty, d, 0, 2 * Math.PI);
  } else if (mark === 'bar') {
    const b = hw * 0.85;
    const w = Math.max(1, hw * 0.3);
    path.moveTo(tx + nx * b + ux * w, ty + ny * b + uy * w);
    path.lineTo(tx - nx * b + ux * w, ty - ny * b + uy * w);
    path.lineTo(tx - nx * b - ux * w, ty - ny * b - uy * w);
    path.lineTo(tx + nx * b - ux * w, ty + ny * b - uy * w);
    path.closePath();
  }
}

/**
 * Counts an arrow drawn into the drawing model.
 * @param {FlightsDrawn} drawn
 * @param {number} kind
 * @param {Float64Array} p see `place`
 * @param {number} from
 * @param {number} to
 */
function count(drawn, kind, p, from, to) {
  drawn.arrows += 1;
  drawn.byKind[kind] = (drawn.byKind[kind] ?? 0) + 1;
  if (drawn.tips.length < MAX_LISTED) drawn.tips.push({ tx: p[4], ty: p[5], hx: p[6], hy: p[7], from, to });
}

/**
 * Draws every message of `f`. Messages that will arrive are batched into
 * paths by kind (one fill and one outline per `PER_PATH` arrows of a
 * colour, not per message), so thousands in flight cost little; from
 * `DARTS_FROM` on they are darts and from `HEADS_ONLY` on only their
 * heads, both without outlines. Lost ones (rare) and the reduced-motion
 * drawing go one by one.
 * @param {CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D} ctx
 *   scaled so one unit is one CSS px
 * @param {ArrowGeometry} g
 * @param {Flights} f
 * @param {number} nowMs
 * @param {DotStyle} style
 * @returns {FlightsDrawn}
 */
export function drawFlightRows(ctx, g, f, nowMs, style) {
  const { rows, width, col } = f;
  const nodes = g.points.length / 2;
  const n = flightCount(f);
  /** @type {FlightsDrawn} */
  const drawn = { arrows: 0, byKind: [], lost: 0, crosses: [], tips: [], shape: style.still ? 'still' : 'arrows' };
  const p = new Float64Array(11);
  if (style.still) {
    for (let i = 0; i < n; i++) drawOne(ctx, g, nodes, rows, i * width, col, nowMs, style, p, drawn);
    return drawn;
  }
  /** @type {'arrow' | 'dart' | 'head'} */
  const shape = n >= HEADS_ONLY ? 'head' : n >= DARTS_FROM ? 'dart' : 'arrow';
  if (shape !== 'arrow') drawn.shape = shape === 'head' ? 'heads' : 'darts';
  /** Paths being filled, by kind, and those full (see `PER_PATH`). @type {Map<number, {path: Path2D, count: number}>} */
  const open = new Map();
  /** @type {[number, Path2D][]} */
  const paths = [];
  const hw = g.arrowWidth;
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
    const sent = rows[o + col.sent_ms];
    const span = rows[o + col.arrive_ms] - sent;
    const t = span > 0 ? Math.min(1, Math.max(0, (nowMs - sent) / span)) : 1;
    place(g, from, to, t, p);
    const kind = rows[o + col.kind];
    let batch = open.get(kind);
    if (!batch || batch.count === PER_PATH) {
      batch = { path: new Path2D(), count: 0 };
      open.set(kind, batch);
      paths.push([kind, batch.path]);
    }
    batch.count += 1;
    addArrow(batch.path, p, hw, kindMark(kind), shape);
    count(drawn, kind, p, from, to);
  }
  ctx.save();
  ctx.lineWidth = 1;
  // Darts and heads have no outline (half their drawing), but in a
  // colour too light to see without one.
  for (const [kind, path] of paths) {
    ctx.fillStyle = kindColour(kind);
    ctx.fill(path);
    const light = kindIsLight(kind);
    if (shape === 'arrow' || light) {
      ctx.strokeStyle = light ? 'rgba(0, 0, 0, 0.6)' : '#ffffff';
      ctx.stroke(path);
    }
  }
  ctx.restore();
  if (lost === 0) return drawn;
  for (let i = 0; i < n; i++) {
    if (rows[i * width + col.lost] === 1) drawOne(ctx, g, nodes, rows, i * width, col, nowMs, style, p, drawn);
  }
  return drawn;
}

/**
 * One message on its way. A message the network will lose fades as it
 * goes and is crossed out where it is, on its own path (the core drops
 * it when it would have arrived). With `style.still`: a thin line in its
 * kind's colour from sender to receiver and its arrow by the receiver,
 * the same for the whole flight (nothing moves).
 * @param {CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D} ctx
 * @param {ArrowGeometry} g
 * @param {number} nodes
 * @param {Float64Array} rows
 * @param {number} o offset of the message's row
 * @param {FlightColumns} col
 * @param {number} nowMs
 * @param {DotStyle} style
 * @param {Float64Array} p scratch for `place`
 * @param {FlightsDrawn} drawn counted in
 */
function drawOne(ctx, g, nodes, rows, o, col, nowMs, style, p, drawn) {
  const from = rows[o + col.from];
  const to = rows[o + col.to];
  if (from === to || from >= nodes || to >= nodes) return;
  const lost = rows[o + col.lost] === 1;
  const kind = rows[o + col.kind];
  const colour = kindColour(kind);
  const hw = g.arrowWidth;
  ctx.save();
  ctx.lineJoin = 'round';
  if (style.still) {
    place(g, from, to, 1, p);
    ctx.globalAlpha = lost ? 0.4 : 0.8;
    ctx.strokeStyle = colour;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(p[9], p[10]);
    ctx.lineTo(p[4], p[5]);
    ctx.stroke();
    ctx.globalAlpha = 1;
  } else {
    const sent = rows[o + col.sent_ms];
    const span = rows[o + col.arrive_ms] - sent;
    const t = span > 0 ? Math.min(1, Math.max(0, (nowMs - sent) / span)) : 1;
    place(g, from, to, t, p);
    ctx.globalAlpha = lost ? Math.max(0.25, 1 - 0.75 * t) : 1;
  }
  ctx.beginPath();
  addArrow(ctx, p, hw, kindMark(kind), 'arrow');
  ctx.fillStyle = colour;
  ctx.fill();
  ctx.lineWidth = 1;
  ctx.strokeStyle = lost ? CUT : kindIsLight(kind) ? 'rgba(0, 0, 0, 0.6)' : '#ffffff';
  ctx.stroke();
  count(drawn, kind, p, from, to);
  if (lost) {
    // The cross in the middle of the arrow, where the message is now.
    const x = (p[4] + p[6]) / 2;
    const y = (p[5] + p[7]) / 2;
    ctx.globalAlpha = 1;
    ctx.strokeStyle = style.ink;
    ctx.lineWidth = Math.max(1.5, hw * 0.3);
    strokeCross(ctx, x, y, hw * 1.1);
    drawn.lost += 1;
    if (drawn.crosses.length < MAX_LISTED) drawn.crosses.push({ x, y, from, to });
  }
  ctx.restore();
}

/**
 * One arrow of kind `kind` pointing right across a small canvas, as the
 * cluster draws it (the legend's swatch).
 * @param {CanvasRenderingContext2D} ctx scaled so one unit is one CSS px
 * @param {number} kind
 * @param {number} width CSS px
 * @param {number} height CSS px
 */
export function drawArrowSwatch(ctx, kind, width, height) {
  const hw = Math.min(5, height / 2 - 1.5);
  const y = height / 2;
  const tail = kindMark(kind) === 'plain' ? 2 : hw + 1;
  const p = Float64Array.of(1, 0, 0, 1, tail, y, width - 2, y, width - 2 - tail, tail, y);
  ctx.save();
  ctx.lineJoin = 'round';
  ctx.beginPath();
  addArrow(ctx, p, hw, kindMark(kind), 'arrow');
  ctx.fillStyle = kindColour(kind);
  ctx.fill();
  ctx.lineWidth = 1;
  ctx.strokeStyle = kindIsLight(kind) ? 'rgba(0, 0, 0, 0.6)' : '#ffffff';
  ctx.stroke();
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
