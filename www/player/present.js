// @ts-check
/**
 * Presentation mode (`present=1`, the Present button, key P; Escape
 * leaves): the cluster, or in compare mode the compare views, fill the
 * window with only the transport bar, the time line, the status line and
 * a guided scenario's narration around them, for a projector. It is a
 * class on `<body>` (`presenting`, laid out by styles/player.css); the
 * views follow their canvas's new size on their own (a ResizeObserver in
 * cluster/view.js). Entering or leaving puts `present=1` into the
 * address, or takes it out, so a reload or a copied address opens the
 * same way.
 * @module player/present
 */

import { writePresentAddress } from '../shared/url.js';
import { setText } from '../shared/dom.js';

export class Presentation {
  /**
   * @param {HTMLButtonElement[]} buttons the Present buttons (the single
   *   view's and compare mode's)
   */
  constructor(buttons) {
    /** @private */
    this.buttons = buttons;
    for (const b of buttons) b.addEventListener('click', () => this.toggle());
    this.show(false);
  }

  /** Whether the page presents now. */
  get on() {
    return document.body.classList.contains('presenting');
  }

  /**
   * Enters or leaves presentation mode.
   * @param {boolean} on
   * @param {boolean} [write] put it into the address (not when the
   *   address asked for it)
   */
  set(on, write = true) {
    if (on !== this.on) this.show(on);
    if (write) writePresentAddress(on);
  }

  /** Enters presentation mode, or leaves it. */
  toggle() {
    this.set(!this.on);
  }

  /**
   * Leaves presentation mode (Escape).
   * @returns {boolean} false when it was not on (the key is not used)
   */
  leave() {
    if (!this.on) return false;
    this.set(false);
    return true;
  }

  /**
   * @private
   * @param {boolean} on
   */
  show(on) {
    document.body.classList.toggle('presenting', on);
    for (const b of this.buttons) {
      b.setAttribute('aria-pressed', String(on));
      setText(b, on ? 'Leave presentation' : 'Present');
      b.title = on ? 'Back to the full page (Esc)' : 'The cluster fills the screen (P; Esc leaves)';
    }
    // The page's top, not wherever it was scrolled to, is what fills the
    // window.
    if (on) window.scrollTo(0, 0);
  }
}
