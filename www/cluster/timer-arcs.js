// @ts-check
/**
 * Drawing each node's pending timer as a countdown arc on the node's rim
 * (as RaftScope does), from the core's node rows: `timer_class` (an index
 * into the wasm's `timer_classes()`), `timer_set_ms` and `timer_fire_ms`
 * (true simulated ms; -1 when none, so a crashed node has none). The arc
 * starts at the top and runs clockwise over the fraction of the timer
 * still to go, `(fire - now) / (fire - set)`, on a pale track round the
 * whole rim; its dash says its class (shared/palette.js `timerDash`; the
 * cluster legend shows which is which). One path per class, so a thousand
 * nodes cost a few strokes. Drawn with the messages, every frame (it
 * moves with time); no DOM and no page state (the cluster worker draws it
 * too).
 * @module timer-arcs
 */

import { NODE_INK, ROLE_COLOURS, timerDash } from '../shared/palette.js';

/** Nodes at least this large (px) get the arc's dash and its track. */
const DETAILED_RADIUS = 10;

/**
 * What one drawing of the arcs showed (the cluster's drawing model, see
 * layers.js).
 * @typedef {object} TimersDrawn
 * @property {number} arcs
 * @property {number[]} byClass arcs by timer class code
 * @property {number[]} nodes ids of the nodes with an arc
 */

/**
 * The pending timers of the nodes, four numbers per node that has one:
 * its id, timer class, when it was set and when it fires (ms), from the
 * core's node rows (`node_fields()` columns). What the cluster worker is
 * posted when it changes (the rows themselves change with every moment).
 * @param {{rows: Float64Array, col: Record<string, number>}} nodeRows
 * @returns {Float64Array}
 */
export function pendingTimers({ rows, col }) {
  const width = Object.keys(col).length;
  const c = col.timer_class;
  if (c === undefined || width === 0) return new Float64Array(0);
  let count = 0;
  for (let o = 0; o + width <= rows.length; o += width) if (rows[o + c] >= 0) count += 1;
  const out = new Float64Array(4 * count);
  let k = 0;
  for (let o = 0; o + width <= rows.length; o += width) {
    if (rows[o + c] < 0) continue;
    out[k] = rows[o + col.id];
    out[k + 1] = rows[o + c];
    out[k + 2] = rows[o + col.timer_set_ms];
    out[k + 3] = rows[o + col.timer_fire_ms];
    k += 4;
  }
  return out;
}

/**
 * Whether two lists of pending timers (see `pendingTimers`) are the same.
 * @param {Float64Array} a
 * @param {Float64Array} b
 * @returns {boolean}
 */
export function sameTimers(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Draws the countdown arcs of every node with a pending timer at
 * `nowMs`.
 * @param {CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D} ctx
 *   scaled so one unit is one CSS px
 * @param {{points: ArrayLike<number>, radius: number, ring: number}} g node
 *   centres (x, y by id), radius and the arc's width (draw.js `Geometry`)
 * @param {Float64Array} timers see `pendingTimers`
 * @param {number} nowMs
 * @returns {TimersDrawn}
 */
export function drawTimerArcs(ctx, g, timers, nowMs) {
  /** @type {TimersDrawn} */
  const drawn = { arcs: 0, byClass: [], nodes: [] };
  if (timers.length === 0) return drawn;
  const w = g.ring;
  // Inside the outline, clear of the badges on the rim.
  const rr = Math.max(2, g.radius - Math.max(2, g.radius * 0.07) - w / 2);
  const nodes = g.points.length / 2;
  const track = new Path2D();
  /** @type {Map<number, Path2D>} */
  const arcs = new Map();
  const top = -Math.PI / 2;
  for (let k = 0; k + 4 <= timers.length; k += 4) {
    const id = timers[k];
    const cls = timers[k + 1];
    if (id >= nodes) continue;
    const set = timers[k + 2];
    const fire = timers[k + 3];
    const left = fire > set ? Math.min(1, Math.max(0, (fire - nowMs) / (fire - set))) : 0;
    const x = g.points[2 * id];
    const y = g.points[2 * id + 1];
    if (g.radius >= DETAILED_RADIUS) {
      track.moveTo(x + rr, y);
      track.arc(x, y, rr, 0, 2 * Math.PI);
    }
    let path = arcs.get(cls);
    if (!path) {
      path = new Path2D();
      arcs.set(cls, path);
    }
    if (left > 0) {
      path.moveTo(x, y - rr);
      path.arc(x, y, rr, top, top + 2 * Math.PI * left);
    }
    drawn.arcs += 1;
    drawn.byClass[cls] = (drawn.byClass[cls] ?? 0) + 1;
    drawn.nodes.push(id);
  }
  if (drawn.arcs === 0) return drawn;
  // Nodes too small to tell a dash or a track on: solid arcs alone (a
  // dashed stroke costs the rasterizer several times a solid one).
  const detailed = g.radius >= DETAILED_RADIUS;
  ctx.save();
  ctx.lineWidth = w;
  if (detailed) {
    ctx.strokeStyle = 'rgba(255, 255, 255, 0.6)';
    ctx.stroke(track);
  }
  ctx.strokeStyle = NODE_INK;
  ctx.lineCap = 'round';
  for (const [cls, path] of arcs) {
    if (detailed) ctx.setLineDash(timerDash(cls).map((d) => d * w));
    ctx.stroke(path);
  }
  ctx.restore();
  return drawn;
}

/**
 * A node with a timer of class `code` three quarters to go, as the
 * cluster draws it (the legend's swatch).
 * @param {CanvasRenderingContext2D} ctx scaled so one unit is one CSS px
 * @param {number} code
 * @param {number} size CSS px (the swatch is square)
 */
export function drawArcSwatch(ctx, code, size) {
  const c = size / 2;
  const radius = Math.max(DETAILED_RADIUS, c - 1);
  ctx.save();
  ctx.beginPath();
  ctx.arc(c, c, c - 0.75, 0, 2 * Math.PI);
  ctx.fillStyle = ROLE_COLOURS.crashed;
  ctx.fill();
  ctx.lineWidth = 1;
  ctx.strokeStyle = NODE_INK;
  ctx.stroke();
  ctx.restore();
  drawTimerArcs(ctx, { points: [c, c], radius, ring: 2.2 }, Float64Array.of(0, code, 0, 100), 25);
}
