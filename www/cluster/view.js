// @ts-check
/**
 * The cluster view: the canvas (drawn by draw.js) plus one real button
 * over each node, so a node can be crashed or recovered by mouse, touch or
 * keyboard, and screen readers can name it. Shift-click picks a node for
 * one side of a partition instead (it does not crash it).
 *
 * ## The cluster drawing
 *
 * **The cluster drawing** (`cluster/`). Two layers: the still one
 * (partition groups, the ring, cut links, nodes with role, crown, badges
 * and labels; drawn again only when one of them changes) and the moving
 * one, drawn every frame: each node's pending timer as a countdown arc on
 * its rim (`timer-arcs.js`, from the node rows' `timer_class`,
 * `timer_set_ms`, `timer_fire_ms`: the arc covers `(fire - now) / (fire -
 * set)` of the rim from the top, its dash says the class, nothing when
 * `-1`) and each message on the wire as a short arrow in its kind's colour
 * (`flight-dots.js`), at `(now - sent) / (arrive - sent)` of its path from
 * the sender's edge to the receiver's, a little right of the centre line
 * so the two directions of a pair do not cover each other; at the moment
 * of sending an arrow's tail is at the sender's edge, so a broadcast fans
 * out. Arrows are batched into paths of 32 per colour (one fill and one
 * outline each; from 1,000 on the wire as slim darts of four corners and
 * from 3,000 only the heads, both without outline or mark: the software
 * rasterizer's cost goes with the corners and outlines, and the worker
 * shares the machine's cores with the page; from 500 on the wire in all
 * the worker's views together, the moving layers are drawn every other
 * frame, and a view's not at all while playing out of view);
 * a lost one is drawn alone, fading, crossed out where it is on its path.
 * Both layers belong to the cluster worker where the browser allows
 * (`layers.js`); the worker is posted the flight rows every frame and the
 * pending timers (four numbers per node that has one) only when they
 * change. It draws what arrived part way into the frame interval (0.55 of
 * it, `MID_FRAME` in `worker.js`, the interval measured from its animation
 * frames), after the page's own frame and simulation task rather than at
 * the same vsync; a drawing for a test holding the page's clock is done at
 * once. Sizes come from the canvas's CSS size and the node count
 * (`layoutNodes`): the node radius is 12% of half the shorter side, at
 * most 64 px, less where neighbours on the circle would touch (at least
 * 5); the labels are 0.46 of the radius (11 to 24 px) and shrink, down to
 * 9 px and then to the role alone, to fit between neighbours; arrows and
 * arcs follow the radius; the node buttons are the nodes' size, so
 * clicking stays in step in every mode (single view, compare, embed, a
 * full-screen canvas). A service node is a rounded square, an observer a
 * hexagon (`nodeShape` in `node-draw.js`), every other node a disc. A node's
 * words (its id, role, term and whom it follows) are on a third canvas
 * over the arrows, each with a halo (`node-draw.js`), so an arrow passes
 * under a label and never hides it. Colours
 * (`shared/palette.js`): roles take orange, sky blue, bluish green and
 * reddish purple, and observers a pale bluish green; kinds take violet,
 * vermillion, yellow and the theme's ink, none of a role's hue, and from
 * the fifth kind on go round again with a dot, then a bar, at the arrow's
 * tail (dashed, then dotted lines in the space-time diagram); timer arcs
 * are the nodes' ink with a dash per class. The legend under the cluster
 * (`legend.js`) lists the run's kinds (`kinds()`) with their arrows and
 * the timer classes pending at the moment shown with their arcs and the
 * wasm's labels (`timer_classes()`); legend swatches are small canvases
 * drawn by the same arrow and arc code. Compare mode puts one such legend
 * under each view (`legendLists()` makes the two lists; each algorithm has
 * its own kinds), and embeds do with `controls=…,legend`. The PNG export
 * (`ClusterView.composite`, called by `panels/export.js`) draws both layers
 * again at the screen's
 * pixel ratio or 2x, whichever is larger. While a test holds the clock,
 * the cluster canvas carries its drawing model as `__drawn` (arrows by
 * kind name, arcs by class name and on which nodes, the radius and label
 * size, where the arrows and crosses are; the worker reports it only
 * then), how the still layer drew each node as `__drawnNodes` (id, role,
 * shape; `tests/browser/observers.test.js`), and the space-time canvas the
 * crosses of its lost messages (`tests/browser/drawing.test.js`). A lost
 * message's cross in the space-time diagram is on its own line at the moment
 * the core lost it,
 * just short of the receiver's line: the core drops a message when it
 * would have arrived (random loss, a cut link, a crashed receiver), and
 * the trace has no place nearer than that.
 * @module view
 */

import { reducedMotion } from '../shared/appearance.js';
import { ClusterLayers } from './layers.js';
import { drawLabels, drawMoving, drawStill, layoutNodes, stillKey } from './draw.js';
import { CANVAS, INK, PAPER } from '../shared/palette.js';
import { onScreen } from '../shared/dom.js';

/** A still layer drawn faster than this (ms) is drawn whenever it changes. */
const STILL_CHEAP_MS = 2;
/** A costlier one waits this many times its cost before it is drawn again. */
const STILL_SPACING = 10;
/** And at least this long (ms): frames are slow when it is costly. */
const STILL_MIN_GAP_MS = 250;
/** While playing, how often the view checks whether its canvas is on
 * screen besides when the page scrolls or resizes, ms. */
const IN_VIEW_CHECK_MS = 250;
/** Buttons whose names a frame checks at most while playing: all at once
 * up to this many nodes; 1,024 nodes changing role are renamed over
 * sixteen frames, about a quarter of a second (a frame renaming 256 of
 * them took 3 to 7 ms in the 1024-node burst, all 1,024 about 5 to 20). */
const LABEL_CHUNK = 64;

/**
 * Device px per CSS px of the PNG export: the screen's, or 2 when that is
 * less.
 * @param {number} dpr the screen's
 * @returns {number}
 */
export function exportScale(dpr) {
  return Math.max(2, dpr);
}

export class ClusterView {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {HTMLElement} overlay element over the canvas holding the buttons
   * @param {(id: number, e?: MouseEvent) => void} onNode called when a node
   *   is activated, with the click (a touch tap opens a menu instead)
   * @param {(id: number | null, deliberate: boolean) => void} onPoint called
   *   when the pointer or the focus moves onto a node (or off all of them,
   *   with null); `deliberate` when the focus or a moving pointer put it
   *   there, not the page scrolling under a resting pointer
   * @param {(id: number) => void} onPick called when a node is shift-clicked
   */
  constructor(canvas, overlay, onNode, onPoint, onPick) {
    this.canvas = canvas;
    this.overlay = overlay;
    this.onNode = onNode;
    this.onPoint = onPoint;
    this.onPick = onPick;
    /** Nodes picked for one side of a partition not made yet. @type {ReadonlySet<number>} */
    this.picked = new Set();
    /** The node a moving pointer is on. @private @type {number | null} */
    this.aimed = null;
    /** @private @type {HTMLButtonElement[]} */
    this.buttons = [];
    /** @private @type {import('../player/model.js').Snapshot | null} */
    this.last = null;
    /** @private @type {import('./draw.js').Geometry | null} */
    this.geometry = null;
    /** @private */
    this.layoutKey = '';
    /** The canvas's size in CSS px as the resize observer last saw it
     * (null before it first reports): read there, where the layout is
     * fresh, not in `render`, where reading it after another view's or
     * panel's writes forced a layout (compare mode's four views did so
     * four times a frame). @private @type {{width: number, height: number} | null} */
    this.size = null;
    // Drawn again when the canvas's size really changed: the observer
    // also reports the size it starts with, and laying out 1,024 nodes
    // and their buttons again for it cost the page's first frame about
    // 20 ms.
    const resized = new ResizeObserver(() => {
      const width = this.canvas.clientWidth;
      const height = this.canvas.clientHeight;
      this.size = { width, height };
      if (!this.last || this.layoutKey.startsWith(`${width}x${height}:`)) return;
      this.layoutKey = '';
      this.render(this.last);
    });
    /** The still layer (nodes, groups, cuts: drawn again only when they
     * change) on this canvas, and the messages on the wire, drawn every
     * frame, on their own transparent canvas laid over it: a frame then
     * neither copies nor draws the still part. Both are drawn in a worker
     * where the browser allows (www/cluster/layers.js). @private */
    this.layers = new ClusterLayers(
      canvas,
      (ms) => this.drewStill(ms),
      (fresh) => {
        resized.disconnect();
        this.canvas = fresh;
        this.size = null;
        resized.observe(fresh);
        this.layoutKey = '';
        if (this.last) this.render(this.last);
      },
    );
    /** What the still layer shows. @private */
    this.stillDrawn = '';
    /** The still key the buttons' names were written for. @private */
    this.labelled = '';
    /** The moment whose names are being written, the next node to name
     * and how many are left (see `labelSome`). @private @type {import('../player/model.js').Snapshot | null} */
    this.labelSource = null;
    /** @private */
    this.labelAt = 0;
    /** @private */
    this.labelLeft = 0;
    /** @private */
    this.labelQueued = false;
    /** When it was last drawn and what that cost, ms. @private */
    this.stillAt = -Infinity;
    /** @private */
    this.stillCost = 0;
    /** A drawing of it put off (see `drawStillLayer`). @private @type {ReturnType<typeof setTimeout> | null} */
    this.stillTimer = null;
    resized.observe(canvas);
    /** Whether any of the canvas is on screen. While playing out of view
     * (the page scrolled to the space-time diagram, a compare view below
     * the window, the single view hidden behind compare mode) the
     * messages and timer arcs are not drawn: the worker would rasterize
     * thousands of darts a frame for nobody, on the core the page's main
     * thread needs. Told on scrolling and resizing, and every
     * IN_VIEW_CHECK_MS while playing (a layout change can move it too);
     * coming into view draws the latest moment. @private */
    this.inView = true;
    /** @private */
    this.inViewAt = -Infinity;
    // A view taken off the page (compare mode makes new ones each time
    // it opens) lets go of the window's events at the next one.
    const placed = () => {
      if (this.canvas.isConnected) {
        this.checkInView();
        return;
      }
      window.removeEventListener('scroll', placed);
      window.removeEventListener('resize', placed);
    };
    window.addEventListener('scroll', placed, { passive: true });
    window.addEventListener('resize', placed);
  }

  /**
   * Updates `inView` from the canvas's box, and draws the latest moment
   * when the canvas came into view.
   * @private
   */
  checkInView() {
    this.inViewAt = performance.now();
    const seen = onScreen(this.canvas.getBoundingClientRect());
    const back = seen && !this.inView;
    this.inView = seen;
    if (back && this.last) this.render(this.last);
  }

  /**
   * Tells the canvas's box whether nodes sit in the middle of the circle
   * (an algorithm's service: `centre-taken`), so that what the page lays
   * over the middle (the opening prompt, styles/player.css) goes
   * elsewhere instead of over them.
   * @private
   * @param {boolean} taken
   */
  markCentre(taken) {
    const box = this.canvas.parentElement;
    if (!box) return;
    box.classList.toggle('centre-taken', taken);
  }

  /**
   * Draws a snapshot (re-laying out when the size or the nodes changed).
   * @param {import('../player/model.js').Snapshot} s
   */
  render(s) {
    this.last = s;
    const { width, height } = this.size ?? { width: this.canvas.clientWidth, height: this.canvas.clientHeight };
    if (width === 0 || height === 0) return;
    const n = s.nodes.length;
    const key = `${width}x${height}:${s.layout}:${s.ring.join(',')}:${n}:${s.participants}`;
    if (key !== this.layoutKey || !this.geometry) {
      this.layoutKey = key;
      this.geometry = layoutNodes(width, height, n, s.layout, s.ring, s.participants);
      this.resizeBacking(width, height);
      this.layers.place(this.geometry);
      this.placeButtons(this.geometry);
      this.markCentre(n > s.participants);
    }
    const dpr = window.devicePixelRatio || 1;
    const marks = { picked: this.picked };
    const still = `${key}:${dpr}:${INK}:${CANVAS}:${PAPER}:${stillKey(s, marks)}`;
    if (still !== this.stillDrawn) this.drawStillLayer(s, still, marks);
    if (s.playing && performance.now() - this.inViewAt > IN_VIEW_CHECK_MS) this.checkInView();
    if (this.inView || !s.playing) {
      this.layers.drawDots(s.flights, s.nowMs, { still: reducedMotion, ink: INK }, s.nodeRows, s.kinds);
    }
    // The names say only what the still layer shows: rewritten when it is
    // drawn (so a costly one's, 1024 nodes in a burst, are put off with it).
    if (this.stillDrawn !== this.labelled) {
      this.labelled = this.stillDrawn;
      this.labelSource = s;
      this.labelLeft = s.nodes.length;
    }
    // While paused (a click) every name is written at once.
    this.labelSome(s.playing ? LABEL_CHUNK : Infinity);
  }

  /**
   * Draws the nodes, groups and cuts. One that costs much (hundreds of
   * nodes changing role every frame) is drawn again only after ten times
   * its cost (its rasterizing, after the frame, costs about as much
   * again) and at least a quarter of a second: a frame that comes sooner
   * keeps the older drawing (and the buttons their names), and a timer
   * draws the latest one (so a paused run always shows its moment).
   * @private
   * @param {import('../player/model.js').Snapshot} s
   * @param {string} still what the layer will show
   * @param {import('./draw.js').Marks} marks
   */
  drawStillLayer(s, still, marks) {
    const started = performance.now();
    const wait = this.stillAt + Math.max(STILL_MIN_GAP_MS, this.stillCost * STILL_SPACING) - started;
    // Only while playing (a change made while paused, a click, is drawn
    // and named at once), and never when the layer was just cleared (a
    // resize): it would show nothing.
    if (s.playing && this.stillCost > STILL_CHEAP_MS && wait > 0 && this.stillDrawn !== '') {
      if (this.stillTimer === null) {
        this.stillTimer = setTimeout(() => {
          this.stillTimer = null;
          if (this.last) this.render(this.last);
        }, wait);
      }
      return;
    }
    if (!this.geometry) return;
    this.stillDrawn = still;
    this.layers.drawStill(s, marks);
    // What it cost the main thread (drawing it, or handing it to the
    // worker, which draws only the latest of what it was handed).
    this.stillAt = performance.now();
    this.stillCost = this.stillAt - started;
    if (!this.layers.offThread) this.drewStill(this.stillCost);
  }

  /**
   * What drawing the still layer cost where it was drawn, ms, shown for
   * benchmarks in `data-still-ms` (as the space-time diagram's
   * `data-render-ms`).
   * @private
   * @param {number} ms
   */
  drewStill(ms) {
    this.canvas.dataset.stillMs = ms.toFixed(2);
  }

  /**
   * The whole picture on one canvas, for the PNG export: the latest
   * moment drawn here again (the layers may belong to the worker, whose
   * pixels the page cannot read), at the screen's pixel ratio or twice
   * the CSS size, whichever is larger (a slide or a print stays sharp);
   * transparent, as the canvases are.
   * @returns {HTMLCanvasElement}
   */
  composite() {
    const out = document.createElement('canvas');
    const scale = exportScale(window.devicePixelRatio || 1);
    const g = this.geometry;
    out.width = Math.round((g?.width ?? this.canvas.clientWidth) * scale);
    out.height = Math.round((g?.height ?? this.canvas.clientHeight) * scale);
    const ctx = /** @type {CanvasRenderingContext2D} */ (out.getContext('2d'));
    if (this.last && g) {
      ctx.setTransform(scale, 0, 0, scale, 0, 0);
      drawStill(ctx, g, this.last, { picked: this.picked });
      drawMoving(ctx, g, this.last);
      drawLabels(ctx, g, this.last);
    }
    return out;
  }

  /**
   * Shows which nodes are picked for one side of a partition.
   * @param {ReadonlySet<number>} picked
   */
  setPicked(picked) {
    this.picked = picked;
    if (this.last) this.render(this.last);
  }

  /**
   * @private
   * @param {number} width
   * @param {number} height
   */
  resizeBacking(width, height) {
    const dpr = window.devicePixelRatio || 1;
    this.layers.resize(Math.round(width * dpr), Math.round(height * dpr), dpr);
    this.stillDrawn = '';
  }

  /**
   * One transparent round button over each node.
   * @private
   * @param {import('./draw.js').Geometry} g
   */
  placeButtons(g) {
    const n = g.at.length;
    while (this.buttons.length > n) this.buttons.pop()?.remove();
    while (this.buttons.length < n) {
      const id = this.buttons.length;
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'node-button';
      b.dataset.testid = `node-${id}`;
      b.addEventListener('click', (e) => (e.shiftKey ? this.onPick(id) : this.onNode(id, e)));
      b.addEventListener('pointerenter', () => {
        // The tooltip is written when pointed at, not with every name:
        // a changed `title` makes the browser recompute the button's
        // style (the user agent's sheet has `[title]` rules), and with
        // 1,024 buttons renamed while playing that repainted them all.
        b.title = b.getAttribute('aria-label') ?? '';
        this.onPoint(id, false);
      });
      b.addEventListener('pointermove', (e) => {
        if ((e.movementX !== 0 || e.movementY !== 0) && this.aimed !== id) {
          this.aimed = id;
          this.onPoint(id, true);
        }
      });
      b.addEventListener('pointerleave', () => {
        if (this.aimed === id) this.aimed = null;
      });
      b.addEventListener('focus', () => this.onPoint(id, true));
      this.overlay.append(b);
      this.buttons.push(b);
    }
    const size = Math.max(24, g.radius * 2);
    this.buttons.forEach((b, id) => {
      const p = g.at[id];
      b.style.setProperty('left', `${p.x - size / 2}px`);
      b.style.setProperty('top', `${p.y - size / 2}px`);
      b.style.setProperty('width', `${size}px`);
      b.style.setProperty('height', `${size}px`);
    });
  }

  /**
   * Writes the names of the next `chunk` buttons (going round the nodes),
   * and asks the next animation frame to go on while some are left, so
   * the names always catch up.
   * @private
   * @param {number} [chunk]
   */
  labelSome(chunk = LABEL_CHUNK) {
    const s = this.labelSource;
    if (!s || this.labelLeft === 0) return;
    const n = s.nodes.length;
    const count = Math.min(this.labelLeft, chunk);
    for (let k = 0; k < count; k++) {
      this.labelAt %= n;
      this.labelButton(s.nodes[this.labelAt]);
      this.labelAt += 1;
    }
    this.labelLeft -= count;
    if (this.labelLeft > 0 && !this.labelQueued) {
      this.labelQueued = true;
      requestAnimationFrame(() => {
        this.labelQueued = false;
        this.labelSome();
      });
    }
  }

  /**
   * Accessible name of one node's button: "n3, leader, paused. Crash n3 now".
   * @private
   * @param {import('../player/model.js').NodeState} node
   */
  labelButton(node) {
    const b = this.buttons[node.id];
    if (!b) return;
    b.classList.toggle('service', node.role === 'service');
    /** @type {string[]} */
    const notes = [node.role];
    if (node.paused) notes.push('paused');
    if (node.slowMs > 0) notes.push(`slow +${node.slowMs} ms`);
    if (this.picked.has(node.id)) notes.push('picked for side A');
    const state = node.alive ? notes.join(', ') : 'crashed';
    const action = node.alive ? `Crash n${node.id} now` : `Recover n${node.id} now`;
    const label = `n${node.id}, ${state}. ${action}`;
    if (b.getAttribute('aria-label') !== label) b.setAttribute('aria-label', label);
  }
}
