// @ts-check
/**
 * The space-time diagram as an SVG file: the same `Scene` that
 * scene.js builds and paints on its canvas (`buildScene`), written as
 * SVG elements instead of canvas strokes, in the same colours and sizes.
 * No second drawing logic: every position comes from the scene.
 *
 * The document is made with `createElementNS` and serialised with
 * `XMLSerializer`; nothing is parsed from text. Each node is one
 * `<g class="node" data-node="i">` (its label and its line, a segment per
 * state), and each message drawn is one `<path class="message">` (with
 * `data-kind`; lost ones carry `data-lost` and end in a cross), so a
 * reader can check the figure against the numbers.
 * @module spacetime/svg
 */

import { CANVAS, CUT, FAINT, INK, MUTED, PAPER, ROLE_COLOURS, kindColour, kindDash } from '../shared/palette.js';
import { SCENE_LOOK, headSize } from './scene.js';
import { ROLE } from '../shared/names.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Numbers in the file: two decimals are plenty at CSS-pixel scale. */
const fmt = (/** @type {number} */ x) => String(Math.round(x * 100) / 100);

/**
 * A new SVG element with attributes.
 * @param {string} name
 * @param {Record<string, string | number>} [attrs]
 * @returns {SVGElement}
 */
function svg(name, attrs = {}) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) {
    node.setAttribute(key, typeof value === 'number' ? fmt(value) : value);
  }
  return /** @type {SVGElement} */ (node);
}

/**
 * The colour of a role-change dot (as paintScene picks it).
 * @param {number} role
 */
function roleColour(role) {
  return role === ROLE.leader
    ? ROLE_COLOURS.leader
    : role === ROLE.candidate
      ? ROLE_COLOURS.candidate
      : role === ROLE.service
        ? ROLE_COLOURS.service
        : ROLE_COLOURS.follower;
}

/**
 * The path of one message arrow (line plus head, or line plus cross when
 * lost), as paintScene draws it.
 * @param {number} x1
 * @param {number} y1
 * @param {number} x2
 * @param {number} y2
 * @param {number} flags 1 lost, 4 still on the wire (no head)
 * @param {number} head size of the head, px
 * @returns {{line: string, cross: string}}
 */
function arrowPath(x1, y1, x2, y2, flags, head) {
  let line = `M${fmt(x1)} ${fmt(y1)}L${fmt(x2)} ${fmt(y2)}`;
  let cross = '';
  if (flags & 1) {
    const c = head;
    cross = `M${fmt(x2 - c)} ${fmt(y2 - c)}L${fmt(x2 + c)} ${fmt(y2 + c)}M${fmt(x2 + c)} ${fmt(y2 - c)}L${fmt(x2 - c)} ${fmt(y2 + c)}`;
  } else if (!(flags & 4)) {
    const len = Math.hypot(x2 - x1, y2 - y1);
    if (len > head * 1.5) {
      const ux = (x2 - x1) / len;
      const uy = (y2 - y1) / len;
      line +=
        `M${fmt(x2 - ux * head - uy * head * 0.55)} ${fmt(y2 - uy * head + ux * head * 0.55)}` +
        `L${fmt(x2)} ${fmt(y2)}` +
        `L${fmt(x2 - ux * head + uy * head * 0.55)} ${fmt(y2 - uy * head - ux * head * 0.55)}`;
    }
  }
  return { line, cross };
}

/**
 * Builds the SVG document of a scene.
 * @param {import('./scene.js').Scene} s
 * @param {number} participants rows from here on are an algorithm's extra
 *   nodes (a coordination service, a resource), labelled in their colour
 * @param {string} title the figure's title (scenario and moment)
 * @returns {SVGSVGElement}
 */
export function sceneSvg(s, participants, title) {
  const { SEGMENT_STYLES, FUTURE_ALPHA, ACCENT, FONT, MAX_ARROWS, light } = SCENE_LOOK;
  const f = s.frame;
  const plotBottom = f.top + f.nodes * f.rowHeight;
  const plotRight = f.left + f.plotWidth;
  const root = /** @type {SVGSVGElement} */ (
    /** @type {unknown} */ (
      svg('svg', {
        width: f.width,
        height: f.height,
        viewBox: `0 0 ${fmt(f.width)} ${fmt(f.height)}`,
        'font-family': FONT,
      })
    )
  );
  const titleEl = svg('title');
  titleEl.textContent = title;
  root.append(titleEl, svg('rect', { width: f.width, height: f.height, fill: CANVAS }));

  // Axis and grid.
  const grid = svg('g', { class: 'grid', stroke: FAINT, 'stroke-width': 1, opacity: 0.45 });
  const labels = svg('g', { class: 'ticks', fill: MUTED, 'font-size': 11, 'text-anchor': 'middle' });
  for (const t of s.ticks) {
    const x = Math.round(t.x) + 0.5;
    grid.append(svg('line', { x1: x, y1: f.top, x2: x, y2: plotBottom }));
    if (t.x - f.left < 14 || plotRight - t.x < 14) continue;
    const text = svg('text', { x: t.x, y: 9, 'dominant-baseline': 'middle' });
    text.textContent = t.label;
    labels.append(text);
  }
  root.append(grid, labels);

  const clipId = 'plot';
  const clip = svg('clipPath', { id: clipId });
  clip.append(svg('rect', { x: f.left, y: f.top - 2, width: f.plotWidth, height: plotBottom - f.top + 4 }));
  const defs = svg('defs');
  defs.append(clip);
  root.append(defs);

  // One group per node: its label, and its line (a segment per state).
  const looks = new Map(SEGMENT_STYLES.map(([style, look]) => [style, look]));
  const lineWidth = (/** @type {number} */ w) => Math.min(w, Math.max(1, f.rowHeight * 0.45));
  const every = Math.ceil(11 / f.rowHeight);
  const nodes = svg('g', { class: 'nodes' });
  /** @type {SVGElement[]} */
  const lines = [];
  for (let i = 0; i < f.nodes; i++) {
    const group = svg('g', { class: 'node', 'data-node': String(i) });
    if (i % every === 0) {
      const label = svg('text', {
        x: f.left - 6,
        y: f.top + (i + 0.5) * f.rowHeight,
        'text-anchor': 'end',
        'dominant-baseline': 'middle',
        'font-size': Math.min(12, Math.max(9, f.rowHeight - 6)),
        fill: i < participants ? INK : '#A8457E',
      });
      label.textContent = `n${i}`;
      group.append(label);
    }
    const line = svg('g', { class: 'node-line', 'clip-path': `url(#${clipId})` });
    group.append(line);
    lines.push(line);
    nodes.append(group);
  }
  for (const seg of s.segments) {
    const node = Math.round((seg.y - f.top) / f.rowHeight - 0.5);
    const look = looks.get(seg.style);
    if (!look || node < 0 || node >= lines.length) continue;
    /** @type {Record<string, string | number>} */
    const attrs = {
      class: `segment ${seg.style}`,
      x1: seg.x1,
      y1: seg.y,
      x2: Math.max(seg.x2, seg.x1 + 0.5),
      y2: seg.y,
      stroke: seg.style === 'paused' ? INK : look.colour,
      'stroke-width': lineWidth(look.width),
    };
    if (look.dash.length > 0) attrs['stroke-dasharray'] = look.dash.join(' ');
    if (seg.future) attrs.opacity = FUTURE_ALPHA;
    lines[node].append(svg('line', attrs));
  }
  root.append(nodes);

  const plot = svg('g', { class: 'plot', 'clip-path': `url(#${clipId})` });
  root.append(plot);

  // Vertical rules: partitions, heals, violations.
  for (const r of s.rules) {
    const violation = r.kind === 'violation';
    plot.append(
      svg('line', {
        class: `rule ${r.kind}`,
        x1: r.x,
        y1: f.top,
        x2: r.x,
        y2: plotBottom,
        stroke: violation ? CUT : INK,
        'stroke-width': violation ? 2 : 1,
        'stroke-dasharray': violation ? '6 3' : '2 3',
        opacity: r.future ? FUTURE_ALPHA : 1,
      }),
    );
  }

  // Timer firings: short ticks.
  if (f.rowHeight >= 6 && s.timers.length > 0) {
    const h = Math.min(4, f.rowHeight * 0.3);
    const d = s.timers.map((m) => `M${fmt(m.x)} ${fmt(m.y - h)}V${fmt(m.y + h)}`).join('');
    plot.append(svg('path', { class: 'timers', d, stroke: '#6b6b6b', 'stroke-width': 1, fill: 'none' }));
  }

  // Messages: one path each, the ones drawn on the canvas (same thinning).
  const n = s.arrowCount;
  const stride = Math.max(1, Math.ceil(n / MAX_ARROWS));
  const head = headSize(f.rowHeight);
  const xy = s.arrows;
  const messages = svg('g', { class: 'messages', fill: 'none' });
  for (let i = 0; i < n; i += stride) {
    const kind = s.arrowKind[i];
    const flags = s.arrowFlags[i];
    const future = (flags & 2) !== 0;
    const colour = kindColour(kind);
    const { line, cross } = arrowPath(xy[4 * i], xy[4 * i + 1], xy[4 * i + 2], xy[4 * i + 3], flags, head);
    /** @type {Record<string, string | number>} */
    const attrs = {
      class: 'message',
      'data-kind': s.kinds[kind] ?? String(kind),
      d: line,
      stroke: colour,
      'stroke-width': 1.4,
      opacity: future ? FUTURE_ALPHA : 0.9,
    };
    if (flags & 1) attrs['data-lost'] = 'true';
    if (future) attrs['data-future'] = 'true';
    const dash = kindDash(kind);
    if (dash.length > 0) attrs['stroke-dasharray'] = dash.join(' ');
    if (light(colour)) {
      messages.append(
        svg('path', {
          class: 'halo',
          d: line,
          stroke: 'rgba(0, 0, 0, 0.45)',
          'stroke-width': 2.6,
          opacity: attrs.opacity,
          ...(dash.length > 0 ? { 'stroke-dasharray': dash.join(' ') } : {}),
        }),
      );
    }
    messages.append(svg('path', attrs));
    if (cross) {
      messages.append(
        svg('path', { class: 'lost', d: cross, stroke: CUT, 'stroke-width': 2, opacity: future ? FUTURE_ALPHA : 1 }),
      );
    }
  }
  plot.append(messages);

  // Elections started: hollow diamonds.
  const r = Math.max(2.5, Math.min(5, f.rowHeight * 0.3));
  if (s.elections.length > 0) {
    const d = s.elections
      .map((m) => `M${fmt(m.x)} ${fmt(m.y - r - 1)}L${fmt(m.x + r + 1)} ${fmt(m.y)}L${fmt(m.x)} ${fmt(m.y + r + 1)}L${fmt(m.x - r - 1)} ${fmt(m.y)}Z`)
      .join('');
    plot.append(svg('path', { class: 'elections', d, stroke: INK, 'stroke-width': 1.3, fill: 'none' }));
  }

  // Pauses: two bars.
  for (const m of s.pauses) {
    const g = svg('g', { class: 'pause', fill: INK, opacity: m.future ? FUTURE_ALPHA : 1 });
    g.append(
      svg('rect', { x: m.x - r * 0.9, y: m.y - r, width: r * 0.6, height: r * 2 }),
      svg('rect', { x: m.x + r * 0.3, y: m.y - r, width: r * 0.6, height: r * 2 }),
    );
    plot.append(g);
  }

  // Crashes (filled squares) and recoveries (hollow squares).
  for (const m of s.crashes) {
    plot.append(
      svg('rect', {
        class: m.up ? 'recover' : 'crash',
        x: m.x - r,
        y: m.y - r,
        width: r * 2,
        height: r * 2,
        fill: m.up ? PAPER : INK,
        stroke: m.up ? INK : 'none',
        'stroke-width': 1.5,
        opacity: m.future ? FUTURE_ALPHA : 1,
      }),
    );
  }

  // Role changes: dots in the new role's colour.
  for (const m of s.roles) {
    plot.append(
      svg('circle', {
        class: 'role',
        cx: m.x,
        cy: m.y,
        r: m.role === ROLE.leader ? r + 1 : r,
        fill: roleColour(m.role),
        stroke: INK,
        'stroke-width': 1,
        opacity: m.future ? FUTURE_ALPHA : 1,
      }),
    );
  }

  // Rule labels in the axis band.
  for (const rule of s.rules) {
    if (rule.x < f.left || rule.x > plotRight) continue;
    const text = svg('text', {
      x: rule.x,
      y: f.top - 8,
      'text-anchor': 'middle',
      'dominant-baseline': 'middle',
      'font-size': 10,
      'font-weight': 'bold',
      fill: rule.kind === 'violation' ? CUT : INK,
      opacity: rule.future ? 0.5 : 1,
    });
    text.textContent = rule.label;
    root.append(text);
  }

  // Now.
  if (s.nowX >= f.left - 1 && s.nowX <= plotRight + 1) {
    root.append(
      svg('line', { class: 'now', x1: s.nowX, y1: f.top - 3, x2: s.nowX, y2: plotBottom, stroke: ACCENT, 'stroke-width': 2 }),
      svg('path', {
        d: `M${fmt(s.nowX - 5)} ${fmt(f.top - 9)}L${fmt(s.nowX + 5)} ${fmt(f.top - 9)}L${fmt(s.nowX)} ${fmt(f.top - 2)}Z`,
        fill: ACCENT,
      }),
    );
  }

  // Plot frame.
  root.append(
    svg('rect', {
      x: f.left + 0.5,
      y: f.top + 0.5,
      width: f.plotWidth - 1,
      height: plotBottom - f.top - 1,
      fill: 'none',
      stroke: FAINT,
      'stroke-width': 1,
    }),
  );
  return root;
}

/**
 * The scene as the text of a standalone .svg file.
 * @param {import('./scene.js').Scene} scene
 * @param {number} participants
 * @param {string} title
 * @returns {string}
 */
export function sceneSvgText(scene, participants, title) {
  const text = new XMLSerializer().serializeToString(sceneSvg(scene, participants, title));
  return `<?xml version="1.0" encoding="UTF-8"?>\n${text}\n`;
}
