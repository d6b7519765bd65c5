// @ts-check
/**
 * The space-time (Lamport) diagram on the page: the canvas, its window
 * of time (following now, zoom, "whole run"), the pointer and keys, and
 * the choice each frame between drawing the window in full (scene.js)
 * and the live layer that adds only what settled (live.js).
 *
 * Clicking (or, focused, the arrow keys) moves the simulation to that
 * time through the model's seek; the window follows the current time, or
 * shows the whole run.
 * @module spacetime/view
 */

import { CANVAS, INK } from '../shared/palette.js';
import { ROLE } from '../shared/names.js';
import { TraceStore } from '../shared/trace.js';
import { onScreen } from '../shared/dom.js';
import { LivePlot } from './live.js';
import {
  ArrowBuffer,
  AXIS,
  DEFAULT_SPAN_MAX,
  FOLLOW_AT,
  GUTTER,
  MAX_ARROWS,
  PAD_RIGHT,
  ROW_MAX,
  SPANS,
  buildScene,
  formatSpan,
  lookBack,
  paintScene,
  rowsFor,
  spanFor,
} from './scene.js';

/** @typedef {import('./scene.js').Scene} Scene */
/** @typedef {import('./scene.js').TimeWindow} TimeWindow */
/** @typedef {import('./scene.js').Frame} Frame */

/**
 * The page elements of the diagram.
 * @typedef {object} SpaceTimeElements
 * @property {HTMLCanvasElement} canvas
 * @property {HTMLElement} hover a line that follows the pointer
 * @property {HTMLButtonElement} zoomIn
 * @property {HTMLButtonElement} zoomOut
 * @property {HTMLButtonElement} fit toggles "whole run"
 * @property {HTMLElement} spanOut shows the span
 * @property {HTMLElement} note says when the drawing was thinned
 */

export class SpaceTimeView {
  /**
   * @param {SpaceTimeElements} els
   * @param {TraceStore} store
   * @param {import('../player/model.js').Model} model
   */
  constructor(els, store, model) {
    this.els = els;
    this.store = store;
    this.model = model;
    const ctx = els.canvas.getContext('2d');
    if (!ctx) throw new Error('this browser cannot draw on a canvas');
    /** @private */
    this.ctx = ctx;
    /** @type {TimeWindow} */
    this.win = { t0: 0, span: 100 };
    /** Whether the window shows the whole run. */
    this.fit = false;
    /** @private */
    this.generation = -1;
    /** Whether the window opened before the run's end was known, and
     * nobody has zoomed since (see `follow`). @private */
    this.endless = false;
    /** @private */
    this.drawnKey = '';
    /** @private */
    this.arrows = new ArrowBuffer();
    /** @private @type {Scene | null} */
    this.scene = null;
    /** When the text alternative was last written. @private */
    this.labelAt = -Infinity;
    /** @private @type {ReturnType<typeof setTimeout> | null} */
    this.labelTimer = null;
    /** @private @type {Frame | null} */
    this.frame = null;
    /** Message kinds of the run. @private @type {string[]} */
    this.kinds = [];
    /** When the last drawing finished and what it cost, ms. @private */
    this.drawnAt = -Infinity;
    /** @private */
    this.cost = 0;
    /** A redraw put off while playing. @private @type {ReturnType<typeof setTimeout> | null} */
    this.redraw = null;
    /** Frame-by-frame drawing while playing (see live.js). @private */
    this.live = new LivePlot();
    /** What the last frame showed. @private @type {import('./live.js').Shown | null} */
    this.shown = null;
    /** Whether the live plot drew the last frame. @private */
    this.liveShown = false;
    /** What `scene` was built for, but for the window and time. @private */
    this.sceneKey = '';
    /** Calls of `render`, and a call put off while the live plot's bake
     * is behind now (see live.js). @private */
    this.renders = 0;
    /** @private @type {ReturnType<typeof setTimeout> | null} */
    this.catchUp = null;
    /** Whether the canvas holds a drawing (a live frame may keep it while
     * its layer is baked). @private */
    this.drawnCanvas = false;
    /** Whether the live plot's layer is to be made when idle. @private */
    this.preparing = false;

    els.zoomIn.addEventListener('click', () => this.zoom(0.5));
    els.zoomOut.addEventListener('click', () => this.zoom(2));
    els.fit.addEventListener('click', () => this.setFit(!this.fit));
    els.canvas.addEventListener('click', (e) => this.seekToX(e.offsetX));
    els.canvas.addEventListener('keydown', (e) => this.key(e));
    els.canvas.addEventListener('pointermove', (e) => this.hoverAt(e.offsetX));
    els.canvas.addEventListener('pointerleave', () => {
      els.hover.hidden = true;
    });
    /** The canvas's width in CSS px, as the resize observer last saw it
     * (read there, not in `render`, where it would force a layout of the
     * page every frame). @private */
    this.width = 0;
    new ResizeObserver((entries) => {
      const width = Math.round(entries[entries.length - 1].contentRect.width);
      if (width === this.width) return;
      this.width = width;
      this.drawnKey = '';
      this.render();
    }).observe(els.canvas);
    /** The diagram's box (as tall as every row) and, inside it, the
     * canvas: only as tall as the window, sticking to the window's top
     * while the box scrolls past, drawing the rows in view (`bandTop`, CSS
     * px from the box's top). A 1024-node diagram is 2,000 px tall; a
     * canvas that size was rasterized and copied whole every frame. */
    this.box = /** @type {HTMLElement} */ (els.canvas.parentElement);
    /** @private */
    this.bandTop = 0;
    /** The box's top relative to the window, as last seen. @private */
    this.boxTop = 0;
    /** @private */
    this.viewHeight = window.innerHeight;
    /** Whether any of the diagram is on screen. While playing out of
     * view the diagram is not drawn: its canvas would be copied to the
     * compositor every frame for nothing. The trace is still read (the
     * narration uses it), and scrolling it into view or pausing draws the
     * current moment. Told from the box's place on scrolling and resizing
     * (touching the window's edge is not in view), not by an
     * IntersectionObserver: that one's check ran in every frame that
     * laid out anything, about 1 ms in a busy run's costliest frames
     * (scripts/bench/browser/trace-frame.js). @private */
    this.inView = true;
    const placed = () => {
      const box = this.box.getBoundingClientRect();
      const seen = onScreen(box);
      const moved = box.top !== this.boxTop || window.innerHeight !== this.viewHeight;
      const shown = seen && !this.inView;
      this.inView = seen;
      if (!moved && !shown) return;
      this.boxTop = box.top;
      this.viewHeight = window.innerHeight;
      this.render();
    };
    window.addEventListener('scroll', placed, { passive: true });
    window.addEventListener('resize', placed);
    new ResizeObserver(placed).observe(document.body);
    new ResizeObserver(placed).observe(this.box);
  }

  /**
   * Zooms around now by `factor` (0.5: in).
   * @param {number} factor
   */
  zoom(factor) {
    const now = this.store.nowMs;
    const i = SPANS.indexOf(spanFor(this.win.span));
    const next = SPANS[Math.min(SPANS.length - 1, Math.max(0, i + (factor < 1 ? -1 : 1)))];
    const ratio = next / this.win.span;
    this.fit = false;
    this.endless = false;
    this.win = { t0: Math.max(0, now - (now - this.win.t0) * ratio), span: next };
    this.render();
  }

  /** @param {boolean} on */
  setFit(on) {
    this.fit = on;
    this.endless = false;
    if (!on) this.win = { t0: this.win.t0, span: spanFor(this.win.span) };
    this.render();
  }

  /**
   * The time at x (CSS px from the canvas's left edge), or null outside
   * the plot.
   * @param {number} x
   * @returns {number | null}
   */
  timeAt(x) {
    const f = this.frame;
    if (!f || x < f.left - 4 || x > f.left + f.plotWidth + 4) return null;
    const t = this.win.t0 + ((x - f.left) / f.plotWidth) * this.win.span;
    return Math.max(0, Math.round(t * 1000) / 1000);
  }

  /**
   * @private
   * @param {number} x
   */
  seekToX(x) {
    const t = this.timeAt(x);
    if (t === null) return;
    this.model.setPlaying(false);
    this.model.seek(t);
  }

  /**
   * @private
   * @param {number} x
   */
  hoverAt(x) {
    const t = this.timeAt(x);
    const hover = this.els.hover;
    if (t === null || !this.frame) {
      hover.hidden = true;
      return;
    }
    hover.hidden = false;
    hover.style.setProperty('left', `${x}px`);
    hover.style.setProperty('top', `${this.frame.top}px`);
    hover.style.setProperty('height', `${this.frame.rowHeight * this.frame.nodes}px`);
    hover.dataset.time = `${Number(t.toFixed(3))} ms`;
  }

  /**
   * Arrow keys move in time by a twentieth of the window, Home and End go
   * to its edges, + and - zoom. Handled here so the page's own shortcuts
   * (→ steps) do not also act.
   * @private
   * @param {KeyboardEvent} e
   */
  key(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const now = this.store.nowMs;
    const stepMs = this.win.span / 20;
    /** @type {number | null} */
    let to = null;
    if (e.key === 'ArrowLeft') to = Math.max(0, now - stepMs);
    else if (e.key === 'ArrowRight') to = now + stepMs;
    else if (e.key === 'Home') to = this.win.t0;
    else if (e.key === 'End') to = this.win.t0 + this.win.span;
    else if (e.key === '+' || e.key === '=') this.zoom(0.5);
    else if (e.key === '-' || e.key === '_') this.zoom(2);
    else return;
    e.preventDefault();
    e.stopPropagation();
    if (to !== null) {
      this.model.setPlaying(false);
      this.model.seek(Math.round(to * 1000) / 1000);
    }
  }

  /**
   * The span a new run's window opens with: one that holds the election
   * as `election run` sees it, or the shortest while its end is still
   * being looked for (see Model.endMs; `follow` widens it once found).
   * @private
   */
  firstSpan() {
    const end = this.model.endMs() ?? 0;
    return spanFor(Math.min(Math.max(end, 5), DEFAULT_SPAN_MAX) * 1.1);
  }

  /**
   * Moves the window so it shows now (or the whole run).
   * @private
   */
  follow() {
    const pg = this.model.playground;
    if (this.store.generation !== this.generation) {
      // A new run: a window that holds the election as `election run` sees it.
      this.generation = this.store.generation;
      this.kinds = pg.kinds();
      this.win = { t0: 0, span: this.firstSpan() };
      this.endless = this.model.endMs() === null;
    } else if (this.endless && this.model.endMs() !== null) {
      // The end was found since (a pathological run's takes a few frames):
      // the window takes the span it would have had.
      this.endless = false;
      this.win = { t0: this.win.t0, span: this.firstSpan() };
    }
    const now = pg.now_ms();
    if (this.fit) {
      const end = Math.max(now, this.store.knownMs, 1);
      this.win = { t0: 0, span: end * 1.02 };
      return;
    }
    const { t0, span } = this.win;
    if (now > t0 + span * FOLLOW_AT) this.win = { t0: now - span * FOLLOW_AT, span };
    else if (now < t0) this.win = { t0: Math.max(0, now - span * (1 - FOLLOW_AT)), span };
  }

  /** Draws the current moment (skipped when nothing it shows changed). */
  render() {
    this.renders += 1;
    const canvas = this.els.canvas;
    const width = this.width;
    if (width === 0) return;
    const nodes = this.model.nodeTotal();
    // Short on phones; on big screens rows may be taller, up to about
    // half the window's height.
    const tall = Math.max(300, Math.min(640, window.innerHeight * 0.5));
    const { rowHeight, height } =
      width < 560 ? rowsFor(nodes, 300) : rowsFor(nodes, tall, width >= 640 ? 40 : ROW_MAX);
    const band = Math.min(height, Math.max(200, Math.ceil(this.viewHeight)));
    const bandTop = Math.round(Math.max(0, Math.min(height - band, -this.boxTop)));
    if (this.box.style.getPropertyValue('height') !== `${height}px`) {
      this.box.style.setProperty('height', `${height}px`);
    }
    if (canvas.style.getPropertyValue('height') !== `${band}px`) {
      canvas.style.setProperty('height', `${band}px`);
    }
    this.bandTop = bandTop;
    this.store.sync(this.model, this.win.t0 - lookBack(this.store, this.win.span));
    this.follow();
    const dpr = window.devicePixelRatio || 1;
    const plotWidth = Math.max(10, width - GUTTER - PAD_RIGHT);
    const s = this.store;
    // While playing, frames are drawn frame by frame on whole pixels.
    const live = this.model.moving && !this.fit && s.knownMs <= s.nowMs;
    if (live) this.win = LivePlot.snap(this.win, plotWidth, dpr);
    // The window may have moved: make sure the cache reaches back far enough.
    this.store.sync(this.model, this.win.t0 - lookBack(this.store, this.win.span));
    if (this.model.moving && !this.inView) return;
    const sceneKey = [
      s.generation,
      s.count,
      s.windowTo,
      s.historyTo,
      s.nowMs,
      this.win.t0,
      this.win.span,
      width,
      height,
      nodes,
      window.devicePixelRatio,
      CANVAS,
      INK,
    ].join(':');
    const key = `${sceneKey}:${band}:${bandTop}`;
    const spanText = formatSpan(this.win.span);
    if (this.els.spanOut.textContent !== spanText) this.els.spanOut.textContent = spanText;
    if (this.els.fit.getAttribute('aria-pressed') !== String(this.fit)) {
      this.els.fit.setAttribute('aria-pressed', String(this.fit));
    }
    if (key === this.drawnKey) return;
    /** @type {Frame} */
    const frame = { width, height, left: GUTTER, top: AXIS, plotWidth, rowHeight, nodes };
    if (live) {
      this.renderLive(frame, dpr, key, band);
      return;
    }
    this.live.invalidate();
    this.liveShown = false;
    // While playing, a drawing that costs much is redrawn less often, so
    // the diagram takes at most about a third of the time; the latest
    // moment is always drawn in the end.
    const started = performance.now();
    if (this.model.moving && started - this.drawnAt < this.cost * 3) {
      if (this.redraw === null) {
        this.redraw = setTimeout(() => {
          this.redraw = null;
          this.render();
        }, this.cost * 3);
      }
      return;
    }
    // Only the band moved (scrolling, paused): the same scene painted again.
    const sameScene = this.scene !== null && sceneKey === this.sceneKey;
    this.drawnKey = key;
    this.resizeBacking(width, band, dpr);
    this.drawnCanvas = true;
    this.frame = frame;
    if (sameScene && this.scene) {
      this.ctx.setTransform(dpr, 0, 0, dpr, 0, -bandTop * dpr);
      paintScene(this.ctx, this.scene, this.model.playground.node_count());
      return;
    }
    this.sceneKey = sceneKey;
    const kinds = this.kinds;
    const scene = buildScene(this.store, this.win, frame, kinds, this.arrows);
    this.scene = scene;
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, -bandTop * dpr);
    paintScene(this.ctx, scene, this.model.playground.node_count());
    this.publish(sceneShown(scene));
    // The drawing model tests read (as the cluster's `__drawn`): where
    // each lost message's cross is, and the plot's frame and window.
    /** @type {any} */ (canvas).__drawn = { crosses: scene.crosses, frame, window: scene.window };
    if (!this.model.moving) this.prepareLive();
    // How long building and painting took (a costly drawing is redrawn
    // less often while playing, above).
    this.drawnAt = performance.now();
    this.cost = this.drawnAt - started;
  }

  /**
   * The scene now drawn, built again into its own buffers (the drawing's
   * are reused every frame), for an SVG export; null before the first
   * drawing.
   * @returns {Scene | null}
   */
  exportScene() {
    if (!this.frame) return null;
    return buildScene(this.store, this.win, this.frame, this.kinds);
  }

  /**
   * Draws a frame while playing: the settled part from the live plot's
   * layer, the rest new (see live.js). The window's edge is
   * kept on whole device pixels. What it shows is counted only when the
   * text alternative is due.
   * @private
   * @param {Frame} frame
   * @param {number} dpr
   * @param {string} key
   * @param {number} band height of the canvas, CSS px (see `bandTop`)
   */
  renderLive(frame, dpr, key, band) {
    this.drawnKey = key;
    this.liveShown = true;
    const resized = this.resizeBacking(frame.width, band, dpr);
    this.frame = frame;
    const s = this.store;
    const layersKey = [s.generation, CANVAS, INK, ...this.kinds].join(':');
    const due = performance.now() >= this.labelAt + 400 && this.labelTimer === null;
    const shown = this.live.draw(
      this.ctx,
      s,
      this.win,
      frame,
      this.kinds,
      this.model.playground.node_count(),
      dpr,
      layersKey,
      due,
      Math.round(this.bandTop * dpr),
      !resized && this.drawnCanvas,
    );
    this.drawnCanvas = true;
    if (this.live.behind) {
      // The layer's bake goes on in the next frame (the canvas keeps its
      // picture meanwhile), or after a while if no frame comes.
      this.drawnKey = '';
      const renders = this.renders;
      if (this.catchUp === null) {
        this.catchUp = setTimeout(() => {
          this.catchUp = null;
          if (this.renders === renders && this.live.behind) this.render();
        }, 50);
      }
    }
    if (shown) this.publish(shown);
    else if (this.labelTimer === null) {
      // Counted later, as the text alternative is (the last frame counts).
      this.labelTimer = setTimeout(() => {
        this.labelTimer = null;
        if (this.liveShown && this.frame) this.publish(this.live.shown(this.store, this.win, this.frame));
      }, Math.max(0, this.labelAt + 400 - performance.now()));
    }
    this.drawnAt = performance.now();
    this.cost = 0;
  }

  /**
   * Has the live plot's layer made at the size playing will need, when
   * the page is next idle (see `LivePlot.prepare`).
   * @private
   */
  prepareLive() {
    if (this.preparing) return;
    this.preparing = true;
    // Within 200 ms even if the page is never idle that long.
    const idle = window.requestIdleCallback
      ? (/** @type {() => void} */ fn) => window.requestIdleCallback(fn, { timeout: 200 })
      : (/** @type {() => void} */ fn) => setTimeout(fn, 200);
    idle(() => {
      this.preparing = false;
      // The frame drawn last (a scroll may have drawn another since).
      if (!this.model.moving && this.frame) this.live.prepare(this.frame, window.devicePixelRatio || 1);
    });
  }

  /**
   * Sizes the canvas's backing store.
   * @private
   * @param {number} width CSS px
   * @param {number} height CSS px
   * @param {number} dpr
   * @returns {boolean} whether it changed (which clears the canvas)
   */
  resizeBacking(width, height, dpr) {
    const canvas = this.els.canvas;
    const backW = Math.round(width * dpr);
    const backH = Math.round(height * dpr);
    if (canvas.width === backW && canvas.height === backH) return false;
    canvas.width = backW;
    canvas.height = backH;
    return true;
  }

  /**
   * What was drawn, for tests and assistive technology: data attributes
   * on the canvas and its text alternative (throttled).
   * @private
   * @param {import('./live.js').Shown} shown
   */
  publish(shown) {
    this.shown = shown;
    const c = this.els.canvas;
    const f = shown.frame;
    c.dataset.arrows = String(shown.solid);
    c.dataset.arrowsDrawn = String(shown.drawn);
    c.dataset.lost = String(shown.lost);
    c.dataset.roles = String(shown.roles);
    c.dataset.windowStart = String(shown.window.t0);
    c.dataset.windowEnd = String(shown.window.t0 + shown.window.span);
    c.dataset.plotLeft = String(f.left);
    c.dataset.plotWidth = String(f.plotWidth);
    this.els.note.textContent = shown.thinned || this.store.clipped
      ? 'Busy run: some messages and marks in this window are left out; zoom in to see them all.'
      : '';
    // The text alternative changes at most a few times a second; the
    // last change is always written (after a pause, too).
    const wait = this.labelAt + 400 - performance.now();
    if (wait > 0) {
      if (this.labelTimer === null) {
        this.labelTimer = setTimeout(() => {
          this.labelTimer = null;
          if (this.shown) this.publish(this.shown);
        }, wait);
      }
      return;
    }
    this.labelAt = performance.now();
    const label =
      `Space-time diagram of ${f.nodes} nodes from ${formatSpan(shown.window.t0)} to ` +
      `${formatSpan(shown.window.t0 + shown.window.span)}, now at ${formatSpan(this.store.nowMs)}: ` +
      `${shown.solid} messages (${shown.lost} lost), ${shown.leaders} became leader, ${shown.crashes} crashes, ` +
      `${shown.violations} violations. Click or use the arrow keys to move in time.`;
    if (c.getAttribute('aria-label') !== label) c.setAttribute('aria-label', label);
  }
}

/**
 * What a full drawing shows, counted from its scene.
 * @param {Scene} scene
 * @returns {import('./live.js').Shown}
 */
function sceneShown(scene) {
  let solid = 0;
  for (let i = 0; i < scene.arrowCount; i++) if ((scene.arrowFlags[i] & 6) === 0) solid += 1;
  const past = scene.roles.filter((m) => !m.future);
  return {
    frame: scene.frame,
    window: scene.window,
    solid,
    drawn: Math.ceil(scene.arrowCount / Math.max(1, Math.ceil(scene.arrowCount / MAX_ARROWS))),
    lost: scene.lost,
    roles: past.length,
    leaders: past.filter((m) => m.role === ROLE.leader).length,
    crashes: scene.crashes.filter((m) => !m.up && !m.future).length,
    violations: scene.rules.filter((r) => r.kind === 'violation' && !r.future).length,
    thinned: scene.thinned,
  };
}

/**
 * The legend of the diagram's marks, drawn with the same colours.
 * @param {HTMLElement} list `<ul>`
 */
export function buildLegend(list) {
  /** @type {[string, string][]} */
  const items = [
    ['line-leader', 'leading (thick orange)'],
    ['line-candidate', 'candidate (blue)'],
    ['line-crashed', 'down (dashed grey)'],
    ['line-paused', 'paused (dotted)'],
    ['line-service', 'service (storage or coordination), not a participant (purple)'],
    ['dot', 'role change (dot in the new role’s colour)'],
    ['diamond', 'starts an election'],
    ['tick', 'timer fires'],
    ['square', 'crash ■ / recovery □'],
    ['cross', 'message lost ✕'],
    ['rule', 'violation (red dashed line)'],
  ];
  list.replaceChildren(
    ...items.map(([glyph, text]) => {
      const li = document.createElement('li');
      const g = document.createElement('span');
      g.className = `st-glyph st-${glyph}`;
      g.setAttribute('aria-hidden', 'true');
      const t = document.createElement('span');
      t.textContent = text;
      li.append(g, t);
      return li;
    }),
  );
}
