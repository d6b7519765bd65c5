// @ts-check
/**
 * Drawing the cluster on a canvas: where the nodes go (a ring in message
 * order for ring algorithms, a circle by id otherwise; an algorithm's
 * extra nodes, a coordination service or a resource, in the middle), the
 * partition groups as shaded regions behind their nodes, cut links as
 * dashed red arrows, the nodes with their roles and faults (paused, slow),
 * and, over them, the moving layer: the messages on the wire as arrows
 * (flight-dots.js), each at `(now - sent) / (arrive - sent)` of its path
 * (as RaftScope does), and each node's pending timer as a countdown arc
 * (timer-arcs.js). Every size (nodes, labels, arrows, arcs) comes from
 * the canvas's size and the spacing of the nodes (`layoutNodes`).
 * Pure drawing: it reads a snapshot and changes nothing.
 * @module draw
 */

import { reducedMotion } from '../shared/appearance.js';
import { drawFlightRows, strokeCross } from './flight-dots.js';
import { drawTimerArcs, pendingTimers } from './timer-arcs.js';
import { FONT, LABELLED_RADIUS, drawNode, drawNodeLabels, nodeShape, roundedRect } from './node-draw.js';
import { CUT, FAINT, INK, MUTED, NODE_INK, PAPER, ROLE_COLOURS, groupColour } from '../shared/palette.js';

/**
 * Where things go on the canvas, in CSS pixels.
 * @typedef {object} Geometry
 * @property {number} width
 * @property {number} height
 * @property {number} cx centre x
 * @property {number} cy centre y
 * @property {number} circle radius of the circle the nodes sit on
 * @property {number} radius node radius
 * @property {number} font px of the text under a node (its role)
 * @property {number} labelRoom room above and below a node for its crown
 *   and labels
 * @property {number} spacing distance between neighbours on the circle
 *   (how wide a node's labels may be)
 * @property {number} arrow length of a message's arrow
 * @property {number} arrowWidth half the width of its head
 * @property {number} ring width of a timer's countdown arc
 * @property {{x: number, y: number}[]} at node centres, by node id
 * @property {Float64Array} points the same centres as x, y pairs (for
 *   flight-dots.js, timer-arcs.js and the cluster worker)
 * @property {number[]} order ids on the circle, clockwise from the top
 * @property {Map<number, number>} position place on the circle of each id in `order`
 * @property {'ring' | 'cluster'} layout
 */

/**
 * What the page adds to a snapshot when drawing.
 * @typedef {object} Marks
 * @property {ReadonlySet<number>} picked nodes picked for one side of a
 *   partition that is not made yet
 */

/** Space between a node's edge and the edge of its group's region. */
const GROUP_PAD = 0.55;


/** Node radius, px: the largest (a projector's full screen), and the
 * largest as a share of half the canvas's shorter side. Nodes also shrink
 * until neighbours on the circle do not touch, down to `MIN_RADIUS`. */
const MAX_RADIUS = 64;
const RADIUS_SHARE = 0.12;
const MIN_RADIUS = 5;

/**
 * The px of the text under a node of radius `r` (12 px at 26, the size
 * it had before nodes scaled; never under 11 px nor over 24 px).
 * @param {number} r
 * @returns {number}
 */
function labelFont(r) {
  return Math.round(Math.max(11, Math.min(24, r * 0.46)));
}

/**
 * Room above and below a node for its labels (two lines under it) and
 * crown (above).
 * @param {number} r
 * @returns {number}
 */
function labelRoom(r) {
  return r >= LABELLED_RADIUS ? Math.round(labelFont(r) * 2.4 + 2) : 8;
}

/**
 * The node radius and the circle the nodes sit on, from the canvas's
 * size and the number of nodes on the circle: up to `MAX_RADIUS` (so a
 * projector shows large nodes), less on small canvases and in big
 * clusters, where neighbours would touch.
 * @param {number} half half the canvas's shorter side
 * @param {number} onCircle nodes on the circle
 * @returns {{radius: number, circle: number}}
 */
function nodeSize(half, onCircle) {
  const largest = Math.max(14, Math.min(MAX_RADIUS, half * RADIUS_SHARE));
  // With labels if the nodes come out large enough for them; else
  // without, and then just too small for them (so the room left for
  // labels and whether they are drawn always agree).
  const labelled = fitNodes(half, onCircle, largest, true);
  if (labelled.radius >= LABELLED_RADIUS) return labelled;
  const bare = fitNodes(half, onCircle, Math.min(largest, LABELLED_RADIUS - 0.5), false);
  return bare;
}

/**
 * The largest radius, up to `largest`, at which the nodes on the circle
 * do not touch, with room for labels or without.
 * @param {number} half
 * @param {number} onCircle
 * @param {number} largest
 * @param {boolean} labelled
 * @returns {{radius: number, circle: number}}
 */
function fitNodes(half, onCircle, largest, labelled) {
  const room = (/** @type {number} */ r) => (labelled ? labelRoom(Math.max(r, LABELLED_RADIUS)) : 8);
  let radius = largest;
  let circle = Math.max(10, half - radius - room(radius));
  for (let i = 0; i < 8; i++) {
    radius = Math.max(MIN_RADIUS, Math.min(largest, ((Math.PI * circle) / Math.max(onCircle, 1)) * 0.55));
    circle = Math.max(10, half - radius - room(radius));
  }
  return { radius, circle };
}

/**
 * Lays the first `participants` of `n` nodes out on a circle, clockwise
 * from the top: in ring order for `ring` layouts (so ring messages travel
 * clockwise), by id otherwise. The rest (an algorithm's extra nodes) sit
 * in a row in the middle.
 * @param {number} width
 * @param {number} height
 * @param {number} n
 * @param {'ring' | 'cluster'} layout
 * @param {number[]} ring ring order (position -> id)
 * @param {number} [participants] nodes on the circle (default all)
 * @returns {Geometry}
 */
export function layoutNodes(width, height, n, layout, ring, participants = n) {
  const onCircle = Math.max(0, Math.min(n, participants));
  const order =
    layout === 'ring' && ring.length === onCircle ? ring : [...Array(onCircle).keys()];
  const half = Math.max(40, Math.min(width, height) / 2);
  const { radius, circle } = nodeSize(half, onCircle);
  const cx = width / 2;
  const cy = height / 2;
  /** @type {{x: number, y: number}[]} */
  const at = new Array(n);
  order.forEach((id, pos) => {
    const angle = -Math.PI / 2 + (2 * Math.PI * pos) / Math.max(onCircle, 1);
    at[id] = { x: cx + circle * Math.cos(angle), y: cy + circle * Math.sin(angle) };
  });
  const extras = n - onCircle;
  const apart = Math.min(radius * 3, (circle * 1.2) / Math.max(extras, 1));
  for (let k = 0; k < extras; k++) {
    at[onCircle + k] = { x: cx + (k - (extras - 1) / 2) * apart, y: cy };
  }
  const position = new Map(order.map((id, pos) => [id, pos]));
  const points = new Float64Array(2 * n);
  at.forEach((p, id) => {
    points[2 * id] = p.x;
    points[2 * id + 1] = p.y;
  });
  const spacing = onCircle > 1 ? 2 * circle * Math.sin(Math.PI / onCircle) : width;
  return {
    width,
    height,
    cx,
    cy,
    circle,
    radius,
    font: labelFont(radius),
    labelRoom: labelRoom(radius),
    spacing,
    arrow: Math.max(9, Math.min(44, radius * 0.95)),
    arrowWidth: Math.max(3, Math.min(11, radius * 0.24)),
    ring: Math.max(1.5, Math.min(6, radius * 0.13)),
    at,
    points,
    order,
    position,
    layout,
  };
}

/**
 * Draws one moment.
 * @param {CanvasRenderingContext2D} ctx scaled so one unit is one CSS px
 * @param {Geometry} g
 * @param {import('../player/model.js').Snapshot} s
 * @param {Marks} [marks]
 */
export function drawScene(ctx, g, s, marks) {
  // Transparent: the canvas's CSS background (--canvas) shows through.
  ctx.clearRect(0, 0, g.width, g.height);
  drawStill(ctx, g, s, marks);
  drawMoving(ctx, g, s);
  drawLabels(ctx, g, s);
}

/**
 * Everything of one moment but the messages on the wire and the nodes'
 * words (which `drawScene` draws on top, in that order): groups, the
 * ring, cuts, picks and the nodes' outlines and marks. It
 * changes only when a node, a cut or a pick does, so a view may keep it
 * in a layer (see `stillKey`).
 * @param {CanvasRenderingContext2D} ctx
 * @param {Geometry} g
 * @param {import('../player/model.js').Snapshot} s
 * @param {Marks} [marks]
 * @returns {NodesDrawn} the nodes as drawn (the drawing model's `nodes`)
 */
export function drawStill(ctx, g, s, marks) {
  drawGroups(ctx, g, s.nodes);
  if (g.layout === 'ring' && g.order.length > 1) drawRingTrack(ctx, g);
  for (const [from, to] of s.cuts) drawCut(ctx, g, from, to);
  if (marks) for (const id of marks.picked) drawPicked(ctx, g, id);
  for (const node of s.nodes) drawNode(ctx, g, node);
  return s.nodes.map((n) => ({ id: n.id, role: n.alive ? n.role : 'crashed', shape: nodeShape(n.role) }));
}

/**
 * The nodes' words (ids, roles, terms, whom they follow), over the
 * messages' arrows, each with a halo (node-draw.js). They change when the
 * still layer does: a view keeps them in a layer of their own on top
 * (layers.js).
 * @param {CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D} ctx
 * @param {Geometry} g
 * @param {{nodes: import('../player/model.js').NodeState[], leader: number | undefined}} s
 */
export function drawLabels(ctx, g, s) {
  for (const node of s.nodes) drawNodeLabels(ctx, g, node, s.leader);
}

/**
 * The nodes as the still layer drew them (part of the drawing model, for
 * tests): the role whose colour each got and its shape.
 * @typedef {{id: number, role: string, shape: NodeShape}[]} NodesDrawn
 */

/** @typedef {import('./node-draw.js').NodeShape} NodeShape */

/**
 * What `drawStill` draws depends on, as text (the geometry and the theme
 * aside).
 * @param {import('../player/model.js').Snapshot} s
 * @param {Marks} [marks]
 * @returns {string}
 */
export function stillKey(s, marks) {
  return `${s.leader}|${s.cuts.join(';')}|${marks ? [...marks.picked].join(',') : ''}|${nodesKey(s.nodes)}`;
}

/** The nodes' part of `stillKey`, by nodes list: a view asks every frame,
 * and the model hands out the same list while the nodes stay the same.
 * A number that stands for what the nodes show, so the key stays short:
 * written out in full every frame, four 64-node views' keys were 17 MB
 * of garbage in 5 s of compare mode, the most of anything.
 * @type {WeakMap<object, number>} */
const nodeKeys = new WeakMap();
/** The number of each nodes' text seen lately (forgotten past
 * `KEYS_KEPT`: a list seen again then gets a new number, and is drawn
 * once more). @type {Map<string, number>} */
const keyNumbers = new Map();
const KEYS_KEPT = 256;
let lastKeyNumber = 0;

/**
 * @param {import('../player/model.js').NodeState[]} nodes
 * @returns {number}
 */
function nodesKey(nodes) {
  let key = nodeKeys.get(nodes);
  if (key === undefined) {
    const text = nodes
      .map((n) => `${n.alive ? 1 : 0}${n.paused ? 1 : 0}${n.role}:${n.term}:${n.leader}:${n.group}:${n.slowMs}`)
      .join('|');
    key = keyNumbers.get(text);
    if (key === undefined) {
      if (keyNumbers.size >= KEYS_KEPT) keyNumbers.clear();
      key = ++lastKeyNumber;
      keyNumbers.set(text, key);
    }
    nodeKeys.set(nodes, key);
  }
  return key;
}

/**
 * What one drawing of the moving layer showed: the cluster's drawing
 * model (see layers.js), for tests.
 * @typedef {object} MovingDrawn
 * @property {import('./flight-dots.js').FlightsDrawn} flights
 * @property {import('./timer-arcs.js').TimersDrawn} timers
 */

/**
 * The messages on the wire and the nodes' timer arcs, drawn over
 * `drawStill`'s layer.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Geometry} g
 * @param {import('../player/model.js').Snapshot} s
 * @returns {MovingDrawn}
 */
export function drawMoving(ctx, g, s) {
  const timers = s.nodeRows ? pendingTimers(s.nodeRows) : new Float64Array(0);
  return drawMovingRows(ctx, g, s.flights, timers, s.nowMs, { still: reducedMotion, ink: INK });
}

/**
 * The moving layer from the core's rows: the timer arcs (timer-arcs.js),
 * then the messages' arrows (flight-dots.js) over them.
 * @param {CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D} ctx
 * @param {Geometry} g
 * @param {import('./flight-dots.js').Flights} flights
 * @param {Float64Array} timers see timer-arcs.js `pendingTimers`
 * @param {number} nowMs
 * @param {import('./flight-dots.js').DotStyle} style
 * @returns {MovingDrawn}
 */
export function drawMovingRows(ctx, g, flights, timers, nowMs, style) {
  const arcs = drawTimerArcs(ctx, g, timers, nowMs);
  return { flights: drawFlightRows(ctx, g, flights, nowMs, style), timers: arcs };
}

/**
 * The partition groups when the network is split: each group is a shaded
 * region behind its nodes with a label ("side A"). A group that sits in
 * one stretch of the circle gets the convex hull around its nodes (the
 * hulls of different stretches never overlap); a group scattered around
 * the circle gets a band along the circle under each of its stretches.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Geometry} g
 * @param {import('../player/model.js').NodeState[]} nodes
 */
function drawGroups(ctx, g, nodes) {
  const groups = [...new Set(nodes.map((n) => n.group))].sort((a, b) => a - b);
  if (groups.length < 2) return;
  const groupOf = new Map(nodes.map((n) => [n.id, n.group]));
  const pad = Math.max(4, g.radius * GROUP_PAD);
  groups.forEach((group, index) => {
    const colour = groupColour(index);
    const members = nodes.filter((n) => n.group === group && g.at[n.id]).map((n) => n.id);
    const runs = circleRuns(g.order, (id) => groupOf.get(id) === group);
    ctx.save();
    ctx.fillStyle = colour.fill;
    ctx.strokeStyle = colour.line;
    ctx.lineWidth = 2;
    ctx.setLineDash([6, 4]);
    const middle = members.filter((id) => !g.position.has(id));
    // A hull over more than half the circle would take in the middle,
    // where the extra nodes of every side sit.
    const hull =
      runs.length === 1 && (g.at.length === g.order.length || runs[0].length <= g.order.length / 2);
    ctx.beginPath();
    if (hull) {
      hullPath(ctx, runs[0].map((id) => g.at[id]), g.radius + pad, g.radius >= LABELLED_RADIUS ? g.labelRoom : 0);
    } else {
      for (const run of runs) bandPath(ctx, g, run, g.radius + pad);
    }
    ctx.fill();
    ctx.stroke();
    for (const id of middle) {
      ctx.beginPath();
      ctx.arc(g.at[id].x, g.at[id].y, g.radius + pad, 0, 2 * Math.PI);
      ctx.fill();
      ctx.stroke();
    }
    ctx.setLineDash([]);
    const longest = runs.reduce((a, b) => (b.length > a.length ? b : a), /** @type {number[]} */ ([]));
    const anchor = groupLabelAt(g, longest, hull, members, pad + (hull ? 0 : index * g.font * 1.8));
    if (anchor) {
      const text = `side ${String.fromCharCode(65 + (index % 26))}`;
      drawTag(ctx, anchor.x, anchor.y, text, colour.line, g.font);
    }
    ctx.restore();
  });
}

/**
 * The stretches of consecutive positions on the circle whose node passes
 * `inside`, each as the ids in clockwise order.
 * @param {number[]} order ids around the circle
 * @param {(id: number) => boolean} inside
 * @returns {number[][]}
 */
function circleRuns(order, inside) {
  const n = order.length;
  if (n === 0) return [];
  // Start just after a node outside, so no stretch wraps past the end.
  const start = order.findIndex((id) => !inside(id));
  if (start < 0) return [order.slice()];
  /** @type {number[][]} */
  const runs = [];
  /** @type {number[]} */
  let run = [];
  for (let k = 1; k <= n; k++) {
    const id = order[(start + k) % n];
    if (inside(id)) {
      run.push(id);
    } else if (run.length > 0) {
      runs.push(run);
      run = [];
    }
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/**
 * The path of the convex hull of discs of radius `r` around `points`,
 * each stretched down by `below` to take in the node's label.
 * @param {CanvasRenderingContext2D} ctx
 * @param {{x: number, y: number}[]} points
 * @param {number} r
 * @param {number} below
 */
function hullPath(ctx, points, r, below) {
  /** @type {{x: number, y: number}[]} */
  const around = [];
  const steps = 16;
  for (const p of points) {
    for (let k = 0; k < steps; k++) {
      const a = (2 * Math.PI * k) / steps;
      const down = Math.sin(a) > 0 ? below * Math.sin(a) : 0;
      around.push({ x: p.x + r * Math.cos(a), y: p.y + r * Math.sin(a) + down });
    }
  }
  const hull = convexHull(around);
  hull.forEach((p, i) => (i === 0 ? ctx.moveTo(p.x, p.y) : ctx.lineTo(p.x, p.y)));
  ctx.closePath();
}

/**
 * Convex hull, counter-clockwise (Andrew's monotone chain).
 * @param {{x: number, y: number}[]} points
 * @returns {{x: number, y: number}[]}
 */
function convexHull(points) {
  const p = [...points].sort((a, b) => a.x - b.x || a.y - b.y);
  if (p.length < 3) return p;
  /** @type {(o: {x: number, y: number}, a: {x: number, y: number}, b: {x: number, y: number}) => number} */
  const cross = (o, a, b) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  /** @type {{x: number, y: number}[]} */
  const lower = [];
  for (const q of p) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], q) <= 0) lower.pop();
    lower.push(q);
  }
  /** @type {{x: number, y: number}[]} */
  const upper = [];
  for (let i = p.length - 1; i >= 0; i--) {
    const q = p[i];
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], q) <= 0) upper.pop();
    upper.push(q);
  }
  lower.pop();
  upper.pop();
  return lower.concat(upper);
}

/**
 * Adds to the path a band of half-width `r` along the circle under a
 * stretch of nodes, with round ends.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Geometry} g
 * @param {number[]} run ids in clockwise order
 * @param {number} r
 */
function bandPath(ctx, g, run, r) {
  const n = g.order.length;
  const step = (2 * Math.PI) / Math.max(n, 1);
  const first = g.position.get(run[0]) ?? 0;
  const a0 = -Math.PI / 2 + step * first;
  const a1 = a0 + step * (run.length - 1);
  const outer = g.circle + r;
  const inner = Math.max(0, g.circle - r);
  if (run.length === n) {
    ctx.moveTo(g.cx + outer, g.cy);
    ctx.arc(g.cx, g.cy, outer, 0, 2 * Math.PI);
    ctx.moveTo(g.cx + inner, g.cy);
    ctx.arc(g.cx, g.cy, inner, 0, 2 * Math.PI, true);
    return;
  }
  const end = (/** @type {number} */ a) => ({
    x: g.cx + g.circle * Math.cos(a),
    y: g.cy + g.circle * Math.sin(a),
  });
  const e1 = end(a1);
  const e0 = end(a0);
  ctx.moveTo(g.cx + outer * Math.cos(a0), g.cy + outer * Math.sin(a0));
  ctx.arc(g.cx, g.cy, outer, a0, a1);
  ctx.arc(e1.x, e1.y, r, a1, a1 + Math.PI);
  ctx.arc(g.cx, g.cy, inner, a1, a0, true);
  ctx.arc(e0.x, e0.y, r, a0 + Math.PI, a0 + 2 * Math.PI);
  ctx.closePath();
}

/**
 * Where a group's label goes. For a hull: on the straight edge that faces
 * the other side (the middle of the chord between its end nodes), clear
 * of the nodes and their labels, so the two sides' labels face each other
 * across the split. For bands: inside the circle, in from the middle of
 * the longest band (the caller steps `pad` up by group, so the labels of
 * scattered sides that start together do not cover each other). Else
 * above its first node.
 * @param {Geometry} g
 * @param {number[]} longest
 * @param {boolean} hull whether the group is drawn as a hull
 * @param {number[]} members
 * @param {number} pad
 * @returns {{x: number, y: number} | null}
 */
function groupLabelAt(g, longest, hull, members, pad) {
  const n = g.order.length;
  if (longest.length > 0 && longest.length < n) {
    const step = (2 * Math.PI) / Math.max(n, 1);
    const mid = -Math.PI / 2 + step * ((g.position.get(longest[0]) ?? 0) + (longest.length - 1) / 2);
    const span = step * (longest.length - 1);
    // Far enough in to clear the labels under the nodes at the top and the
    // crowns over the nodes at the bottom.
    const clear = g.circle - g.radius - pad - g.labelRoom - 10;
    const from = hull ? Math.min(g.circle * Math.cos(span / 2), clear) : clear;
    return { x: g.cx + from * Math.cos(mid), y: g.cy + from * Math.sin(mid) };
  }
  const first = members.length > 0 ? g.at[members[0]] : undefined;
  return first ? { x: first.x, y: first.y - g.radius - pad - 10 } : null;
}

/**
 * A small label on a white pill with a coloured border.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} x centre
 * @param {number} y centre
 * @param {string} text
 * @param {string} colour
 * @param {number} size font px
 */
function drawTag(ctx, x, y, text, colour, size) {
  ctx.font = `700 ${size}px ${FONT}`;
  const w = ctx.measureText(text).width + size;
  const h = Math.round(size * 1.5);
  ctx.beginPath();
  roundedRect(ctx, x - w / 2, y - h / 2, w, h, h / 2);
  ctx.fillStyle = PAPER;
  ctx.fill();
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = colour;
  ctx.stroke();
  ctx.fillStyle = INK;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, x, y + 0.5);
}

/**
 * A cut one-way link: a dashed red arrow from edge to edge, a little to
 * the right of the straight line (so both directions of a pair show),
 * crossed out in the middle.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Geometry} g
 * @param {number} from
 * @param {number} to
 */
function drawCut(ctx, g, from, to) {
  const a = g.at[from];
  const b = g.at[to];
  if (!a || !b || from === to) return;
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len;
  const uy = dy / len;
  // Right of the direction of travel.
  const shift = Math.min(6, g.radius * 0.35);
  const ox = -uy * shift;
  const oy = ux * shift;
  const r = g.radius + 3;
  const x0 = a.x + ux * r + ox;
  const y0 = a.y + uy * r + oy;
  const x1 = b.x - ux * r + ox;
  const y1 = b.y - uy * r + oy;
  const head = Math.max(7, Math.min(12, g.radius * 0.5));
  ctx.save();
  ctx.strokeStyle = CUT;
  ctx.fillStyle = CUT;
  ctx.lineWidth = 2.5;
  ctx.setLineDash([7, 5]);
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1 - ux * head * 0.8, y1 - uy * head * 0.8);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.beginPath();
  ctx.moveTo(x1, y1);
  ctx.lineTo(x1 - ux * head - uy * head * 0.5, y1 - uy * head + ux * head * 0.5);
  ctx.lineTo(x1 - ux * head + uy * head * 0.5, y1 - uy * head - ux * head * 0.5);
  ctx.closePath();
  ctx.fill();
  // The cross, on a white disc so it reads over anything.
  const mx = (x0 + x1) / 2;
  const my = (y0 + y1) / 2;
  const d = Math.max(5, Math.min(8, g.radius * 0.35));
  ctx.beginPath();
  ctx.arc(mx, my, d + 3.5, 0, 2 * Math.PI);
  ctx.fillStyle = PAPER;
  ctx.fill();
  ctx.lineWidth = 1.5;
  ctx.stroke();
  ctx.lineWidth = 2.5;
  strokeCross(ctx, mx, my, d);
  ctx.restore();
}

/**
 * A node picked for one side of a partition not made yet: a dashed ring.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Geometry} g
 * @param {number} id
 */
function drawPicked(ctx, g, id) {
  const p = g.at[id];
  if (!p) return;
  ctx.save();
  ctx.strokeStyle = groupColour(0).line;
  ctx.lineWidth = 3;
  ctx.setLineDash([4, 3]);
  ctx.beginPath();
  ctx.arc(p.x, p.y, g.radius + 5, 0, 2 * Math.PI);
  ctx.stroke();
  ctx.restore();
}

/**
 * The ring: a faint circle with arrowheads showing the direction messages
 * travel.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Geometry} g
 */
function drawRingTrack(ctx, g) {
  const n = g.order.length;
  ctx.save();
  ctx.strokeStyle = FAINT;
  ctx.fillStyle = FAINT;
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.arc(g.cx, g.cy, g.circle, 0, 2 * Math.PI);
  ctx.stroke();
  const size = Math.max(5, Math.min(10, g.radius * 0.45));
  for (let pos = 0; pos < n; pos++) {
    // Half way between position pos and pos + 1, pointing clockwise.
    const angle = -Math.PI / 2 + (2 * Math.PI * (pos + 0.5)) / n;
    const x = g.cx + g.circle * Math.cos(angle);
    const y = g.cy + g.circle * Math.sin(angle);
    const dir = angle + Math.PI / 2;
    ctx.beginPath();
    ctx.moveTo(x + size * Math.cos(dir), y + size * Math.sin(dir));
    ctx.lineTo(x + size * Math.cos(dir + 2.5), y + size * Math.sin(dir + 2.5));
    ctx.lineTo(x + size * Math.cos(dir - 2.5), y + size * Math.sin(dir - 2.5));
    ctx.closePath();
    ctx.fill();
  }
  ctx.restore();
}
