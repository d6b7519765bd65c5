// @ts-check
/**
 * Narration for screen readers: a polite ARIA live region that says what
 * changed as the run plays: who runs for leader, who becomes leader or
 * steps down, crashes and recoveries, and property alerts. Throttled:
 * at most one announcement every `GAP_MS`, gathering what happened in
 * between into one sentence ("n4 becomes leader in term 2; n1 crashes;
 * and 3 more changes"), never a line per message.
 *
 * It reads the state changes of the recorded trace (trace.js) and only
 * narrates what the run itself reached by playing or stepping; a jump
 * (a seek, "To end", a reload) is not narrated event by event.
 * @module narrate
 */

import { ROLE, propertyLabel } from '../shared/names.js';

/** Shortest gap between two announcements, ms of real time. */
export const GAP_MS = 1500;
/** Most new events a paused step may bring and still be narrated. */
const STEP_EVENTS = 200;
/** Most phrases in one announcement. */
const MAX_PHRASES = 4;

export class Narrator {
  /**
   * @param {HTMLElement} region `aria-live="polite"` element
   * @param {import('../shared/trace.js').TraceStore} store
   */
  constructor(region, store) {
    this.region = region;
    this.store = store;
    /** Trace index up to which events were considered. @private */
    this.cursor = 0;
    /** @private */
    this.generation = -1;
    /** Phrases waiting to be said. @private @type {string[]} */
    this.pending = [];
    /** Last role narrated per node. @private @type {Map<number, number>} */
    this.roles = new Map();
    /** @private */
    this.spokeAt = -Infinity;
    /** @private @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
  }

  /**
   * Takes in what happened since the last call (call after the store's
   * sync).
   * @param {import('../player/model.js').Model} model
   */
  sync(model) {
    const s = this.store;
    const count = s.count;
    if (s.generation !== this.generation || count < this.cursor) {
      // A new run, or time went back: start listening from here.
      this.generation = s.generation;
      this.cursor = count;
      this.pending = [];
      this.roles.clear();
      return;
    }
    if (count === this.cursor) return;
    const jumped = !model.playing && count - this.cursor > STEP_EVENTS;
    if (!jumped) this.gather(model, this.cursor, count);
    this.cursor = count;
    this.flushSoon();
  }

  /**
   * @private
   * @param {import('../player/model.js').Model} model
   * @param {number} from
   * @param {number} to
   */
  gather(model, from, to) {
    const { col, code } = this.store.schema;
    /** @type {number[]} */
    const candidates = [];
    let violations = 0;
    this.store.historyBetween(from, to, (d, o) => {
      const type = d[o + col.type];
      const node = d[o + col.node];
      if (type === code.role) {
        const role = d[o + col.value];
        const before = this.roles.get(node);
        this.roles.set(node, role);
        const term = d[o + col.term];
        const inTerm = term >= 0 ? ` in term ${term}` : '';
        if (role === ROLE.leader) this.pending.push(`n${node} becomes leader${inTerm}`);
        else if (role === ROLE.candidate) candidates.push(node);
        else if (role === ROLE.follower && before === ROLE.leader) this.pending.push(`n${node} steps down`);
      } else if (type === code.crash) {
        this.pending.push(`n${node} crashes`);
      } else if (type === code.recover) {
        this.pending.push(`n${node} recovers`);
      } else if (type === code.violation) {
        violations += 1;
      }
    });
    if (candidates.length > 0) {
      const names = [...new Set(candidates)].map((n) => `n${n}`);
      this.pending.unshift(
        names.length === 1
          ? `${names[0]} runs for leader`
          : names.length <= 4
            ? `${names.join(', ')} run for leader`
            : `${names.length} nodes run for leader`,
      );
    }
    if (violations > 0) {
      const list = model.violations().slice(-violations);
      for (const v of list) {
        const title = propertyLabel(v.property);
        // Alerts go first: they matter most.
        this.pending.unshift(`Alert: ${title.toLowerCase()} at ${v.at_ms} ms`);
      }
    }
  }

  /** @private */
  flushSoon() {
    if (this.pending.length === 0 || this.timer !== null) return;
    const wait = Math.max(0, this.spokeAt + GAP_MS - performance.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, wait);
  }

  /** @private */
  flush() {
    if (this.pending.length === 0) return;
    const shown = this.pending.slice(0, MAX_PHRASES);
    const more = this.pending.length - shown.length;
    let text = shown.join('; ');
    if (more > 0) text += `; and ${more} more change${more === 1 ? '' : 's'}`;
    this.pending = [];
    this.region.textContent = `${text}.`;
    this.spokeAt = performance.now();
  }
}
