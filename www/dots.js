// @ts-check
/**
 * The cluster view's layer of messages on the wire, drawn every frame
 * while a run plays. Where the browser can (`transferControlToOffscreen`
 * and module workers), the canvas belongs to one dots worker
 * (www/dots-worker.js) shared by every cluster view of the page: a frame
 * posts the flight rows (a copy of the core's `Float64Array`, transferred)
 * and the worker draws and rasterizes them off the main thread (drawing
 * 2,500 dots and rasterizing them in software was about half of a busy
 * frame's main-thread time). Elsewhere, or when the worker fails to
 * start, the same drawing (flight-dots.js) runs on the page.
 * @module dots
 */

import { drawFlightRows, flightCount } from './flight-dots.js';

/** @type {Worker | null | undefined} the shared worker; null when it failed */
let shared;
/** Layers by id, to move them on the page when the worker fails. @type {Map<number, DotsLayer>} */
const layers = new Map();
let nextId = 1;

/**
 * The shared dots worker, started on first use; null when this browser
 * cannot draw a canvas from a worker.
 * @returns {Worker | null}
 */
function worker() {
  if (shared !== undefined) return shared;
  shared = null;
  if (typeof Worker === 'undefined' || typeof OffscreenCanvas === 'undefined') return shared;
  if (!('transferControlToOffscreen' in HTMLCanvasElement.prototype)) return shared;
  try {
    const w = new Worker(new URL('./dots-worker.js', import.meta.url), { type: 'module' });
    // A worker that cannot load (or throws) leaves its canvases blank:
    // every layer goes back to drawing on the page, on a fresh canvas.
    w.addEventListener('error', (e) => {
      e.preventDefault();
      if (shared !== w) return;
      shared = null;
      w.terminate();
      for (const layer of layers.values()) layer.onPage();
    });
    shared = w;
  } catch {
    shared = null;
  }
  return shared;
}

export class DotsLayer {
  /**
   * Makes the layer's canvas (laid over the cluster canvas by the
   * `.cluster-moving` rule) and puts it after `under`.
   * @param {HTMLCanvasElement} under
   */
  constructor(under) {
    /** @private */
    this.id = nextId++;
    /** The canvas on the page. */
    this.canvas = this.makeCanvas();
    under.after(this.canvas);
    /** @private @type {CanvasRenderingContext2D | null} drawing on the page */
    this.ctx = null;
    /** @private @type {Worker | null} */
    this.worker = worker();
    /** Backing size in device px, and the drawing's scale. @private */
    this.size = { width: 0, height: 0, dpr: 1 };
    /** @private @type {import('./draw.js').Geometry | null} */
    this.geometry = null;
    /** Whether anything is drawn on it. @private */
    this.inked = false;
    if (this.worker) {
      try {
        const off = this.canvas.transferControlToOffscreen();
        this.worker.postMessage({ type: 'canvas', id: this.id, canvas: off }, [off]);
        layers.set(this.id, this);
      } catch {
        this.worker = null;
      }
    }
    if (!this.worker) this.ctx = this.canvas.getContext('2d');
  }

  /** Whether the dots are drawn off the main thread (for tests and tools). */
  get offThread() {
    return this.worker !== null;
  }

  /**
   * @private
   * @returns {HTMLCanvasElement}
   */
  makeCanvas() {
    const c = document.createElement('canvas');
    c.className = 'cluster-moving';
    c.setAttribute('aria-hidden', 'true');
    return c;
  }

  /**
   * Gives the layer its backing size (which clears it).
   * @param {number} width device px
   * @param {number} height device px
   * @param {number} dpr device px per CSS px
   */
  resize(width, height, dpr) {
    this.size = { width, height, dpr };
    this.inked = false;
    if (this.worker) {
      this.worker.postMessage({ type: 'size', id: this.id, width, height, dpr });
    } else {
      this.canvas.width = width;
      this.canvas.height = height;
    }
  }

  /**
   * Where the nodes are now (after a new layout).
   * @param {import('./draw.js').Geometry} g
   */
  place(g) {
    this.geometry = g;
    this.worker?.postMessage({ type: 'place', id: this.id, points: g.points, radius: g.radius });
  }

  /**
   * Draws the messages of one moment (an empty wire twice in a row leaves
   * the layer untouched).
   * @param {import('./flight-dots.js').Flights} flights
   * @param {number} nowMs
   * @param {import('./flight-dots.js').DotStyle} style
   */
  draw(flights, nowMs, style) {
    const any = flightCount(flights) > 0;
    if (!any && !this.inked) return;
    this.inked = any;
    if (this.worker) {
      // A copy (the model may keep its rows for later frames), transferred.
      const rows = flights.rows.slice();
      this.worker.postMessage(
        { type: 'frame', id: this.id, rows, width: flights.width, col: flights.col, nowMs, style },
        [rows.buffer],
      );
      return;
    }
    const ctx = this.ctx;
    if (!ctx || !this.geometry) return;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    ctx.setTransform(this.size.dpr, 0, 0, this.size.dpr, 0, 0);
    drawFlightRows(ctx, this.geometry.points, this.geometry.radius, flights, nowMs, style);
  }

  /**
   * Goes back to drawing on the page, on a fresh canvas (the worker owns
   * the old one's drawing).
   * @private
   */
  onPage() {
    layers.delete(this.id);
    this.worker = null;
    const fresh = this.makeCanvas();
    this.canvas.replaceWith(fresh);
    this.canvas = fresh;
    this.ctx = fresh.getContext('2d');
    this.resize(this.size.width, this.size.height, this.size.dpr);
  }

  /** Lets the worker drop this layer's canvas (the view is gone). */
  dispose() {
    layers.delete(this.id);
    this.worker?.postMessage({ type: 'drop', id: this.id });
  }
}
