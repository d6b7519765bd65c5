// @ts-check
/**
 * The small menu a tap on a node opens on a touch screen: Inspect, Crash
 * (or Recover) and Pause, beside the node. A finger cannot point at a node
 * without pressing it, so a tap that crashed at once (as a mouse click
 * does) left a touch user no way to look at a node first, and crashed
 * nodes by accident while scrolling. A mouse click and the keyboard keep
 * acting at once. The menu only forwards the choice to the page; it
 * decides nothing itself.
 * @module node-menu
 */

import { h } from '../shared/dom.js';

/**
 * What the menu needs from the page.
 * @typedef {object} NodeMenuHooks
 * @property {(id: number) => {alive: boolean, paused: boolean} | undefined} state
 *   the node as it is now
 * @property {(id: number) => void} inspect show the node in the Node tab
 * @property {(id: number) => void} toggle crash it, or recover it when down
 * @property {(id: number) => void} pause pause it (the Faults panel's pause)
 */

/**
 * Whether an activation of a node's button came from a finger (then the
 * menu opens instead of acting at once).
 * @param {Event | undefined} e the button's click
 * @returns {boolean}
 */
export function isTouchTap(e) {
  return typeof PointerEvent !== 'undefined' && e instanceof PointerEvent && e.pointerType === 'touch';
}

export class NodeMenu {
  /**
   * @param {HTMLElement} overlay the layer of node buttons over the cluster
   * @param {NodeMenuHooks} hooks
   */
  constructor(overlay, hooks) {
    this.overlay = overlay;
    this.hooks = hooks;
    /** The node the menu is open for. @type {number | null} */
    this.node = null;
    this.menu = h('div', { class: 'node-menu', role: 'menu', 'data-testid': 'node-menu', hidden: true });
    this.menu.addEventListener('keydown', (e) => this.key(e));
    overlay.append(this.menu);
    /** Closes the menu on a press anywhere else. @private */
    this.outside = (/** @type {PointerEvent} */ e) => {
      if (!(e.target instanceof Node) || !this.menu.contains(e.target)) this.close(false);
    };
  }

  /**
   * Opens the menu beside node `id`'s button.
   * @param {number} id
   */
  open(id) {
    const state = this.hooks.state(id);
    const button = this.overlay.querySelector(`[data-testid="node-${id}"]`);
    if (!state || !(button instanceof HTMLElement)) return;
    this.node = id;
    const name = `n${id}`;
    /** @type {[string, string, () => void][]} */
    const items = [
      ['inspect', `Inspect ${name}`, () => this.hooks.inspect(id)],
      [state.alive ? 'crash' : 'recover', state.alive ? `Crash ${name}` : `Recover ${name}`, () => this.hooks.toggle(id)],
    ];
    if (state.alive && !state.paused) items.push(['pause', `Pause ${name}`, () => this.hooks.pause(id)]);
    items.push(['close', 'Close', () => {}]);
    this.menu.setAttribute('aria-label', `Node ${name}`);
    this.menu.replaceChildren(
      h('p', { class: 'node-menu-title', 'aria-hidden': 'true' }, name),
      ...items.map(([what, label, act]) => {
        const item = h('button', { type: 'button', role: 'menuitem', 'data-testid': `node-menu-${what}` }, label);
        item.addEventListener('click', () => {
          this.close(what === 'close');
          act();
        });
        return item;
      }),
    );
    this.menu.hidden = false;
    this.place(button);
    document.addEventListener('pointerdown', this.outside, true);
    this.items()[0]?.focus();
  }

  /**
   * Closes the menu.
   * @param {boolean} refocus give the focus back to the node's button
   */
  close(refocus) {
    if (this.menu.hidden) return;
    const id = this.node;
    this.menu.hidden = true;
    this.node = null;
    document.removeEventListener('pointerdown', this.outside, true);
    if (refocus && id !== null) {
      const button = this.overlay.querySelector(`[data-testid="node-${id}"]`);
      if (button instanceof HTMLElement) button.focus();
    }
  }

  /** @private @returns {HTMLButtonElement[]} */
  items() {
    return [...this.menu.querySelectorAll('button')];
  }

  /**
   * Puts the menu beside the button (right of it, or left when there is
   * no room), inside the cluster's area.
   * @private
   * @param {HTMLElement} button
   */
  place(button) {
    const bx = button.offsetLeft;
    const by = button.offsetTop;
    const bw = button.offsetWidth;
    const width = this.overlay.clientWidth;
    const height = this.overlay.clientHeight;
    const mw = this.menu.offsetWidth;
    const mh = this.menu.offsetHeight;
    let x = bx + bw + 6;
    if (x + mw > width) x = bx - mw - 6;
    x = Math.max(0, Math.min(x, width - mw));
    const y = Math.max(0, Math.min(by, height - mh));
    this.menu.style.setProperty('left', `${x}px`);
    this.menu.style.setProperty('top', `${y}px`);
  }

  /**
   * Up and Down move between the items, Escape closes; none of these keys
   * also acts on the page (its shortcuts).
   * @private
   * @param {KeyboardEvent} e
   */
  key(e) {
    const items = this.items();
    const at = items.findIndex((b) => b === document.activeElement);
    if (e.key === 'Escape') this.close(true);
    else if (e.key === 'ArrowDown') items[(at + 1) % items.length]?.focus();
    else if (e.key === 'ArrowUp') items[(at - 1 + items.length) % items.length]?.focus();
    else if (e.key === 'Tab') this.close(false);
    else return;
    if (e.key !== 'Tab') e.preventDefault();
    e.stopPropagation();
  }
}
