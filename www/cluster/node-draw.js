// @ts-check
/**
 * Drawing one node of the cluster: its outline and marks (`drawNode`, on
 * the still layer, under the messages' arrows) and its words
 * (`drawNodeLabels`, on the top layer, over the arrows, each with a halo
 * in what is behind it so an arrow never hides a letter: issue 29, arrows
 * were painted over "n8" and "candidate · t1"). The sizes come from the
 * geometry (draw.js `layoutNodes`).
 * @module node-draw
 */

import { strokeCross } from './flight-dots.js';
import { CANVAS, INK, MUTED, NODE_INK, ROLE_COLOURS } from '../shared/palette.js';

/** @typedef {import('./draw.js').Geometry} Geometry */
/** @typedef {CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D} Ctx */
/** @typedef {'disc' | 'square' | 'hexagon'} NodeShape */

/** The font of every word on the cluster. */
export const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

/** Nodes this small are drawn without labels under them. */
export const LABELLED_RADIUS = 12;

/**
 * The outline of a node of `role`: a rounded square for a service (not a
 * participant), a hexagon for an observer (follows, never votes), a disc
 * for the rest.
 * @param {string} role
 * @returns {NodeShape}
 */
export function nodeShape(role) {
  return role === 'service' ? 'square' : role === 'observer' ? 'hexagon' : 'disc';
}

/**
 * Adds a hexagon (an observer's outline) to the path.
 * @param {Ctx} ctx
 * @param {number} x centre
 * @param {number} y centre
 * @param {number} r distance from the centre to a corner
 */
function hexagon(ctx, x, y, r) {
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 3) * i;
    if (i === 0) ctx.moveTo(x + r * Math.cos(a), y + r * Math.sin(a));
    else ctx.lineTo(x + r * Math.cos(a), y + r * Math.sin(a));
  }
  ctx.closePath();
}

/**
 * Adds a rounded rectangle to the path.
 * @param {Ctx} ctx
 * @param {number} x
 * @param {number} y
 * @param {number} w
 * @param {number} h
 * @param {number} r corner radius
 */
export function roundedRect(ctx, x, y, w, h, r) {
  const k = Math.min(r, w / 2, h / 2);
  ctx.moveTo(x + k, y);
  ctx.arcTo(x + w, y, x + w, y + h, k);
  ctx.arcTo(x + w, y + h, x, y + h, k);
  ctx.arcTo(x, y + h, x, y, k);
  ctx.arcTo(x, y, x + w, y, k);
  ctx.closePath();
}

/**
 * A node's outline and marks: a disc in its role's colour (a rounded
 * square for a service, a hexagon for an observer), crossed out when
 * crashed; the leader gets a crown and an "L" badge, a paused node a
 * pause badge. Its words are `drawNodeLabels`'s.
 * @param {Ctx} ctx
 * @param {Geometry} g
 * @param {import('../player/model.js').NodeState} node
 */
export function drawNode(ctx, g, node) {
  const p = g.at[node.id];
  if (!p) return;
  const r = g.radius;
  const isLeader = node.alive && node.role === 'leader';
  ctx.save();
  ctx.beginPath();
  const shape = nodeShape(node.role);
  if (shape === 'square') {
    const half = r * 0.9;
    roundedRect(ctx, p.x - half, p.y - half, 2 * half, 2 * half, r * 0.3);
  } else if (shape === 'hexagon') {
    hexagon(ctx, p.x, p.y, r * 1.06);
  } else {
    ctx.arc(p.x, p.y, r, 0, 2 * Math.PI);
  }
  ctx.fillStyle = fillOf(node);
  ctx.fill();
  ctx.lineWidth = isLeader ? Math.max(3.5, r * 0.13) : Math.max(1.5, r * 0.06);
  ctx.strokeStyle = INK;
  if (!node.alive) ctx.setLineDash([4, 3]);
  ctx.stroke();
  ctx.setLineDash([]);

  if (!node.alive) {
    // A cross over a crashed node, so "down" does not rest on grey alone.
    const d = r * 0.55;
    ctx.strokeStyle = 'rgba(26, 26, 26, 0.55)';
    ctx.lineWidth = Math.max(2, r * 0.08);
    strokeCross(ctx, p.x, p.y, d);
  }

  // The badges sit on the rim, just outside the timer's countdown arc
  // (timer-arcs.js), which runs inside the outline.
  const badge = Math.max(7, r * 0.32);
  const corner = r * 0.92;
  if (isLeader) {
    drawCrown(ctx, p.x, p.y - r - 2, Math.max(10, r * 0.9));
    drawBadge(ctx, p.x + corner, p.y - corner, badge, 'L');
  }
  if (node.alive && node.paused) drawPauseBadge(ctx, p.x - corner, p.y - corner, badge);
  ctx.restore();
}

/**
 * A node's fill: its role's colour, or the crashed grey.
 * @param {import('../player/model.js').NodeState} node
 * @returns {string}
 */
function fillOf(node) {
  return node.alive ? ROLE_COLOURS[node.role] : ROLE_COLOURS.crashed;
}

/**
 * Text with a halo: a band of `halo` round the letters first, so whatever
 * is drawn under them (a message's arrow) stops short of them.
 * @param {Ctx} ctx
 * @param {string} text
 * @param {number} x
 * @param {number} y
 * @param {string} ink
 * @param {string} halo
 * @param {number} width of the band, px (each side)
 */
function haloText(ctx, text, x, y, ink, halo, width) {
  ctx.lineJoin = 'round';
  ctx.lineWidth = 2 * width;
  ctx.strokeStyle = halo;
  ctx.strokeText(text, x, y);
  ctx.fillStyle = ink;
  ctx.fillText(text, x, y);
}

/**
 * A node's words, drawn over the messages' arrows (the cluster's top
 * layer, layers.js) with a halo so that an arrow passing under them
 * leaves them legible: its id inside it (haloed in the node's own
 * colour), its role below ("paused", "slow +20 ms" and its term added
 * where they fit) and, for a follower, the leader it follows.
 * @param {Ctx} ctx
 * @param {Geometry} g
 * @param {import('../player/model.js').NodeState} node
 * @param {number | undefined} leader
 */
export function drawNodeLabels(ctx, g, node, leader) {
  const p = g.at[node.id];
  if (!p) return;
  const r = g.radius;
  const isLeader = node.alive && node.role === 'leader';
  ctx.save();
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const idPx = Math.max(9, Math.round(r * 0.62));
  ctx.font = `600 ${idPx}px ${FONT}`;
  haloText(ctx, `n${node.id}`, p.x, p.y, NODE_INK, fillOf(node), Math.max(1.5, idPx * 0.14));

  if (r >= LABELLED_RADIUS) {
    const label = node.alive ? node.role : 'crashed';
    const extra = [];
    if (node.alive && node.paused) extra.push('paused');
    if (node.alive && node.slowMs > 0) extra.push(`slow +${node.slowMs} ms`);
    if (node.term !== null) extra.push(`t${node.term}`);
    const weight = isLeader ? 700 : 400;
    const size = fitLabel(ctx, [label, ...extra].join(' · '), label, weight, g);
    ctx.textBaseline = 'top';
    const halo = Math.max(2, size.px * 0.22);
    haloText(ctx, size.text, p.x, p.y + r + 3, INK, CANVAS, halo);
    if (node.alive && !isLeader && node.leader !== null && r >= 16) {
      ctx.font = `400 ${Math.max(9, size.px - 1)}px ${FONT}`;
      haloText(ctx, `→ n${node.leader}`, p.x, p.y + r + 3 + size.px * 1.2, node.leader === leader ? INK : MUTED, CANVAS, halo);
    }
  }
  ctx.restore();
}

/**
 * Sets the font of a node's label so that it fits between its
 * neighbours (`g.spacing`, never narrower than the node): `g.font`, less
 * down to 9 px, and only the `short` text (the role) when the whole one
 * does not fit even then.
 * @param {Ctx} ctx
 * @param {string} whole
 * @param {string} short
 * @param {number} weight
 * @param {Geometry} g
 * @returns {{text: string, px: number}}
 */
function fitLabel(ctx, whole, short, weight, g) {
  const room = Math.max(2 * g.radius, g.spacing - 6);
  let text = whole;
  let px = g.font;
  ctx.font = `${weight} ${px}px ${FONT}`;
  let width = ctx.measureText(text).width;
  if (width > room) {
    px = Math.max(9, Math.floor((px * room) / width));
    ctx.font = `${weight} ${px}px ${FONT}`;
    width = ctx.measureText(text).width;
    if (width > room && text !== short) {
      text = short;
      px = Math.max(9, Math.min(g.font, Math.floor((px * room) / ctx.measureText(text).width)));
      ctx.font = `${weight} ${px}px ${FONT}`;
    }
  }
  return { text, px };
}

/**
 * A small crown centred at (x, bottom).
 * @param {Ctx} ctx
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
  ctx.strokeStyle = NODE_INK;
  ctx.stroke();
}

/**
 * A white disc ringed in ink, the ground of a badge, left with the ink
 * as its fill style.
 * @param {Ctx} ctx
 * @param {number} x
 * @param {number} y
 * @param {number} r
 */
function badgeDisc(ctx, x, y, r) {
  ctx.beginPath();
  ctx.arc(x, y, r, 0, 2 * Math.PI);
  ctx.fillStyle = '#ffffff';
  ctx.fill();
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = NODE_INK;
  ctx.stroke();
  ctx.fillStyle = NODE_INK;
}

/**
 * A white disc with a letter.
 * @param {Ctx} ctx
 * @param {number} x
 * @param {number} y
 * @param {number} r
 * @param {string} letter
 */
function drawBadge(ctx, x, y, r, letter) {
  badgeDisc(ctx, x, y, r);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.font = `700 ${Math.round(r * 1.3)}px ${FONT}`;
  ctx.fillText(letter, x, y + 0.5);
}

/**
 * A white disc with two bars: the node is paused.
 * @param {Ctx} ctx
 * @param {number} x
 * @param {number} y
 * @param {number} r
 */
function drawPauseBadge(ctx, x, y, r) {
  badgeDisc(ctx, x, y, r);
  const w = r * 0.3;
  const h = r * 1.0;
  ctx.fillRect(x - w * 1.6, y - h / 2, w, h);
  ctx.fillRect(x + w * 0.6, y - h / 2, w, h);
}
