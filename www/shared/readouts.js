// @ts-check
/**
 * When the page's text readouts are written while a run plays: every
 * group together, at most every `everyMs`. When not playing, every group
 * is written at every change.
 *
 * All groups in the same frame, so the page never shows two moments at
 * once: groups that took turns (a third of `everyMs` apart, to spread the
 * browser's style, layout and paint of a rewrite over frames) showed
 * "Time 15.649 ms" in the bar beside "Simulated time 15.377 ms" in the
 * Now panel, and in compare mode a table of one moment under the time of
 * another (issue 29). The cost is one heavier frame every `everyMs`
 * instead of three lighter ones (in the 256-node Raft run the frame that
 * rewrote every readout was the slowest frame in six).
 * @module readouts
 */

/** Least time between two writes of the text readouts while playing, ms
 * (the single view, compare mode and the embeds alike). */
export const READOUT_MS = 100;

export class Readouts {
  /**
   * @param {number} groups how many groups of readouts (each caller's
   *   own division; they are written together)
   * @param {number} everyMs least time between two writes while playing
   */
  constructor(groups, everyMs) {
    this.groups = groups;
    this.everyMs = everyMs;
    /** When the readouts were last written while playing, ms. */
    this.at = -Infinity;
  }

  /**
   * Which groups to write now: all of them, or none.
   * @param {boolean} playing
   * @param {number} now ms
   * @returns {boolean[]} by group
   */
  due(playing, now) {
    const write = !playing || now - this.at >= this.everyMs;
    if (write) this.at = now;
    return new Array(this.groups).fill(write);
  }
}
