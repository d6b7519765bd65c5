// @ts-check
/**
 * Quiet-time skipping: pacing only. While nothing is on the wire and the
 * next thing that happens (a timer firing, a fault: the core's
 * `next_activity_ms()`) is far off, playing goes faster, so that a quiet
 * stretch (the failure detector's wait after a crash, the gap between
 * two heartbeats) takes at most `QUIET_REAL_MS` of real time; the last
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
 * The quiet stretch starting now, if there is one worth skipping: nothing
 * on the wire, and the next activity more than `QUIET_REAL_MS` of real
 * time (plus the lead) away at `speed`.
 * @param {import('../pkg/election_player.js').Playground} pg
 * @param {number} speed simulated ms per real ms asked for
 * @param {number} revision
 * @returns {QuietStretch | null}
 */
export function quietStretch(pg, speed, revision) {
  if (pg.flight_count() > 0) return null;
  const next = pg.next_activity_ms();
  // Nothing will happen: the run stops by itself (or plays on, as before).
  if (next === undefined) return null;
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
