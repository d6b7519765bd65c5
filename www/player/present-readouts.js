// @ts-check
/**
 * Presentation mode's readouts: leader, term (only where the algorithm
 * has terms: some node reports one), messages sent and simulated time, in
 * one row above the cluster at projector size
 * (`[data-testid=present-readouts]`, shown only under `body.presenting`,
 * ask/ask.css). The same figures as the Now panel (panels/status.js),
 * from the same snapshot; nothing here is computed about an algorithm.
 * @module player/present-readouts
 */

import { leaderSummary } from '../panels/status.js';
import { h, setText } from '../shared/dom.js';
import { grouped } from '../shared/numbers.js';

export class PresentReadouts {
  /**
   * @param {HTMLElement} box the row (index.html's `#present-readouts`)
   */
  constructor(box) {
    /** @private */
    this.box = box;
    /** @private */
    this.leader = h('span', { class: 'mono', 'data-testid': 'present-leader' });
    /** @private */
    this.term = h('span', { class: 'mono', 'data-testid': 'present-term' });
    /** @private */
    this.messages = h('span', { class: 'mono', 'data-testid': 'present-messages' });
    /** @private */
    this.time = h('span', { class: 'mono', 'data-testid': 'present-time' });
    /** @private */
    this.termItem = h('div', {}, h('dt', {}, 'Term'), h('dd', {}, this.term));
    box.replaceChildren(
      h('div', {}, h('dt', {}, 'Leader'), h('dd', {}, this.leader)),
      this.termItem,
      h('div', {}, h('dt', {}, 'Messages'), h('dd', {}, this.messages)),
      h('div', {}, h('dt', {}, 'Time'), h('dd', {}, this.time, ' ms')),
    );
  }

  /**
   * @param {import('./model.js').Snapshot} s
   */
  render(s) {
    setText(this.leader, leaderSummary(s.leaders));
    // The leader's term; with no leader, the highest term any node is in.
    let term = null;
    if (s.leader !== undefined) term = s.nodes.find((n) => n.id === s.leader)?.term ?? null;
    if (term === null) {
      for (const n of s.nodes) if (n.term !== null && (term === null || n.term > term)) term = n.term;
    }
    this.termItem.hidden = term === null;
    setText(this.term, term === null ? '' : String(term));
    setText(this.messages, grouped(s.messagesSent));
    setText(this.time, String(s.nowMs));
  }
}
