// @ts-check
/**
 * Drawing the cluster on a canvas: where the nodes go (a ring in message
 * order for ring algorithms, a circle by id otherwise), the nodes with
 * their roles, and the messages on the wire, each at
 * `(now - sent) / (arrive - sent)` of its path (as RaftScope does).
 * Pure drawing: it reads a snapshot and changes nothing.
 * @module draw
 */

import { FAINT, INK, ROLE_COLOURS, kindColour } from './palette.js';

/**
 * Where things go on the canvas, in CSS pixels.
 * @typedef {object} Geometry
 * @property {number} width
 * @property {number} height
 * @property {number} cx centre x
 * @property {number} cy centre y
 * @property {number} circle radius of the circle the nodes sit on
 * @property {number} radius node radius
 * @property {{x: number, y: number}[]} at node centres, by node id
 * @property {number[]} order ids in drawing order, clockwise from the top
 * @property {'ring' | 'cluster'} layout
 */

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
/** Room above and below a node for the crown and the role label. */
const LABEL_ROOM = 30;

/**
 * Lays `n` nodes out on a circle, clockwise from the top: in ring order
 * for `ring` layouts (so ring messages travel clockwise), by id otherwise.
 * @param {number} width
 * @param {number} height
 * @param {number} n
 * @param {'ring' | 'cluster'} layout
 * @param {number[]} ring ring order (position -> id)
 * @returns {Geometry}
 */
export function layoutNodes(width, height, n, layout, ring) {
  const order = layout === 'ring' && ring.length === n ? ring : [...Array(n).keys()];
  const half = Math.max(40, Math.min(width, height) / 2);
  // Nodes up to 26 px, smaller on small screens and in big clusters.
  const largest = Math.max(14, Math.min(26, half * 0.12));
  let radius = largest;
  let circle = half - radius - LABEL_ROOM;
  // Shrink nodes until neighbours do not touch.
  for (let i = 0; i < 3; i++) {
    radius = Math.max(5, Math.min(largest, ((Math.PI * circle) / Math.max(n, 1)) * 0.55));
    circle = Math.max(10, half - radius - (radius >= 12 ? LABEL_ROOM : 8));
  }
  const cx = width / 2;
  const cy = height / 2;
  /** @type {{x: number, y: number}[]} */
  const at = new Array(n);
  order.forEach((id, pos) => {
    const angle = -Math.PI / 2 + (2 * Math.PI * pos) / Math.max(n, 1);
    at[id] = { x: cx + circle * Math.cos(angle), y: cy + circle * Math.sin(angle) };
  });
  return { width, height, cx, cy, circle, radius, at, order, layout };
}

/**
 * Draws one moment.
 * @param {CanvasRenderingContext2D} ctx scaled so one unit is one CSS px
 * @param {Geometry} g
 * @param {import('./model.js').Snapshot} s
 */
export function drawScene(ctx, g, s) {
  ctx.clearRect(0, 0, g.width, g.height);
  if (g.layout === 'ring' && s.nodes.length > 1) drawRingTrack(ctx, g);
  for (const node of s.nodes) drawNode(ctx, g, node, s.leader);
  for (const f of s.flights) drawFlight(ctx, g, f, s.nowMs);
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

/**
 * A node: a disc in its role's colour with its id inside and its role
 * written below; the leader gets a crown and an "L" badge.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Geometry} g
 * @param {import('./model.js').NodeState} node
 * @param {number | undefined} leader
 */
function drawNode(ctx, g, node, leader) {
  const p = g.at[node.id];
  if (!p) return;
  const r = g.radius;
  const isLeader = node.alive && node.role === 'leader';
  ctx.save();
  ctx.beginPath();
  ctx.arc(p.x, p.y, r, 0, 2 * Math.PI);
  ctx.fillStyle = node.alive ? ROLE_COLOURS[node.role] : ROLE_COLOURS.crashed;
  ctx.fill();
  ctx.lineWidth = isLeader ? 3.5 : 1.5;
  ctx.strokeStyle = INK;
  if (!node.alive) ctx.setLineDash([4, 3]);
  ctx.stroke();
  ctx.setLineDash([]);

  if (!node.alive) {
    // A cross over a crashed node, so "down" does not rest on grey alone.
    const d = r * 0.55;
    ctx.strokeStyle = 'rgba(26, 26, 26, 0.55)';
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(p.x - d, p.y - d);
    ctx.lineTo(p.x + d, p.y + d);
    ctx.moveTo(p.x + d, p.y - d);
    ctx.lineTo(p.x - d, p.y + d);
    ctx.stroke();
  }

  ctx.fillStyle = INK;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.font = `600 ${Math.max(9, Math.round(r * 0.62))}px ${FONT}`;
  ctx.fillText(`n${node.id}`, p.x, p.y);

  if (isLeader) {
    drawCrown(ctx, p.x, p.y - r - 2, Math.max(10, r * 0.9));
    drawBadge(ctx, p.x + r * 0.78, p.y - r * 0.78, Math.max(7, r * 0.36), 'L');
  }

  if (r >= 12) {
    const label = node.alive ? node.role : 'crashed';
    const extra = [];
    if (node.paused) extra.push('paused');
    if (node.term !== null) extra.push(`t${node.term}`);
    ctx.font = `${isLeader ? 700 : 400} 12px ${FONT}`;
    ctx.textBaseline = 'top';
    ctx.fillText([label, ...extra].join(' · '), p.x, p.y + r + 3);
    if (node.alive && !isLeader && node.leader !== null && r >= 16) {
      ctx.font = `400 11px ${FONT}`;
      ctx.fillStyle = node.leader === leader ? INK : '#6b6b6b';
      ctx.fillText(`→ n${node.leader}`, p.x, p.y + r + 17);
    }
  }
  ctx.restore();
}

/**
 * A small crown centred at (x, bottom).
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} x
 * @param {number} bottom
 * @param {number} w
 */
function drawCrown(ctx, x, bottom, w) {
  const h = w * 0.6;
  const l = x - w / 2;
  ctx.beginPath();
  ctx.moveTo(l, bottom);
  ctx.lineTo(l, bottom - h * 0.55);
  ctx.lineTo(l + w * 0.25, bottom - h * 0.25);
  ctx.lineTo(x, bottom - h);
  ctx.lineTo(l + w * 0.75, bottom - h * 0.25);
  ctx.lineTo(l + w, bottom - h * 0.55);
  ctx.lineTo(l + w, bottom);
  ctx.closePath();
  ctx.fillStyle = ROLE_COLOURS.leader;
  ctx.fill();
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = INK;
  ctx.stroke();
}

/**
 * A white disc with a letter.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} x
 * @param {number} y
 * @param {number} r
 * @param {string} letter
 */
function drawBadge(ctx, x, y, r, letter) {
  ctx.beginPath();
  ctx.arc(x, y, r, 0, 2 * Math.PI);
  ctx.fillStyle = '#ffffff';
  ctx.fill();
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = INK;
  ctx.stroke();
  ctx.fillStyle = INK;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.font = `700 ${Math.round(r * 1.3)}px ${FONT}`;
  ctx.fillText(letter, x, y + 0.5);
}

/**
 * A message on its way from edge to edge of its two nodes. A message the
 * network will lose fades as it goes and is crossed out.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Geometry} g
 * @param {import('./model.js').FlightState} f
 * @param {number} nowMs
 */
function drawFlight(ctx, g, f, nowMs) {
  const a = g.at[f.from];
  const b = g.at[f.to];
  if (!a || !b || f.from === f.to) return;
  const span = f.arriveMs - f.sentMs;
  const t = span > 0 ? Math.min(1, Math.max(0, (nowMs - f.sentMs) / span)) : 1;
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len;
  const uy = dy / len;
  const r = g.radius;
  const x = a.x + ux * r + (dx - 2 * ux * r) * t;
  const y = a.y + uy * r + (dy - 2 * uy * r) * t;
  const size = Math.max(3.5, Math.min(7, r * 0.3));
  ctx.save();
  ctx.globalAlpha = f.lost ? Math.max(0.15, 1 - 0.85 * t) : 1;
  ctx.beginPath();
  ctx.arc(x, y, size, 0, 2 * Math.PI);
  ctx.fillStyle = kindColour(f.kind);
  ctx.fill();
  ctx.lineWidth = 1;
  ctx.strokeStyle = f.lost ? '#D55E00' : '#ffffff';
  ctx.stroke();
  if (f.lost) {
    const d = size + 2;
    ctx.strokeStyle = INK;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(x - d, y - d);
    ctx.lineTo(x + d, y + d);
    ctx.moveTo(x + d, y - d);
    ctx.lineTo(x - d, y + d);
    ctx.stroke();
  }
  ctx.restore();
}
