// @ts-check
/**
 * The cluster view: the canvas (drawn by draw.js) plus one real button
 * over each node, so a node can be crashed or recovered by mouse, touch or
 * keyboard, and screen readers can name it.
 * @module view
 */

import { drawScene, layoutNodes } from './draw.js';

export class ClusterView {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {HTMLElement} overlay element over the canvas holding the buttons
   * @param {(id: number) => void} onNode called when a node is activated
   * @param {(id: number | null) => void} onPoint called when the pointer or
   *   the focus moves onto a node (or off all of them, with null)
   */
  constructor(canvas, overlay, onNode, onPoint) {
    this.canvas = canvas;
    this.overlay = overlay;
    this.onNode = onNode;
    this.onPoint = onPoint;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('this browser cannot draw on a canvas');
    /** @private */
    this.ctx = ctx;
    /** @private @type {HTMLButtonElement[]} */
    this.buttons = [];
    /** @private @type {import('./model.js').Snapshot | null} */
    this.last = null;
    /** @private @type {import('./draw.js').Geometry | null} */
    this.geometry = null;
    /** @private */
    this.layoutKey = '';
    new ResizeObserver(() => {
      this.layoutKey = '';
      if (this.last) this.render(this.last);
    }).observe(canvas);
  }

  /**
   * Draws a snapshot (re-laying out when the size or the nodes changed).
   * @param {import('./model.js').Snapshot} s
   */
  render(s) {
    this.last = s;
    const width = this.canvas.clientWidth;
    const height = this.canvas.clientHeight;
    if (width === 0 || height === 0) return;
    const key = `${width}x${height}:${s.layout}:${s.ring.join(',')}:${s.nodes.length}`;
    if (key !== this.layoutKey || !this.geometry) {
      this.layoutKey = key;
      this.geometry = layoutNodes(width, height, s.nodes.length, s.layout, s.ring);
      this.resizeBacking(width, height);
      this.placeButtons(this.geometry);
    }
    this.ctx.setTransform(window.devicePixelRatio || 1, 0, 0, window.devicePixelRatio || 1, 0, 0);
    drawScene(this.ctx, this.geometry, s);
    this.labelButtons(s);
  }

  /**
   * @private
   * @param {number} width
   * @param {number} height
   */
  resizeBacking(width, height) {
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(width * dpr);
    this.canvas.height = Math.round(height * dpr);
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
      b.addEventListener('click', () => this.onNode(id));
      b.addEventListener('pointerenter', () => this.onPoint(id));
      b.addEventListener('focus', () => this.onPoint(id));
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
   * Accessible names: "n3, leader. Crash n3".
   * @private
   * @param {import('./model.js').Snapshot} s
   */
  labelButtons(s) {
    for (const node of s.nodes) {
      const b = this.buttons[node.id];
      if (!b) continue;
      const state = node.alive ? node.role + (node.paused ? ', paused' : '') : 'crashed';
      const action = node.alive ? `Crash n${node.id} now` : `Recover n${node.id} now`;
      const label = `n${node.id}, ${state}. ${action}`;
      if (b.getAttribute('aria-label') !== label) {
        b.setAttribute('aria-label', label);
        b.title = label;
      }
    }
  }
}
