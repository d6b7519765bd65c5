// @ts-check
/**
 * When the page's text readouts are written while a run plays: each group
 * at most every `everyMs`, and groups take turns (at least `everyMs / n`
 * apart), so the browser's style, layout and paint of a rewrite fall on
 * different frames instead of all on one (in the 256-node Raft run the
 * frame that rewrote every readout was the slowest frame in six). When
 * not playing, every group is written at every change.
 * @module readouts
 */

/** Least time between two writes of a group of text readouts while
 * playing, ms (the single view, compare mode and the embeds alike). */
export const READOUT_MS = 100;

export class Readouts {
  /**
   * @param {number} groups how many groups of readouts
   * @param {number} everyMs least time between two writes of a group
   */
  constructor(groups, everyMs) {
    this.everyMs = everyMs;
    /** When each group was last written, ms. */
    this.at = new Array(groups).fill(-Infinity);
    /** When any group was last written while playing, ms. */
    this.anyAt = -Infinity;
  }

  /**
   * Which groups to write now.
   * @param {boolean} playing
   * @param {number} now ms
   * @returns {boolean[]} by group
   */
  due(playing, now) {
    if (!playing) {
      this.at.fill(now);
      return this.at.map(() => true);
    }
    const out = this.at.map(() => false);
    if (now - this.anyAt < this.everyMs / this.at.length) return out;
    let oldest = 0;
    for (let g = 1; g < this.at.length; g++) if (this.at[g] < this.at[oldest]) oldest = g;
    if (now - this.at[oldest] < this.everyMs) return out;
    this.at[oldest] = now;
    this.anyAt = now;
    out[oldest] = true;
    return out;
  }
}
