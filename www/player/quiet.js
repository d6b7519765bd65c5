// @ts-check
/**
 * Quiet-time skipping: pacing only. While the next thing that matters to
 * the story is far off, playing goes faster, so that a quiet stretch (the
 * failure detector's wait after a crash, heartbeats going round while
 * nothing else happens) takes at most `QUIET_REAL_MS` of real time. What
 * matters is the core's: with `next_story_ms()` (the next story moment:
 * an election message sent or delivered, a role, leader or term change, a
 * vote, a fault, a role-changing timer firing) a stretch where only
 * background traffic (heartbeats, lease renewals) moves and timer arcs
 * count down is quiet too, while no message on the wire arrives at a
 * story moment (an election message on its way is watched at the asked
 * speed); a module without it falls back on "nothing on the wire and the
 * next activity (`next_activity_ms()`) far off". The last
 * `LEAD_REAL_MS` before the activity play at the asked speed again, so
 * the end of a timer's countdown is seen. Only the simulated time each
 * frame plays to changes: the events and every number at any moment are
 * those of `run_until_ms` (the core decides them), as are seeking, `at=`
 * and stepping, which this never touches.
 *
 * The choice (on unless turned off) is kept in localStorage.
 * @module player/quiet
 */

import { storyTold } from '../ask/story.js';

/** Real time a quiet stretch takes at most while skipped, ms. */
export const QUIET_REAL_MS = 600;

/** Real time before the next activity played at the asked speed, ms (the
 * last of a timer's countdown). */
export const LEAD_REAL_MS = 400;

const STORE_KEY = 'election-playground-skip-quiet';

/**
 * A quiet stretch being skipped.
 * @typedef {object} QuietStretch
 * @property {number} fromMs where it began, simulated ms
 * @property {number} untilMs where skipping ends (the lead before the next
 *   activity, or the horizon), simulated ms
 * @property {number} rate simulated ms per real ms while skipping
 * @property {number} revision the model's revision it belongs to
 * @property {number} speed the speed it was measured for
 */

/**
 * When the next thing that matters happens, simulated ms (see the top
 * comment): the next story moment, or, without the core's story, the next
 * activity while nothing is on the wire. `null`: something matters now
 * (a message on the wire, without the story); undefined: nothing more
 * will happen.
 * @param {import('../pkg/election_player.js').Playground} pg
 * @returns {number | null | undefined}
 */
export function nextMatters(pg) {
  const story = /** @type {{next_story_ms?: () => number | undefined}} */ (/** @type {unknown} */ (pg));
  // Without the story (a module that has none, or while it is being told
  // in pieces): the wire and the next activity.
  if (typeof story.next_story_ms !== 'function' || !storyTold(pg)) {
    if (pg.flight_count() > 0) return null;
    return pg.next_activity_ms();
  }
  const next = story.next_story_ms();
  if (next === undefined) return undefined;
  // An election message on its way is the story, seen at the asked speed.
  if (storyOnWire(pg)) return null;
  return next;
}

/** Most messages on the wire looked through for one that is the story's;
 * more than this is a busy wire, never quiet. */
const MAX_WIRE_LOOK = 4096;

/** The flight columns (`flight_fields()`), learnt from the wasm (Model). @type {{width: number, arrive: number} | null} */
let flightShape = null;

/**
 * Learns where a flight row holds its arrival (the wasm's column names).
 * @param {string[]} names `flight_fields()`
 */
export function learnFlightFields(names) {
  flightShape = { width: names.length, arrive: names.indexOf('arrive_ms') };
}

/** A run's story moments, kept per run and its number of faults (the
 * core's story changes with a live fault). @type {WeakMap<object, {faults: number, moments: Set<number>}>} */
const momentsOf = new WeakMap();

/**
 * Whether a message on the wire is part of the story: it arrives at one of
 * the story's moments (an election message's delivery is one; a
 * heartbeat's is not).
 * @param {import('../pkg/election_player.js').Playground} pg
 * @returns {boolean}
 */
function storyOnWire(pg) {
  const count = pg.flight_count();
  if (count === 0) return false;
  if (count > MAX_WIRE_LOOK || !flightShape || flightShape.arrive < 0) return true;
  const faults = pg.fault_count();
  let known = momentsOf.get(pg);
  if (!known || known.faults !== faults) {
    const story = /** @type {{story_json: () => string}} */ (/** @type {unknown} */ (pg));
    known = { faults, moments: new Set(JSON.parse(story.story_json()).moments_ms) };
    momentsOf.set(pg, known);
  }
  const rows = pg.flights();
  const { width, arrive } = flightShape;
  for (let o = 0; o + width <= rows.length; o += width) {
    if (known.moments.has(rows[o + arrive])) return true;
  }
  return false;
}

/**
 * The quiet stretch starting now, if there is one worth skipping: the
 * next thing that matters (`nextMatters`) more than `QUIET_REAL_MS` of
 * real time (plus the lead) away at `speed`.
 * @param {import('../pkg/election_player.js').Playground} pg
 * @param {number} speed simulated ms per real ms asked for
 * @param {number} revision
 * @returns {QuietStretch | null}
 */
export function quietStretch(pg, speed, revision) {
  const next = nextMatters(pg);
  // Something on the wire now (without the story), or nothing more will
  // happen: the run stops by itself, or plays on its background traffic.
  if (next === null || next === undefined) return null;
  const now = pg.now_ms();
  const untilMs = Math.min(next - LEAD_REAL_MS * speed, pg.horizon_ms());
  const gap = untilMs - now;
  if (!(gap > QUIET_REAL_MS * speed)) return null;
  return { fromMs: now, untilMs, rate: gap / QUIET_REAL_MS, revision, speed };
}

/**
 * Whether skipping is on (the stored choice; on when none).
 * @returns {boolean}
 */
export function storedSkipQuiet() {
  try {
    return window.localStorage.getItem(STORE_KEY) !== '0';
  } catch {
    return true;
  }
}

/**
 * Keeps the choice for the next visit.
 * @param {boolean} on
 */
export function storeSkipQuiet(on) {
  try {
    window.localStorage.setItem(STORE_KEY, on ? '1' : '0');
  } catch {
    // Storage may be off (private mode): the choice lasts for this page only.
  }
}

/**
 * A quiet stretch in words: "182 ms", "1.2 s".
 * @param {number} ms simulated
 * @returns {string}
 */
export function quietWords(ms) {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Number((ms / 1000).toPrecision(2))} s`;
}
