// @ts-check
/**
 * A single embed's words about its run (embed.js): the status line (who
 * leads, which checks failed, quiet time being skipped) and the address
 * of the same run at the same moment in the full playground.
 * @module embed/readouts
 */

import { propertyLabel } from '../shared/names.js';
import { quietWords } from '../player/quiet.js';

export class SingleStatus {
  constructor() {
    /** The failed checks named (the list is read only when its count changes). @private */
    this.shown = { key: '', text: '' };
  }

  /**
   * The status line's text.
   * @param {import('../player/model.js').Model} model
   * @param {import('../player/model.js').Snapshot} s its snapshot
   * @returns {string}
   */
  text(model, s) {
    const leaders = s.leaders.map((id) => `n${id}`);
    let text = leaders.length === 0 ? 'no leader' : leaders.length === 1 ? `leader ${leaders[0]}` : `leaders ${leaders.join(', ')}`;
    const violationKey = `${s.violationCount}|${model.revision}`;
    if (violationKey !== this.shown.key) {
      const titles = [...new Set(model.violations().map((v) => propertyLabel(v.property)))];
      this.shown.key = violationKey;
      this.shown.text = titles.length > 0 ? ` · ⚠ ${titles.join('; ')}` : '';
    }
    text += this.shown.text;
    const skipping = model.skippingMs;
    if (skipping > 0) text += ` · skipping ${quietWords(skipping)} of quiet time`;
    return text;
  }
}

/**
 * The full playground's address for this run at this moment.
 * @param {import('../player/model.js').Playground} pg
 * @param {string | null} preset the preset it came from (its narration)
 * @returns {string}
 */
export function fullHref(pg, preset) {
  const params = new URLSearchParams();
  if (preset) params.set('preset', preset);
  if (pg.now_ms() > 0) params.set('at', String(pg.now_ms()));
  const query = params.toString() ? `?${params}` : '';
  return new URL(`${window.location.pathname}${query}#${pg.share_fragment()}`, window.location.href).href;
}
