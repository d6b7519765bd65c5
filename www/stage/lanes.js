// @ts-check
/**
 * The stage's views of a comparison, one lane per run: a cluster view
 * (the same ClusterView and draw.js as the single view) with its caption
 * (name and leader), the core's live caption under it (ask/captions.js),
 * its legend of kinds and timers, and its row of the
 * compare table (stage/compare-table.js). Built and drawn the same way
 * for the page's compare mode (compare/compare.js) and the compare embed
 * (embed/compare-embed.js), which differ only in their look (`LaneLook`).
 * @module stage/lanes
 */

import { ClusterView } from '../cluster/view.js';
import { ClusterLegend, legendLists } from '../cluster/legend.js';
import { CaptionView } from '../ask/captions.js';
import { h, setText } from '../shared/dom.js';
import { fillHead, makeRow, setCell } from './compare-table.js';

/**
 * One algorithm's view and row.
 * @typedef {object} Lane
 * @property {import('./runs.js').Run} run its run
 * @property {string} name human name
 * @property {ClusterView} view
 * @property {HTMLElement} caption the view's caption (name and leader)
 * @property {CaptionView} story the run's live caption, under the drawing
 * @property {HTMLElement} overlay the node buttons
 * @property {ClusterLegend | null} legend its message kinds and timers
 * @property {HTMLElement[]} cells the row's cells, in the table's column order
 */

/**
 * How a lane looks: the page's compare mode or the compare embed.
 * @typedef {object} LaneLook
 * @property {string} figure the figure's class
 * @property {string} box the class of the box around the canvas
 * @property {string} canvas the canvas's class
 * @property {string} label what the canvas's label says after the name
 * @property {boolean} legend whether the view has a legend
 */

/** The page's compare mode. @type {LaneLook} */
export const PAGE_LANE = Object.freeze({
  figure: 'compare-view',
  box: 'canvas-wrap',
  canvas: 'compare-canvas',
  label: 'the nodes and the messages between them; each node also has a button',
  legend: true,
});

/** The compare embed (its legend with `controls=…,legend`). @type {LaneLook} */
export const EMBED_LANE = Object.freeze({
  figure: 'embed-compare-view',
  box: 'embed-stage',
  canvas: 'embed-canvas',
  label: 'the nodes and the messages between them',
  legend: false,
});

/**
 * One lane's view for a run, put at the end of `into` (in the page before
 * the view is made: a view sizes its canvas, and hands it to its drawing
 * worker, as it is made). Its row's cells are the caller's to fill in.
 * @param {import('./runs.js').Run} run
 * @param {string} name
 * @param {HTMLElement} into
 * @param {LaneLook} look
 * @param {{click: (lane: Lane, node: number) => void, pick?: (node: number) => void}} on
 *   a click on a node; a shift-click (picking it for a partition)
 * @returns {Lane}
 */
export function makeLane(run, name, into, look, on) {
  const figure = document.createElement('figure');
  figure.className = look.figure;
  figure.dataset.algorithm = run.id;
  const caption = document.createElement('figcaption');
  const box = document.createElement('div');
  box.className = look.box;
  const canvas = document.createElement('canvas');
  canvas.className = look.canvas;
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', `${name}: ${look.label}`);
  const overlay = document.createElement('div');
  overlay.className = 'node-layer';
  box.append(canvas, overlay);
  figure.append(caption, box);
  const story = new CaptionView({ after: box });
  // Each algorithm has its own kinds and timers: a legend per view.
  const lists = look.legend ? legendLists() : null;
  if (lists) figure.append(lists.box);
  into.append(figure);
  const pick = on.pick ?? (() => {});
  const view = new ClusterView(
    canvas,
    overlay,
    (node) => on.click(lane, node),
    () => {},
    (node) => pick(node),
  );
  /** @type {Lane} */
  const lane = { run, name, view, caption, story, overlay, legend: lists ? new ClusterLegend(lists.kinds, lists.timers) : null, cells: [] };
  return lane;
}

/**
 * The fault a click on node `id` of a lane makes in every run: a crash
 * when it is up in that view, else a recovery. Null when the node is
 * that algorithm's own (a service), not one every run has.
 * @param {Lane} lane
 * @param {number} id
 * @returns {{crash: number} | {recover: number} | null | undefined} undefined:
 *   no such node
 */
export function nodeFault(lane, id) {
  const { participants, model } = lane.run;
  if (id >= participants) return null;
  const node = model.nodes().find((n) => n.id === id);
  if (!node) return undefined;
  return node.alive ? { crash: id } : { recover: id };
}

/**
 * Draws every lane; with `figures` (the readouts due) writes its row and
 * caption too.
 * @param {Lane[]} lanes
 * @param {import('./compare-table.js').Column[]} columns the table's
 * @param {import('./compare-table.js').Figures[] | null} figures the runs'
 *   rows, in the lanes' order
 */
export function renderLanes(lanes, columns, figures) {
  lanes.forEach((lane, i) => {
    const snapshot = lane.run.model.snapshot();
    lane.view.render(snapshot);
    lane.legend?.update(snapshot);
    lane.story.render(lane.run.model.playground, snapshot.nowMs);
    if (!figures) return;
    const f = figures[i];
    columns.forEach((c, j) => setCell(lane.cells[j], c.text(f), c.why?.(f) ?? null));
    const leaders = f.leaders.length === 0 ? 'no leader' : `leader ${f.leaders.map((id) => `n${id}`).join(', ')}`;
    setText(lane.caption, `${lane.name}: ${leaders}`);
  });
}

/**
 * The compare embed's table under its lanes (a row each, its cells
 * given to the lane) and the note above it about crashes of a fixed node
 * (hidden until written).
 * @param {Lane[]} lanes
 * @param {import('./compare-table.js').Column[]} columns
 * @returns {{fixed: HTMLElement, wrap: HTMLElement}}
 */
export function compactTable(lanes, columns) {
  const fixed = h('p', { class: 'compare-fixed embed-compare-fixed', 'data-testid': 'compare-fixed-crash', role: 'status' });
  fixed.hidden = true;
  const wrap = h('div', { class: 'embed-compare-table compare-scroll', 'data-testid': 'embed-compare-table' });
  const table = h('table', { class: 'compare-table', 'data-testid': 'compare-table' });
  const headRow = document.createElement('tr');
  fillHead(headRow, columns);
  const tbody = h('tbody', {});
  for (const lane of lanes) {
    const { tr, cells } = makeRow(lane.run.id, lane.name, columns);
    tbody.append(tr);
    lane.cells = cells;
  }
  table.append(h('thead', {}, headRow), tbody);
  wrap.append(table);
  return { fixed, wrap };
}
