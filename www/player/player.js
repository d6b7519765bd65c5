// @ts-check
/**
 * The page's one player loop: the only `requestAnimationFrame` loop that
 * plays runs, shared by the single view, compare mode and the embed.
 *
 * What it owns:
 * - the play clock's reads (`playClock.play`, `now`, `stopped`, `drew`,
 *   `runTask`, see shared/play-clock.js): real time is read once per
 *   simulation task and handed to every registered part alike, so on a
 *   test's hand every part plays exactly the time the test hands out;
 * - pacing: the real time gone by since the last task (at most
 *   `MAX_FRAME_MS`, a background tab's gap is not played), which each
 *   part turns into simulated time at its own speed;
 * - the frame budget: the simulation runs in a task of its own right
 *   after each frame is shown (a message posted from an animation frame
 *   is handled after that frame's rendering), and the next animation
 *   frame draws what it did. The simulation's budget per frame is
 *   `SIM_BUDGET_MS`, less when drawing took long (`FRAME_SCRIPT_MS` in
 *   all), never below `MIN_SIM_MS`, and it is shared evenly by the parts
 *   playing (compare mode's four views together get one budget, not four);
 *   on a test's hand a task plays all of its time (Infinity);
 * - seeking in pieces: a part that is `busy` while paused (going to its
 *   opening moment, looking for its run's end: Model.openAt, seekEnd)
 *   gets the task too, within budgets of its own.
 *
 * A part registers with `player.add(part)` (see `Playable`); the loop
 * starts with the first part. Timing for
 * scripts/bench/browser/bench-frame.js: when `window.__frameStats` is an
 * array before the page loads, each frame that drew what a task did
 * pushes [script, frame, simulation, drawing] ms (the drawing calls; the
 * whole frame on the main thread, from the callback until the first task
 * after the browser's style, layout, paint and commit of that frame;
 * the task's simulation; the drawing), and `window.__simTasks` gets
 * every simulation task's length. Nothing is timed otherwise.
 *
 * ## The player loop
 *
 * **The player loop** (`player/player.js`) is the page's only
 * `requestAnimationFrame` loop that plays: the single view, compare mode
 * and the embeds register with `player.add(part)` (a `Model` made a part by
 * `playModel`, a comparison's runs by `playRuns`, stage/runs.js), where a part
 * says whether it plays (`playing()`), whether it needs the simulation task
 * while paused (`busy()`: going to an `at=` moment in pieces, looking for
 * the run's end), runs its simulation (`advance(realMs, budgetMs)`),
 * draws (`flush()`, true when it drew) and reports a failure (`failed`);
 * `playModel(model, failed)` makes one of a `Model`. The player reads
 * the play clock once per simulation task (so a test's hand plays every
 * part alike), caps the real time a task plays (100 ms), and runs the
 * simulation in a task of its own right after each frame is shown; the
 * next frame draws what it did. It owns the frame budget: 6 ms of
 * simulation a frame, less when drawing took long (12 ms for both), never
 * under 2 ms, shared evenly by the parts that play (compare mode splits
 * its share among its runs; a run that falls behind goes on from where it
 * got to, and any action brings them together first). Seeking stays in the
 * model: a seek or step is done at once, an opening moment in pieces
 * through `busy`.
 * @module player/player
 */

import { playClock as pageClock } from '../shared/play-clock.js';

/** Longest real-time gap one task plays (a background tab), ms. */
export const MAX_FRAME_MS = 100;

/** Wall-clock budget of one frame's simulation, all parts together, ms. */
export const SIM_BUDGET_MS = 6;

/** The simulation and the drawing together aim below this, ms: when
 * drawing takes long (a pathological run), the simulation gets less, down
 * to `MIN_SIM_MS`, so no frame's script passes 16 ms. */
export const FRAME_SCRIPT_MS = 12;

/** Least simulation budget of a frame, all parts together, ms (the runs
 * must go on). */
export const MIN_SIM_MS = 2;

/**
 * What the player drives: a run (or several that share a clock, as in
 * compare mode) and its drawing.
 * @typedef {object} Playable
 * @property {() => boolean} playing whether it plays now (takes real time
 *   from the clock, at its own speed)
 * @property {() => boolean} [busy] whether it needs the simulation task
 *   while not playing (going to its opening moment, looking for its end)
 * @property {(realMs: number, budgetMs: number) => void} advance the
 *   simulation's part, in the task between frames: play `realMs` of real
 *   time (when playing) within `budgetMs` of wall-clock work (its share
 *   of the frame's budget; Infinity on a test's hand). Not drawn yet.
 * @property {() => boolean} flush draws what `advance` did, in the
 *   animation frame; true when it drew anything
 * @property {(e: unknown) => void} failed something thrown by `advance`
 *   or `flush`: stop playing and say so
 */

export class Player {
  /**
   * @param {import('../shared/play-clock.js').PlayClock} [clock] the page's
   *   clock unless told
   */
  constructor(clock = pageClock) {
    /** @private */
    this.clock = clock;
    /** @private @type {Playable[]} */
    this.parts = [];
    /** @private */
    this.started = false;
    /** @private */
    this.simQueued = false;
    /** The clock's reading at the last task that played, ms. @private */
    this.lastSim = clock.now(performance.now());
    /** What drawing took, a slowly fading memory of the costliest frame,
     * ms (for the budget). @private */
    this.drawMs = 0;
    /** The last task's simulation and the last drawing, ms. */
    this.simMs = 0;
    this.lastDrawMs = 0;
    /** @private */
    this.simTask = new MessageChannel();
    this.simTask.port1.onmessage = () => this.runTask();
    const timing = /** @type {{__frameStats?: number[][], __simTasks?: number[]}} */ (
      /** @type {unknown} */ (typeof window === 'undefined' ? {} : window)
    );
    /** @private */
    this.timing = timing;
    if (timing.__frameStats) timing.__simTasks = [];
    /** Frames drawn, waiting for the first task after them. @private @type {number[][]} */
    this.pendingStats = [];
    /** @private */
    this.afterFrame = new MessageChannel();
    this.afterFrame.port1.onmessage = () => {
      const entry = this.pendingStats.shift();
      const stats = this.timing.__frameStats;
      if (entry && stats) stats.push([entry[1], performance.now() - entry[0], entry[2], entry[3]]);
    };
  }

  /**
   * Registers a part; the loop starts with the first.
   * @param {Playable} part
   * @returns {() => void} unregisters it
   */
  add(part) {
    this.parts.push(part);
    if (!this.started) {
      this.started = true;
      requestAnimationFrame(() => this.frame());
    }
    return () => {
      this.parts = this.parts.filter((p) => p !== part);
    };
  }

  /**
   * The simulation's budget of the next task, all parts together, ms.
   * @returns {number}
   */
  budgetMs() {
    if (this.clock.hand) return Infinity;
    return Math.min(SIM_BUDGET_MS, Math.max(MIN_SIM_MS, FRAME_SCRIPT_MS - this.drawMs));
  }

  /**
   * Whether any part plays now.
   * @private
   */
  anyPlaying() {
    return this.parts.some((p) => p.playing());
  }

  /**
   * The simulation task: every part that plays (or is busy) advances.
   * @private
   */
  runTask() {
    this.simQueued = false;
    const started = performance.now();
    const parts = this.parts.slice();
    const playing = parts.map((p) => p.playing());
    const anyPlaying = playing.some(Boolean);
    const now = anyPlaying ? this.clock.play(started) : this.clock.now(started);
    const realMs = Math.min(Math.max(0, now - this.lastSim), MAX_FRAME_MS);
    this.lastSim = now;
    const share = this.budgetMs() / Math.max(1, playing.filter(Boolean).length);
    parts.forEach((part, i) => {
      if (!playing[i] && !part.busy?.()) return;
      try {
        part.advance(realMs, share);
      } catch (e) {
        part.failed(e);
      }
    });
    // A run that stopped by itself voids the rest of a test's budget.
    if (anyPlaying && !this.anyPlaying()) this.clock.stopped();
    this.simMs = performance.now() - started;
    this.timing.__simTasks?.push(this.simMs);
  }

  /** @private */
  frame() {
    const from = performance.now();
    let drew = false;
    for (const part of this.parts.slice()) {
      try {
        if (part.flush()) drew = true;
      } catch (e) {
        part.failed(e);
      }
    }
    if (drew) {
      // What drawing costs, for the next frames' budget: the last
      // frame's, or a slowly fading memory of a costlier one.
      this.lastDrawMs = performance.now() - from;
      this.drawMs = Math.max(this.lastDrawMs, this.drawMs * 0.9);
      if (this.timing.__frameStats) {
        this.pendingStats.push([from, this.lastDrawMs, this.simMs, this.lastDrawMs]);
        this.afterFrame.port2.postMessage(null);
      }
    }
    const wanted = this.parts.some((p) => p.playing() || p.busy?.());
    if (wanted && !this.simQueued && this.clock.runTask()) {
      this.simQueued = true;
      this.simTask.port2.postMessage(null);
    }
    // Playing again starts from the frame it starts at.
    if (!this.anyPlaying()) this.lastSim = this.clock.now(performance.now());
    this.clock.drew();
    requestAnimationFrame(() => this.frame());
  }
}

/** The page's player (one for the full page, compare mode and the embed). */
export const player = new Player();

/**
 * A Model as a `Playable`: plays at the model's speed, goes to its
 * opening moment and looks for its end while paused, draws through the
 * model's listeners.
 * @param {import('./model.js').Model} model
 * @param {(e: unknown) => void} failed
 * @param {{advance?: (realMs: number, budgetMs: number) => void, busy?: () => boolean}} [override]
 *   another simulation step (the embed's range) or busy test
 * @returns {Playable}
 */
export function playModel(model, failed, override = {}) {
  return {
    playing: () => model.playing,
    busy:
      override.busy ??
      (() => model.isOpening || model.endPending || model.toEnd || model.searchingLandmark || model.storyPending),
    advance: (realMs, budgetMs) => {
      if (override.advance) override.advance(realMs, budgetMs);
      else model.advance(realMs, budgetMs);
      pageClock.record(model.nowMs);
    },
    flush: () => model.flush(),
    failed,
  };
}
