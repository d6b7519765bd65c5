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
 * same way. Entered by a click or a key, it also asks the browser for
 * its full screen (a projector then shows no browser bars); leaving the
 * full screen (the browser's own Esc) leaves presentation mode too. From
 * the address there is no click, so `present=1` fills the window only.
 *
 * ## Presentation mode
 *
 * **Presentation mode** (`player/present.js`: the Present buttons, `P`,
 * `present=1`; Escape leaves, each change written into the address with
 * `writePresentAddress`) is a `presenting` class on `<body>`;
 * `styles/player.css` lays the stage (or compare mode's views) over the
 * whole window as a grid whose canvas row takes what the transport bar,
 * time line, status line and narration leave. The cluster views follow
 * their canvas's size through their ResizeObserver (`cluster/view.js`).
 * Entered by a click or `P` (a user's gesture) it also asks for the
 * browser's full screen (`requestFullscreen`, refused quietly where not
 * allowed); a `fullscreenchange` that ends the full screen this page asked
 * for (the browser's own Esc) leaves presentation mode too.
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
    /** Whether this page asked for the full screen (and so leaves
     * presentation mode with it). @private */
    this.fullScreen = false;
    document.addEventListener('fullscreenchange', () => {
      if (document.fullscreenElement || !this.fullScreen) return;
      this.fullScreen = false;
      this.set(false);
    });
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

  /** Enters presentation mode, or leaves it (a click or a key: with the
   * browser's full screen where it allows it). */
  toggle() {
    const on = !this.on;
    this.set(on);
    if (on) this.enterFullScreen();
    else this.leaveFullScreen();
  }

  /** @private */
  enterFullScreen() {
    const root = document.documentElement;
    if (!document.fullscreenEnabled || document.fullscreenElement || typeof root.requestFullscreen !== 'function') return;
    root.requestFullscreen().then(
      () => {
        this.fullScreen = true;
      },
      // Refused (an embed without allowfullscreen, a browser setting):
      // presentation mode fills the window all the same.
      () => {},
    );
  }

  /** @private */
  leaveFullScreen() {
    if (!this.fullScreen) return;
    this.fullScreen = false;
    if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
  }

  /**
   * Leaves presentation mode (Escape).
   * @returns {boolean} false when it was not on (the key is not used)
   */
  leave() {
    if (!this.on) return false;
    this.set(false);
    this.leaveFullScreen();
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
