// @ts-check
/**
 * Time travel controls around the scrubber (the bar, stage/bar.js, has
 * the "Next change" button): running to the next role change, leader
 * change or violation, seeking back and forward by a
 * jump, speed up and down by a factor, how much of the run has been
 * explored, and what acting in the past does to the history (a fault made
 * before the latest moment reached forks a new history and drops the
 * faults made live after it; the scenario's own faults stay).
 *
 * The model and the core decide everything; this module forwards presses
 * and words what happened.
 * @module timeline
 */
import { el, setText } from '../shared/dom.js';


/** How many jumps span the scrubber. */
const JUMPS_PER_SCRUBBER = 20;

/** Speed factor of one faster/slower press. */
export const SPEED_FACTOR = 2;

/**
 * The largest 1, 2 or 5 times a power of ten that is at most `ms`
 * (at least 0.001 ms).
 * @param {number} ms
 * @returns {number}
 */
export function niceStep(ms) {
  if (!(ms > 0.001)) return 0.001;
  const power = 10 ** Math.floor(Math.log10(ms));
  for (const m of [5, 2, 1]) {
    if (m * power <= ms) return Number((m * power).toPrecision(1));
  }
  return power;
}

/**
 * A fault object in a few words: `crash n5 at 3000 ms`.
 * @param {Record<string, unknown>} fault
 * @returns {string}
 */
export function faultWords(fault) {
  const kind =
    Object.keys(fault).find((k) => k !== 'at_ms' && !k.endsWith('_ms') && k !== 'drift') ?? 'fault';
  const target = fault[kind];
  let who = '';
  if (typeof target === 'number') who = ` n${target}`;
  else if (target === 'leader') who = ' the leader';
  else if (Array.isArray(target) && typeof target[0] === 'number') who = ` n${target[0]} → n${target[1]}`;
  return `${kind}${who} at ${fault.at_ms} ms`;
}

/**
 * The words of a fork: "History forked at 1234 ms: 2 later actions
 * dropped (crash n5 at 3000 ms, recover n5 at 4000 ms)."
 * @param {import('./model.js').Fork} fork
 * @returns {string}
 */
export function forkText(fork) {
  const n = fork.dropped.length;
  const head = `History forked at ${fork.at_ms} ms`;
  if (n === 0) return `${head}: what came after was recomputed; no later actions to drop.`;
  const list = fork.dropped.map((f) => faultWords(/** @type {Record<string, unknown>} */ (f))).join(', ');
  return `${head}: ${n} later action${n === 1 ? '' : 's'} dropped (${list}).`;
}

export class TimelineControls {
  /** @param {import('./model.js').Model} model */
  constructor(model) {
    this.model = model;
    this.scrubber = /** @type {HTMLInputElement} */ (el('timeline'));
    this.explored = el('explored');
    this.exploredBar = el('explored-bar');
    this.nowMark = el('explored-now');
    this.pastNote = el('past-note');
    this.forkNote = el('fork-note');
  }

  /** @returns {number} ms one seek press moves */
  jumpMs() {
    return niceStep(Number(this.scrubber.max) / JUMPS_PER_SCRUBBER);
  }

  /**
   * Seeks by `direction` jumps (negative: back), within 0 and the
   * scrubber's end.
   * @param {number} direction
   */
  jump(direction) {
    const now = this.model.nowMs;
    const target = Math.min(Number(this.scrubber.max), Math.max(0, now + direction * this.jumpMs()));
    this.model.seek(target);
  }

  /** @param {number} direction +1 faster, -1 slower */
  changeSpeed(direction) {
    this.model.setSpeed(this.model.speed * SPEED_FACTOR ** direction);
  }

  /** Brings the explored bar and the notes up to date. */
  render() {
    const m = this.model;
    const pg = m.playground;
    const now = pg.now_ms();
    const reached = pg.reached_ms();
    const max = Math.max(Number(this.scrubber.max), 1);
    // Written only when changed (this runs every frame while playing).
    setStyle(this.exploredBar, 'width', `${Math.min(100, (100 * reached) / max)}%`);
    setStyle(this.nowMark, 'left', `${Math.min(100, (100 * now) / max)}%`);
    const title = `Explored up to ${reached} ms`;
    if (this.explored.title !== title) this.explored.title = title;
    const past = now < reached;
    const ahead = past ? pg.live_faults_ahead() : 0;
    setText(
      this.pastNote,
      past
        ? `In the past: this history runs on to ${reached} ms. A fault made now starts a new history` +
            (ahead > 0 ? ` and drops ${ahead} later action${ahead === 1 ? '' : 's'}.` : '.')
        : '',
    );
    if (this.pastNote.hidden === past) this.pastNote.hidden = !past;
    setText(this.forkNote, m.fork ? forkText(m.fork) : '');
    if (this.forkNote.hidden === Boolean(m.fork)) this.forkNote.hidden = !m.fork;
  }
}

/**
 * Sets a style property only when it changed.
 * @param {HTMLElement} node
 * @param {string} name
 * @param {string} value
 */
function setStyle(node, name, value) {
  if (node.style.getPropertyValue(name) !== value) node.style.setProperty(name, value);
}
