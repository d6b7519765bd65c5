// @ts-check
/**
 * The cluster view's three canvases: the still layer (groups, ring, cuts,
 * picks, nodes; drawn again only when one of them changes), laid over it
 * the moving layer: the messages on the wire as arrows and the nodes'
 * timer arcs (drawn every frame while a run plays), and on top the
 * nodes' words (ids, roles, terms; drawn with the still layer), so an
 * arrow passes under a label, never over it.
 * Where the browser can (`transferControlToOffscreen` and module
 * workers), both belong to one cluster worker (www/cluster/worker.js)
 * shared by every cluster view of the page: the page posts what to draw
 * (the flight rows as a copy of the core's `Float64Array`; the nodes
 * and their pending timers when they change) and the worker draws and
 * rasterizes off the main thread. Measured in headless Chromium (software
 * raster), before the arrows: 2,500 message dots cost a busy frame's
 * main thread about 5.5 ms of rasterizing, and
 * 1,024 nodes changing role about 11 ms of drawing plus 7.5 ms of
 * rasterizing. Elsewhere, or when the worker fails, the same drawing
 * (draw.js, flight-dots.js, timer-arcs.js) runs on the page.
 * @module cluster-layers
 */

import { drawLabels, drawMovingRows, drawStill } from './draw.js';
import { flightCount } from './flight-dots.js';
import { pendingTimers, sameTimers } from './timer-arcs.js';
import { CANVAS, FAINT, INK, MUTED, PAPER } from '../shared/palette.js';
import { TIMER_CLASSES } from '../shared/names.js';
import { playClock } from '../shared/play-clock.js';
import { retireFirstPicture } from '../first/handoff.js';

/**
 * The cluster's drawing model, for tests: what a view's layers show.
 * @typedef {object} ClusterDrawn
 * @property {number} radius node radius, CSS px
 * @property {number} font px of the labels under the nodes
 * @property {number} arrows messages drawn as arrows
 * @property {Record<string, number>} arrowsByKind arrows by kind name
 *   (the wasm's `kinds()`)
 * @property {'arrows' | 'darts' | 'heads' | 'still'} shape how they were drawn
 * @property {number} lost crossed out
 * @property {{x: number, y: number, from: number, to: number}[]} crosses
 *   where the crosses are, CSS px
 * @property {{tx: number, ty: number, hx: number, hy: number, from: number, to: number}[]} tips
 *   tail and head of the first arrows, CSS px
 * @property {{x: number, y: number}[]} centres node centres, CSS px
 * @property {number} arcs nodes with a timer's countdown arc
 * @property {Record<string, number>} arcsByClass arcs by timer class name
 *   (the wasm's `timer_classes()`)
 * @property {number[]} arcNodes ids of the nodes with an arc
 */

/** @type {Worker | null | undefined} the shared worker; null when it failed */
let shared;
/** Layers drawn by the worker, by id. @type {Map<number, ClusterLayers>} */
const layers = new Map();
let nextId = 1;

/**
 * The shared cluster worker, started on first use; null when this
 * browser cannot draw a canvas from a worker.
 * @returns {Worker | null}
 */
function worker() {
  if (shared !== undefined) return shared;
  shared = null;
  if (typeof Worker === 'undefined' || typeof OffscreenCanvas === 'undefined') return shared;
  if (!('transferControlToOffscreen' in HTMLCanvasElement.prototype)) return shared;
  // A standalone page (www/standalone/) has no worker file to start.
  if (document.body?.dataset.standalone === 'true') return shared;
  try {
    const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    // A worker that cannot load (or throws) would leave its canvases
    // blank: every view goes back to drawing on the page, on fresh ones.
    w.addEventListener('error', (e) => {
      e.preventDefault();
      if (shared !== w) return;
      shared = null;
      w.terminate();
      for (const layer of [...layers.values()]) layer.onPage();
      // Nothing handed to it will be drawn by it now (for a test's hand).
      playClock.painted(Infinity);
    });
    w.addEventListener('message', (e) => {
      // What it has drawn so far, numbered when a test holds the page's
      // clock (www/shared/play-clock.js).
      if (e.data.painted !== undefined) {
        playClock.painted(e.data.painted);
        return;
      }
      if (e.data.drawn) {
        layers.get(e.data.id)?.movingDrawn(e.data.drawn);
        return;
      }
      // When the worker's first drawing of nodes is done (the page's
      // first render is only complete then; bench-frame.js reads it).
      if (performance.getEntriesByName('cluster-first-drawn').length === 0) {
        performance.mark('cluster-first-drawn', { startTime: e.data.at - performance.timeOrigin });
      }
      layers.get(e.data.id)?.stillDrawn(e.data.ms, e.data.nodes);
    });
    shared = w;
  } catch {
    shared = null;
  }
  return shared;
}

// Started as soon as the page's modules load, so the worker's own start
// (a thread, its modules) runs while the page waits for the wasm module:
// the first drawing of the nodes is the worker's.
worker();

export class ClusterLayers {
  /**
   * Takes over `still` (the cluster canvas) and puts the canvas of the
   * messages (the `.cluster-moving` rule lays it over) after it.
   * @param {HTMLCanvasElement} still
   * @param {(ms: number) => void} onStillCost what drawing the still layer
   *   cost the worker, ms (reported after it drew)
   * @param {(still: HTMLCanvasElement) => void} onReplaced called when the
   *   cluster canvas was replaced by a fresh one (the worker failed)
   */
  constructor(still, onStillCost, onReplaced) {
    /** @private */
    this.id = nextId++;
    /** The cluster canvas (the still layer). */
    this.still = still;
    /** The canvas of the messages on the wire. */
    this.moving = document.createElement('canvas');
    this.moving.className = 'cluster-moving';
    this.moving.setAttribute('aria-hidden', 'true');
    still.after(this.moving);
    /** The canvas of the nodes' words, over the messages. */
    this.labels = document.createElement('canvas');
    this.labels.className = 'cluster-labels';
    this.labels.setAttribute('aria-hidden', 'true');
    this.moving.after(this.labels);
    /** @private */
    this.onStillCost = onStillCost;
    /** @private */
    this.onReplaced = onReplaced;
    /** @private @type {CanvasRenderingContext2D | null} drawing on the page */
    this.stillCtx = null;
    /** @private @type {CanvasRenderingContext2D | null} */
    this.movingCtx = null;
    /** @private @type {CanvasRenderingContext2D | null} */
    this.labelsCtx = null;
    /** @private @type {Worker | null} */
    this.worker = worker();
    /** Backing size in device px, and the drawing's scale. */
    this.size = { width: 0, height: 0, dpr: 1 };
    /** @private @type {import('./draw.js').Geometry | null} */
    this.geometry = null;
    /** Whether the messages' canvas has anything on it. @private */
    this.inked = false;
    /** The nodes' pending timers as last drawn or posted (see
     * timer-arcs.js `pendingTimers`). @private @type {Float64Array} */
    this.timers = new Float64Array(0);
    /** The node rows they were read from. @private @type {unknown} */
    this.timersFrom = null;
    /** Kind names of the last moment drawn (for the drawing model). @private @type {string[]} */
    this.kinds = [];
    /**
     * The drawing model, for tests: what the layers show now, written
     * after each drawing of the messages while a test holds the page's
     * clock (www/shared/play-clock.js; only then). Also set on the still
     * canvas as `__drawn` (see `movingDrawn`).
     * @type {ClusterDrawn | null}
     */
    this.drawn = null;
    if (this.worker) {
      // Views taken off the page (compare mode makes new ones each time)
      // let the worker drop their canvases.
      for (const [id, layer] of layers) {
        if (layer.still.isConnected) continue;
        layers.delete(id);
        this.worker.postMessage({ type: 'drop', id });
      }
      try {
        const offStill = still.transferControlToOffscreen();
        const offMoving = this.moving.transferControlToOffscreen();
        const offLabels = this.labels.transferControlToOffscreen();
        this.worker.postMessage({ type: 'canvases', id: this.id, still: offStill, moving: offMoving, labels: offLabels }, [
          offStill,
          offMoving,
          offLabels,
        ]);
        layers.set(this.id, this);
      } catch {
        // A canvas already given a context cannot be transferred.
        this.worker = null;
      }
    }
    if (!this.worker) this.contexts();
  }

  /** Whether the layers are drawn off the main thread. */
  get offThread() {
    return this.worker !== null;
  }

  /** @private */
  contexts() {
    this.stillCtx = this.still.getContext('2d');
    this.movingCtx = this.moving.getContext('2d');
    this.labelsCtx = this.labels.getContext('2d');
  }

  /**
   * Gives the canvases their backing size (which clears them).
   * @param {number} width device px
   * @param {number} height device px
   * @param {number} dpr device px per CSS px
   */
  resize(width, height, dpr) {
    this.size = { width, height, dpr };
    this.inked = false;
    // The layers over the cluster canvas take its size, not their box's:
    // what a phone puts under the drawing (the opening prompt, the
    // quiet-time note) makes the box taller, and stretched them.
    for (const c of [this.moving, this.labels]) {
      c.style.width = `${width / dpr}px`;
      c.style.height = `${height / dpr}px`;
    }
    if (this.worker) {
      this.worker.postMessage({ type: 'size', id: this.id, width, height, dpr });
      return;
    }
    for (const c of [this.still, this.moving, this.labels]) {
      c.width = width;
      c.height = height;
    }
  }

  /**
   * Where the nodes are now (after a new layout).
   * @param {import('./draw.js').Geometry} g
   */
  place(g) {
    this.geometry = g;
    this.worker?.postMessage({ type: 'place', id: this.id, geometry: g });
  }

  /**
   * Draws the still layer of a moment, and the nodes' words over the
   * messages.
   * @param {import('../player/model.js').Snapshot} s
   * @param {import('./draw.js').Marks} marks
   */
  drawStill(s, marks) {
    if (this.worker) {
      const theme = { ink: INK, faint: FAINT, canvas: CANVAS, paper: PAPER, muted: MUTED };
      // The nodes as the core's rows (see node-rows.js), copied in one go.
      const scene = { nodes: s.nodeRows, cuts: s.cuts, leader: s.leader };
      const seq = playClock.post();
      this.worker.postMessage({ type: 'still', id: this.id, scene, picked: [...marks.picked], theme, seq });
      return;
    }
    const ctx = this.stillCtx;
    const words = this.labelsCtx;
    if (!ctx || !words || !this.geometry) return;
    // Transparent: the canvas's CSS background (--canvas) shows through.
    for (const c of [ctx, words]) {
      c.setTransform(1, 0, 0, 1, 0, 0);
      c.clearRect(0, 0, this.still.width, this.still.height);
      c.setTransform(this.size.dpr, 0, 0, this.size.dpr, 0, 0);
    }
    const nodes = drawStill(ctx, this.geometry, s, marks);
    drawLabels(words, this.geometry, s);
    retireFirstPicture(this.still);
    // The drawing model only for a test, as the worker reports it.
    if (playClock.hand) this.stillDrawn(0, nodes, false);
  }

  /**
   * Draws the messages of one moment and the nodes' timer arcs (an empty
   * wire and no timer twice in a row leave the canvas untouched).
   * @param {import('./flight-dots.js').Flights} flights
   * @param {number} nowMs
   * @param {import('./flight-dots.js').DotStyle} style
   * @param {import('./node-rows.js').NodeRows | undefined} nodeRows the
   *   core's node rows (their timer columns)
   * @param {string[]} kinds the run's kind names (for the drawing model)
   */
  drawDots(flights, nowMs, style, nodeRows, kinds) {
    // The same rows (the model keeps them while no node changes) have
    // the same timers: read again only from new ones.
    let changed = false;
    if (nodeRows !== this.timersFrom) {
      this.timersFrom = nodeRows;
      const timers = nodeRows ? pendingTimers(nodeRows) : new Float64Array(0);
      changed = !sameTimers(timers, this.timers);
      if (changed) this.timers = timers;
    }
    const timers = this.timers;
    this.kinds = kinds;
    const any = flightCount(flights) > 0 || timers.length > 0;
    if (!any && !this.inked) return;
    this.inked = any;
    if (this.worker) {
      // Cloned, not transferred: the model may keep its rows for later
      // frames, and a copy made here (up to 224 KB a frame) would go to
      // the page's large-object heap and bring on garbage collections
      // (measured: posting took 10 to 27 ms in some frames of the
      // 1024-node run), while the clone is made outside it. The timers
      // (four numbers a node that has one) only when they changed.
      this.worker.postMessage({
        type: 'dots',
        id: this.id,
        rows: flights.rows,
        width: flights.width,
        col: flights.col,
        nowMs,
        style,
        timers: changed ? timers : undefined,
        seq: playClock.post(),
      });
      return;
    }
    const ctx = this.movingCtx;
    if (!ctx || !this.geometry) return;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.moving.width, this.moving.height);
    ctx.setTransform(this.size.dpr, 0, 0, this.size.dpr, 0, 0);
    const drawn = drawMovingRows(ctx, this.geometry, flights, timers, nowMs, style);
    // The drawing model only for a test, as the worker reports it.
    if (playClock.hand) this.movingDrawn(drawn);
  }

  /**
   * What the moving layer showed (reported by the worker while a test
   * holds the clock), as the drawing model `drawn`.
   * @param {import('./draw.js').MovingDrawn} m
   */
  movingDrawn(m) {
    const g = this.geometry;
    /** @type {Record<string, number>} */
    const arrowsByKind = {};
    m.flights.byKind.forEach((count, kind) => {
      if (count) arrowsByKind[this.kinds[kind] ?? String(kind)] = count;
    });
    /** @type {Record<string, number>} */
    const arcsByClass = {};
    m.timers.byClass.forEach((count, cls) => {
      if (count) arcsByClass[TIMER_CLASSES[cls]?.name ?? String(cls)] = count;
    });
    this.drawn = {
      radius: g?.radius ?? 0,
      font: g?.font ?? 0,
      arrows: m.flights.arrows,
      arrowsByKind,
      shape: m.flights.shape,
      lost: m.flights.lost,
      crosses: m.flights.crosses,
      tips: m.flights.tips,
      centres: g ? g.at.map((c) => ({ x: c.x, y: c.y })) : [],
      arcs: m.timers.arcs,
      arcsByClass,
      arcNodes: m.timers.nodes,
    };
    /** @type {any} */ (this.still).__drawn = this.drawn;
  }

  /**
   * The still layer was drawn in `ms`; with `nodes` (only while a test
   * holds the clock), how each node was drawn, kept on the still canvas
   * as `__drawnNodes` (draw.js `NodesDrawn`).
   * @param {number} ms
   * @param {import('./draw.js').NodesDrawn} [nodes]
   * @param {boolean} [cost] whether `ms` is the worker's drawing cost
   */
  stillDrawn(ms, nodes, cost = true) {
    if (cost) this.onStillCost(ms);
    // The worker's drawing is on the screen from the next frame on: the
    // first picture over it (first/picture.js) can go.
    if (cost) retireFirstPicture(this.still);
    if (nodes) /** @type {any} */ (this.still).__drawnNodes = nodes;
  }

  /**
   * Goes back to drawing on the page, on fresh canvases with the same
   * attributes (the worker owns the old ones' drawing).
   */
  onPage() {
    layers.delete(this.id);
    this.worker = null;
    const still = /** @type {HTMLCanvasElement} */ (this.still.cloneNode(false));
    const moving = /** @type {HTMLCanvasElement} */ (this.moving.cloneNode(false));
    const labels = /** @type {HTMLCanvasElement} */ (this.labels.cloneNode(false));
    this.still.replaceWith(still);
    this.moving.replaceWith(moving);
    this.labels.replaceWith(labels);
    this.still = still;
    this.moving = moving;
    this.labels = labels;
    this.contexts();
    this.resize(this.size.width, this.size.height, this.size.dpr);
    this.onReplaced(still);
  }
}
