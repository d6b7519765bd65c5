// @ts-check
/**
 * The wall clock the page plays on, and a test's hand on it.
 *
 * Playing turns real time into simulated time (speed × the real time gone
 * by since the last frame). On its own the page reads `performance.now()`
 * (or an animation frame's timestamp), so how far a run gets between two
 * looks depends on how fast the machine draws frames. A test that must
 * see the same moment every time sets, before the page loads
 * (`page.addInitScript`, see tests/browser/helpers.js), the hand:
 *
 *     window.__playClock = { budget: 0, frames: 0, posted: 0, painted: 0 }
 *
 * and the page then plays only on the time the test hands it: each frame
 * that plays takes a 60 Hz frame's worth (`FRAME_MS`) of `budget`, or
 * what is left of it, as the real time gone by; with nothing left the
 * runs stand still, whether playing or not, however many frames go by.
 * Nor is a frame's simulation cut short by the wall clock (Model.advance):
 * each frame plays all of its time, so where every frame gets is a
 * function of the run alone. A run that stops by itself (its end,
 * nothing left to happen) drops the rest of the budget. The page counts in `frames` the animation frames it
 * has drawn, and the cluster worker's drawings in `posted` and `painted`
 * (see cluster/layers.js), so a test can wait for the drawing of what it
 * played. `tasks`, when set, is how many more simulation tasks the page
 * may run (player/player.js; 0: between frames it does nothing, neither
 * plays nor goes to its opening moment nor looks for the run's end).
 * `trail`, when set to an array, gets where the single view's run stands
 * after each task, against the real time played (`record`).
 * Only the player reads the clock for playing; the cluster layers count
 * their drawings on it.
 *
 * Without the hand (everywhere but in tests) nothing here changes what
 * the page does.
 * @module play-clock
 */

/** The real time one frame stands for on a test's hand, ms (60 Hz). */
export const FRAME_MS = 1000 / 60;

/**
 * @typedef {object} Hand what a test sets as `window.__playClock`
 * @property {number} budget real ms the page may still play
 * @property {number} frames animation frames the page has drawn
 * @property {number} posted drawings handed to the cluster worker
 * @property {number} painted the last of them the worker has drawn
 * @property {number} [tasks] simulation tasks the page may still run;
 *   unset: no limit
 * @property {[number, number][]} [trail] when a test sets it to an array,
 *   each simulation task of the single view pushes [real ms played so far
 *   on the hand, simulated ms the run stands at] (the pacing test reads
 *   how much real time each stretch of a run took)
 */

export class PlayClock {
  /** @param {Hand | undefined} hand */
  constructor(hand) {
    /** The test's hand, if any. @type {Hand | null} */
    this.hand = hand ?? null;
    /** Real time played on the hand so far, ms. @private */
    this.handMs = 0;
  }

  /**
   * The time now, without playing any of it.
   * @param {number} real the wall clock's reading (performance.now() or
   *   an animation frame's timestamp)
   * @returns {number} ms
   */
  now(real) {
    return this.hand ? this.handMs : real;
  }

  /**
   * The time now, for a frame that plays: on a test's hand, one frame's
   * worth more of its budget (none when it is spent).
   * @param {number} real the wall clock's reading
   * @returns {number} ms
   */
  play(real) {
    const hand = this.hand;
    if (!hand) return real;
    // The last piece whole (no crumb of rounding left for another frame).
    const whole = hand.budget > FRAME_MS * (1 + 1e-9);
    this.handMs += whole ? FRAME_MS : Math.max(0, hand.budget);
    hand.budget = whole ? hand.budget - FRAME_MS : 0;
    return this.handMs;
  }

  /** A run stopped by itself: the rest of a test's budget is void. */
  stopped() {
    if (this.hand) this.hand.budget = 0;
  }

  /**
   * Notes where a run stands after a simulation task (the hand's `trail`,
   * when a test asked for one).
   * @param {number} simMs
   */
  record(simMs) {
    this.hand?.trail?.push([this.handMs, simMs]);
  }

  /** An animation frame was drawn. */
  drew() {
    if (this.hand) this.hand.frames += 1;
  }

  /**
   * Whether a simulation task may run now (one more is counted).
   * @returns {boolean}
   */
  runTask() {
    const hand = this.hand;
    if (!hand || hand.tasks === undefined) return true;
    if (hand.tasks <= 0) return false;
    hand.tasks -= 1;
    return true;
  }

  /**
   * A number for a drawing handed to the cluster worker, which the worker
   * names back once drawn (see `painted`); null without a hand.
   * @returns {number | null}
   */
  post() {
    if (!this.hand) return null;
    this.hand.posted += 1;
    return this.hand.posted;
  }

  /**
   * The cluster worker drew everything up to drawing `seq`.
   * @param {number} seq
   */
  painted(seq) {
    if (this.hand) this.hand.painted = Math.max(this.hand.painted, seq);
  }
}

/** The page's clock (one for the full page, compare mode and the embed,
 * read by player/player.js). */
export const playClock = new PlayClock(
  typeof window === 'undefined' ? undefined : /** @type {{__playClock?: Hand}} */ (/** @type {unknown} */ (window)).__playClock,
);
