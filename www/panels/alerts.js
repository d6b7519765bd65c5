// @ts-check
/**
 * Live property alerts: when a property check fails (two leaders in a
 * term, split brain across a partition, a stale write accepted, ...), a
 * banner says what happened in the core's words, adds a line on why it
 * matters, and offers to jump to the moment it happened. The banner can be
 * dismissed; the list of every violation stays under Now
 * (`[data-testid=alerts]`, kept by status.js).
 *
 * The banner sits in a `role="alert"` container that is always in the
 * page (empty when there is nothing to say), so screen readers announce
 * a new alert when its text goes in.
 * @module alerts
 */

import { propertyLabel } from '../shared/names.js';

/**
 * Why each property matters, for people meeting it for the first time,
 * keyed by the ids of the properties the core checks (the wasm's
 * `properties()`, which also gives each its label: shared/names.js).
 * @type {Readonly<Record<string, string>>}
 */
export const WHY = Object.freeze({
  one_leader_per_term:
    'A consensus algorithm promises at most one leader per term. Two leaders of the same term can both accept writes, and the replicas would disagree: this is a real bug, not a known limitation.',
  split_brain:
    'Each side of the partition chose its own leader. Clients on both sides keep writing to different leaders, so the data diverges and must be reconciled when the network heals. Classical algorithms cannot avoid this; majority-based ones (Raft, Zab) can.',
  one_leader_per_component:
    'The algorithm claims one leader among nodes that can talk. Two of them give clients conflicting answers even though nothing separates them.',
  stale_write_accepted:
    'An old leader, not knowing it was replaced, wrote to the storage service and the write was applied over a newer leader’s. A fencing token (the storage service refusing lower tokens) stops exactly this.',
  lease_overlap:
    'A lease is only safe while clocks agree within a bound. With clock drift or a long pause, two nodes both believe they hold it and both act as leader.',
  terms_never_decrease:
    'Terms order leaders in time. A node that goes back to an older term can follow, or vote for, a leader that was already deposed.',
  one_vote_per_term:
    'If a node votes twice in one term, two candidates can each count a majority and both become leader. Votes must survive crashes (persisted).',
});

/**
 * What the banner needs from the page.
 * @typedef {object} AlertHooks
 * @property {(atMs: number) => void} jump go to that moment (paused)
 * @property {() => void} showAll show the list of every alert
 * @property {() => void} dismissed the last alert was dismissed (to put the
 *   focus somewhere useful)
 */

export class AlertBanner {
  /**
   * @param {HTMLElement} region the always-present `role="alert"` container
   * @param {AlertHooks} hooks
   */
  constructor(region, hooks) {
    this.region = region;
    this.hooks = hooks;
    /** Violations the user dismissed, by `property@at_ms`. @private @type {Set<string>} */
    this.dismissed = new Set();
    /** What is shown (`property@at_ms`, '' for nothing). @private */
    this.shown = '';
    /** @private */
    this.seenKey = '';
    /** @private @type {unknown} */
    this.pg = null;
    /** What the last render saw, to redraw after a dismissal. @private @type {[import('../player/model.js').Model, number] | null} */
    this.last = null;
  }

  /**
   * @param {import('../player/model.js').Violation} v
   * @returns {string}
   */
  static id(v) {
    return `${v.property}@${v.at_ms}`;
  }

  /**
   * Shows the latest violation not dismissed (or nothing).
   * @param {import('../player/model.js').Model} model
   * @param {number} count violations so far
   */
  render(model, count) {
    this.last = [model, count];
    if (model.playground !== this.pg) {
      this.pg = model.playground;
      this.dismissed.clear();
    }
    const key = `${model.revision}:${count}:${this.dismissed.size}`;
    if (key === this.seenKey) return;
    this.seenKey = key;
    const list = count === 0 ? [] : model.violations();
    const open = list.filter((v) => !this.dismissed.has(AlertBanner.id(v)));
    const latest = open[open.length - 1];
    if (!latest) {
      this.show(null, 0, 0);
      return;
    }
    this.show(latest, open.length - 1, list.length);
  }

  /**
   * @private
   * @param {import('../player/model.js').Violation | null} v
   * @param {number} others other open violations
   * @param {number} total every violation so far
   */
  show(v, others, total) {
    const id = v ? AlertBanner.id(v) : '';
    const label = `${id}:${others}:${total}`;
    if (label === this.shown) return;
    const focusInside = this.region.contains(document.activeElement);
    this.shown = label;
    if (!v) {
      this.region.replaceChildren();
      return;
    }
    const about = { title: propertyLabel(v.property), why: WHY[v.property] ?? '' };
    const card = document.createElement('div');
    card.className = 'alert-card';
    card.dataset.testid = 'alert-banner';
    card.dataset.property = v.property;
    card.dataset.atMs = String(v.at_ms);

    const title = document.createElement('p');
    title.className = 'alert-title';
    const strong = document.createElement('strong');
    strong.textContent = about.title;
    title.append(strong, ` at ${v.at_ms} ms`);
    if (others > 0) title.append(` (and ${others} more)`);

    const detail = document.createElement('p');
    detail.className = 'alert-detail';
    detail.textContent = `${v.detail}.`;

    // On a phone the explanation folds away, so the banner does not hide
    // the cluster; it opens with a tap.
    const why = document.createElement('details');
    why.className = 'alert-why';
    why.open = window.matchMedia('(min-width: 600px)').matches;
    const summary = document.createElement('summary');
    summary.textContent = 'Why this matters';
    const because = document.createElement('p');
    because.textContent = about.why;
    why.append(summary, because);
    why.hidden = !about.why;

    const actions = document.createElement('div');
    actions.className = 'alert-actions';
    const jump = document.createElement('button');
    jump.type = 'button';
    jump.dataset.testid = 'alert-jump';
    jump.textContent = 'Jump to the moment';
    jump.addEventListener('click', () => this.hooks.jump(v.at_ms));
    const all = document.createElement('button');
    all.type = 'button';
    all.dataset.testid = 'alert-all';
    all.textContent = total > 1 ? `All ${total} alerts` : 'Alert list';
    all.addEventListener('click', () => this.hooks.showAll());
    const dismiss = document.createElement('button');
    dismiss.type = 'button';
    dismiss.dataset.testid = 'alert-dismiss';
    dismiss.className = 'alert-dismiss';
    dismiss.textContent = 'Dismiss';
    dismiss.setAttribute('aria-label', `Dismiss the ${about.title.toLowerCase()} alert`);
    dismiss.addEventListener('click', () => {
      this.dismissed.add(AlertBanner.id(v));
      this.seenKey = '';
      if (this.last) this.render(...this.last);
      if (!this.region.contains(document.activeElement)) this.hooks.dismissed();
    });
    actions.append(jump, all, dismiss);
    card.append(title, detail, why, actions);
    this.region.replaceChildren(card);
    if (focusInside) jump.focus();
  }
}
