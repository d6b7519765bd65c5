// @ts-check
/**
 * Live captions: one plain sentence on the drawing, the core's caption in
 * force at the time shown (ask/story.js), `[data-testid=caption]`. The
 * single view, each compare view and each embed has one, right under its
 * canvas; presentation mode sets it in large type (ask/ask.css).
 *
 * Screen readers hear it from a separate polite live region, at a sane
 * rate: at most one announcement every `SAY_GAP_MS` of real time, always
 * the latest caption (a run fast-forwarding through ten captions says
 * the one it stands at, once), and nothing while it stays the same. The
 * visible caption itself is not live (it may change every frame).
 * @module ask/captions
 */

import { captionIndex, storyOf } from './story.js';
import { h, setText } from '../shared/dom.js';

/** Least real time between two spoken captions, ms. */
export const SAY_GAP_MS = 4000;

/**
 * The first sentence of a caption (up to a full stop followed by a space;
 * "57.3 ms" is not an end).
 * @param {string} text
 * @returns {string}
 */
export function firstSentence(text) {
  const end = text.search(/[.!?]\s/);
  return end < 0 ? text : text.slice(0, end + 1);
}

export class CaptionView {
  /**
   * Makes the caption (and its live region) and puts them after `after`
   * (the box around the canvas) or at the end of `into`; a caption
   * already in `into` (index.html's) is taken as it is.
   * @param {{after?: Element, into?: Element, className?: string}} where
   */
  constructor(where) {
    // The page's is in index.html's markup (the first picture, first/picture.js,
    // may have written the caption at time 0 in it already).
    const made = where.into?.querySelector(':scope > [data-testid=caption]');
    /** The sentence on the drawing. */
    this.element = made instanceof HTMLElement ? made : h('p', { class: `story-caption ${where.className ?? ''}`.trim(), 'data-testid': 'caption' });
    if (!made) this.element.hidden = true;
    /** What screen readers hear (visually hidden). */
    this.live = h('p', { class: 'visually-hidden', 'aria-live': 'polite', 'data-testid': 'caption-live' });
    if (made) made.after(this.live);
    else if (where.after) where.after.after(this.element, this.live);
    else where.into?.append(this.element, this.live);
    /** @private */
    this.index = -2;
    /** @private */
    this.source = /** @type {object | null} */ (null);
    /** @private */
    this.held = false;
    /** @private */
    this.said = '';
    /** @private */
    this.saidAt = -Infinity;
    /** @private @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
  }

  /**
   * Shows the caption of `pg` at `nowMs` (cheap when it is the same).
   * @param {import('./story.js').StorySource} pg
   * @param {number} nowMs
   * @param {boolean} [holdBack] only what has happened: the first
   *   sentence (while a question waits for a guess, the sentence about
   *   what comes next would give the answer away)
   */
  render(pg, nowMs, holdBack = false) {
    let story;
    try {
      story = storyOf(pg);
    } catch {
      // A run the story cannot tell (the core said why elsewhere): no caption.
      this.element.hidden = true;
      return;
    }
    const i = captionIndex(story.captions, nowMs);
    if (i === this.index && pg === this.source && holdBack === this.held) return;
    this.index = i;
    this.source = pg;
    this.held = holdBack;
    const full = i >= 0 ? story.captions[i].text : '';
    const text = holdBack ? firstSentence(full) : full;
    setText(this.element, text);
    this.element.hidden = text === '';
    this.element.dataset.atMs = i >= 0 ? String(story.captions[i].at_ms) : '';
    this.saySoon();
  }

  /** @private */
  saySoon() {
    if (this.timer !== null) return;
    const wait = Math.max(0, this.saidAt + SAY_GAP_MS - performance.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      const text = this.element.hidden ? '' : (this.element.textContent ?? '');
      if (text === this.said) return;
      this.said = text;
      this.saidAt = performance.now();
      this.live.textContent = text;
    }, wait);
  }

  /** Takes the caption out of the page. */
  remove() {
    if (this.timer !== null) clearTimeout(this.timer);
    this.element.remove();
    this.live.remove();
  }
}
