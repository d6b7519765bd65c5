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
 * count down is quiet too; a module without it falls back on "nothing on
 * the wire and the next activity (`next_activity_ms()`) far off". The last
 * `LEAD_REAL_MS` before the activity play at the asked speed again, so
 * the end of a timer's countdown is seen. Only the simulated time each
 * frame plays to changes: the events and every number at any moment are
 * those of `run_until_ms` (the core decides them), as are seeking, `at=`
 * and stepping, which this never touches.
 *
 * The choice (on unless turned off) is kept in localStorage.
 * @module player/quiet
 */

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
  if (typeof story.next_story_ms === 'function') return story.next_story_ms();
  if (pg.flight_count() > 0) return null;
  return pg.next_activity_ms();
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
